/**
 * The request body limit (upstream: 10 MB, answered with 413), enforced so that the client reads
 * its 413 rather than a reset connection:
 *
 * - a declared Content-Length over the limit is refused before anything is read; Node discards
 *   the body after the response;
 * - a chunked body (no length) is read here, keeping at most the limit in memory. Past the limit
 *   it is still read to its end but discarded, so the client can finish sending and then see the
 *   413; a body that goes on past `drainBytes` is cut off (the client then sees a reset). Within
 *   the limit, the handlers get a request carrying the bytes already read. Multipart bodies are
 *   left to the platform's streaming parser and its limits;
 * - as a backstop, the platform's own cap (`MaxBodySize`) is set for every body read.
 */
import { HttpIncomingMessage, HttpMethod, HttpServerRequest } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { messages, PayloadTooLargeError } from "@gleaner/core"
import { Effect, Option, Stream } from "effect"

/** Upstream's limit: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024

const tooLarge = () => new PayloadTooLargeError({ message: messages.bodyTooLarge })

const isChunked = (request: HttpServerRequest.HttpServerRequest) =>
  HttpMethod.hasBody(request.method) &&
  request.headers["content-length"] === undefined &&
  request.headers["transfer-encoding"] !== undefined &&
  !(request.headers["content-type"] ?? "").toLowerCase().includes("multipart/")

/** Reads the whole body; keeps it only while it is within `maxBytes`. */
const readChunked = (request: HttpServerRequest.HttpServerRequest, maxBytes: number, drainBytes: number) =>
  Effect.gen(function*() {
    const kept: Array<Uint8Array> = []
    const size = yield* Stream.runFoldWhile(request.stream, 0, (n) => n <= drainBytes, (n, chunk) => {
      if (n + chunk.length <= maxBytes) kept.push(chunk)
      return n + chunk.length
    })
    if (size > maxBytes) return yield* Effect.fail(tooLarge())
    const body = new Uint8Array(size)
    let offset = 0
    for (const chunk of kept) {
      body.set(chunk, offset)
      offset += chunk.length
    }
    const host = request.headers.host ?? "localhost"
    return HttpServerRequest.fromWeb(new Request(`http://${host}${request.url}`, { method: request.method, body }))
      .modify({
        url: request.url,
        headers: request.headers,
        ...Option.match(request.remoteAddress, { onNone: () => ({}), onSome: (remoteAddress) => ({ remoteAddress }) })
      })
  })

export const limitBody = (maxBodyBytes: number) =>
<E, R>(
  app: HttpApp.Default<E, R>
): HttpApp.Default<E | PayloadTooLargeError, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request): HttpApp.Default<E | PayloadTooLargeError, R> => {
    const capped = HttpIncomingMessage.withMaxBodySize(app, Option.some(maxBodyBytes))
    if (Number(request.headers["content-length"] ?? 0) > maxBodyBytes) return Effect.fail(tooLarge())
    if (!isChunked(request)) return capped
    return readChunked(request, maxBodyBytes, 4 * maxBodyBytes).pipe(
      // a body that cannot be read is the same failure the platform would report
      Effect.catchTag("RequestError", Effect.die),
      Effect.flatMap((buffered) => Effect.provideService(capped, HttpServerRequest.HttpServerRequest, buffered))
    )
  })
