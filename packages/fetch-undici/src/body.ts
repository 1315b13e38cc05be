/**
 * Reads a response body under a size cap, decompressing gzip, deflate (zlib-wrapped or raw) and
 * brotli as it streams. Bytes are counted on the wire and after decompression; the first count
 * past `maxBytes` stops the stream, so a decompression bomb costs at most `maxBytes` of memory.
 * Truncated compressed streams are accepted as far as they go, as browsers do.
 */
import { Readable, Transform, Writable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from "node:zlib"

/** The body was larger than allowed; `stage` says whether on the wire or after decompression. */
export class BodyLimitExceeded extends Error {
  constructor(
    readonly stage: "wire" | "decompressed",
    readonly maxBytes: number
  ) {
    super(`body over ${maxBytes} bytes (${stage})`)
    this.name = "BodyLimitExceeded"
  }
}

/** The server used a Content-Encoding we did not offer and cannot decode. */
export class UnsupportedEncoding extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported Content-Encoding ${encoding}`)
    this.name = "UnsupportedEncoding"
  }
}

type Coding = "gzip" | "deflate" | "br"

/** The codings to undo, outermost first; identity dropped. */
export const codingsOf = (contentEncoding: string | undefined): ReadonlyArray<Coding> => {
  const listed = (contentEncoding ?? "").split(",").map((c) => c.trim().toLowerCase()).filter((c) => c !== "" && c !== "identity")
  return listed.reverse().map((c) => {
    if (c === "gzip" || c === "x-gzip") return "gzip"
    if (c === "deflate" || c === "br") return c
    throw new UnsupportedEncoding(c)
  })
}

/** RFC 1950 header: compression method 8 and a header checksum divisible by 31. */
const isZlibWrapped = (first: Uint8Array): boolean =>
  first.length < 2 || ((first[0] ?? 0) & 0x0f) === 8 && (((first[0] ?? 0) << 8) | (first[1] ?? 0)) % 31 === 0

const decoderFor = (coding: Coding, outermost: boolean, first: Uint8Array): Transform => {
  const zlibFlush = { finishFlush: constants.Z_SYNC_FLUSH }
  if (coding === "gzip") return createGunzip(zlibFlush)
  if (coding === "br") return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH })
  return !outermost || isZlibWrapped(first) ? createInflate(zlibFlush) : createInflateRaw(zlibFlush)
}

const counter = (maxBytes: number): Transform => {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length
      done(seen > maxBytes ? new BodyLimitExceeded("wire", maxBytes) : null, chunk)
    }
  })
}

const collector = (maxBytes: number, stage: BodyLimitExceeded["stage"], chunks: Array<Buffer>): Writable => {
  let seen = 0
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      seen += chunk.length
      if (seen > maxBytes) return done(new BodyLimitExceeded(stage, maxBytes))
      chunks.push(chunk)
      done()
    }
  })
}

/** The stream's chunks, starting with one already taken from it. */
async function* resumed(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    yield first
    for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value
  } finally {
    await rest.return?.()
  }
}

/**
 * The whole body, decoded, or a rejection: BodyLimitExceeded, UnsupportedEncoding, a zlib error,
 * or the abort reason when `signal` fires.
 */
export const readBody = async (
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  signal: AbortSignal
): Promise<Uint8Array> => {
  const codings = codingsOf(contentEncoding)
  const iterator: AsyncIterator<Buffer> = body[Symbol.asyncIterator]()
  const first = await iterator.next()
  if (first.done === true) return new Uint8Array()
  const decoders = codings.map((coding, i) => decoderFor(coding, i === 0, first.value))
  const chunks: Array<Buffer> = []
  const stages = decoders.length === 0 ? [] : [counter(maxBytes), ...decoders]
  const sink = collector(maxBytes, decoders.length === 0 ? "wire" : "decompressed", chunks)
  await pipeline([Readable.from(resumed(first.value, iterator)), ...stages, sink], { signal })
  return new Uint8Array(Buffer.concat(chunks))
}
