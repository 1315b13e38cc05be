/**
 * Files Gleaner made (screenshots, action PDFs) on `GET /v2/files/<key>`, and the origin their
 * URLs are built on. The key is 128 random bits: holding the URL is the permission to read the
 * file, as with the signed URLs upstream returns, so no API key is asked for (an `<img>` tag or
 * a plain download can follow it). Malformed, unknown and purged keys are a 404.
 *
 * The same middleware tells the engine where clients reach the server (`PublicOrigin`, from
 * GLEANER_PUBLIC_URL or the request's Host), so a scrape, crawl or batch started by a request
 * returns file URLs on that origin.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { BlobStore, filesPath, GleanerConfig, messages, PublicOrigin } from "@gleaner/core"
import { Effect, Option } from "effect"
import { publicBaseUrl } from "./url.js"

const notFound = HttpServerResponse.unsafeJson({ success: false, error: messages.routeNotFound, code: "NOT_FOUND" }, { status: 404 })

const filesMiddleware = Effect.gen(function*() {
  const config = yield* GleanerConfig
  const blobs = Option.getOrUndefined(yield* Effect.serviceOption(BlobStore))

  const serveFile = (key: string) =>
    Effect.gen(function*() {
      const blob = blobs === undefined ? Option.none() : yield* blobs.get(key)
      if (Option.isNone(blob)) return notFound
      return HttpServerResponse.uint8Array(blob.value.bytes, {
        contentType: blob.value.contentType,
        headers: { "cache-control": "private, max-age=604800, immutable", "x-content-type-options": "nosniff" }
      })
    })

  return (app: HttpApp.Default): HttpApp.Default =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0] ?? ""
      if (request.method === "GET" && path.startsWith(filesPath)) return yield* serveFile(path.slice(filesPath.length))
      const origin = yield* Effect.provideService(publicBaseUrl, GleanerConfig, config)
      return yield* Effect.provideService(app, PublicOrigin, Option.some(origin))
    })
})

/** The files route and the request's origin, as an HttpApi global middleware layer (see `HttpAppLive`). */
export const FilesLive = HttpApiBuilder.middleware(filesMiddleware)
