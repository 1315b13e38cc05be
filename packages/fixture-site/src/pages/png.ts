/**
 * `/image.png`: a real 16×16 RGB gradient PNG, built at load time from its chunks (signature,
 * IHDR, IDAT, IEND with CRC-32s), so image handling is tested on valid bytes of our own.
 */
import { crc32, deflateSync } from "node:zlib"
import { route, send } from "../http.js"

const size = 16

const chunk = (type: string, data: Uint8Array): Buffer => {
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data])
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  typed.copy(out, 4)
  out.writeUInt32BE(crc32(typed), 8 + data.length)
  return out
}

const build = (): Buffer => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit depth, truecolour, deflate, no filter, no interlace
  const rows = Buffer.alloc(size * (1 + size * 3))
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3)
    for (let x = 0; x < size; x++) rows.set([x * 16, y * 16, 128], row + 1 + x * 3)
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", new Uint8Array())])
}

const png = build()

/** The fixture PNG's bytes (a copy). */
export const fixturePng = (): Uint8Array => new Uint8Array(png)

export const fixturePngBase64 = (): string => png.toString("base64")

export const pngRoutes = [route(/^\/image\.png$/, ({ res }) => send(res, 200, { "content-type": "image/png" }, png))]
