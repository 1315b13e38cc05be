/**
 * Big and compressed bodies: `/huge?mb=` streams many megabytes of HTML (chunked, or with
 * `length=1` a Content-Length up front), `/gzip-bomb`, `/deflate-bomb` and `/brotli-bomb` are a
 * few hundred kilobytes on the wire and `bombMegabytes` of zeros once decompressed (generated
 * with zlib on first request, then kept), and `/compressed/{gzip,deflate,deflate-raw,br}` is
 * the article honestly compressed, to check that decompression gives back the same bytes.
 */
import type { ServerResponse } from "node:http"
import { createBrotliCompress, createDeflate, createGzip, brotliCompressSync, deflateRawSync, deflateSync, gzipSync, constants } from "node:zlib"
import type { Transform } from "node:stream"
import { intParam, route, send } from "../http.js"
import { articleHtml } from "./article.js"

export type BombKind = "gzip" | "deflate" | "br"

const megabyte = 1 << 20

/** Compresses `megabytes` MB of zeros without ever holding them: 1 MB written at a time. */
export const makeBomb = (kind: BombKind, megabytes: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const stream: Transform =
      kind === "gzip" ? createGzip({ level: 9 })
      : kind === "deflate" ? createDeflate({ level: 9 })
      : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
    const out: Array<Buffer> = []
    stream.on("data", (chunk: Buffer) => out.push(chunk))
    stream.on("end", () => resolve(Buffer.concat(out)))
    stream.on("error", reject)
    const zeros = Buffer.alloc(megabyte)
    let written = 0
    const pump = (): void => {
      while (written < megabytes) {
        written++
        if (!stream.write(zeros)) return void stream.once("drain", pump)
      }
      stream.end()
    }
    pump()
  })

const streamHuge = (res: ServerResponse, megabytes: number, withLength: boolean): void => {
  const line = "<p>All work and no play makes a very large page. All work and no play makes a very large page.</p>\n"
  const block = Buffer.from(line.repeat(Math.ceil(megabyte / line.length)).slice(0, megabyte), "utf8")
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...(withLength ? { "content-length": String(megabytes * megabyte) } : {}) })
  let sent = 0
  const pump = (): void => {
    while (sent < megabytes && !res.destroyed) {
      sent++
      if (!res.write(block)) return void res.once("drain", pump)
    }
    res.end()
  }
  pump()
}

const encoders: Readonly<Record<string, (input: Buffer) => Buffer>> = {
  gzip: gzipSync,
  deflate: deflateSync,
  "deflate-raw": deflateRawSync,
  br: brotliCompressSync
}

/** The routes for big bodies; bombs decompress to `bombMegabytes` MB. */
export const largeRoutes = (bombMegabytes: number) => {
  const bombs = new Map<BombKind, Promise<Buffer>>()
  const bomb = (kind: BombKind): Promise<Buffer> => {
    const made = bombs.get(kind) ?? makeBomb(kind, bombMegabytes)
    bombs.set(kind, made)
    return made
  }
  const serveBomb = (kind: BombKind) => async ({ res }: { readonly res: ServerResponse }) =>
    send(res, 200, { "content-type": "text/html; charset=utf-8", "content-encoding": kind }, await bomb(kind))
  return [
    route(/^\/huge$/, ({ res, url }) => streamHuge(res, intParam(url, "mb", 64, 4096), url.searchParams.get("length") === "1")),
    route(/^\/gzip-bomb$/, serveBomb("gzip")),
    route(/^\/deflate-bomb$/, serveBomb("deflate")),
    route(/^\/brotli-bomb$/, serveBomb("br")),
    route(/^\/compressed\/([a-z-]+)$/, ({ res, base, params }) => {
      const name = params[0] ?? ""
      const encode = encoders[name]
      if (encode === undefined) return send(res, 404, { "content-type": "text/plain" }, "unknown encoding")
      const encoding = name === "deflate-raw" ? "deflate" : name
      send(res, 200, { "content-type": "text/html; charset=utf-8", "content-encoding": encoding }, encode(Buffer.from(articleHtml(base))))
    })
  ]
}
