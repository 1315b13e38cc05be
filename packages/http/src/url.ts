/**
 * Absolute links in responses (job `url`, pagination `next`, the docs link). The SDK follows them
 * as they are, so they must name the server as the client reaches it: `GLEANER_PUBLIC_URL` when
 * the operator set one (behind a proxy that rewrites paths), else the request's own protocol and
 * Host (`X-Forwarded-Proto`/`-Host` first, as set by a reverse proxy).
 */
import { HttpServerRequest } from "@effect/platform"
import { GleanerConfig } from "@gleaner/core"
import { Effect, Option } from "effect"

const first = (header: string | undefined): string | undefined => header?.split(",")[0]?.trim() || undefined

/** `scheme://host[:port][/base]` without a trailing slash. */
export const publicBaseUrl: Effect.Effect<string, never, GleanerConfig | HttpServerRequest.HttpServerRequest> =
  Effect.gen(function*() {
    const { publicUrl } = yield* GleanerConfig
    if (Option.isSome(publicUrl)) return publicUrl.value.replace(/\/+$/, "")
    const { headers } = yield* HttpServerRequest.HttpServerRequest
    const protocol = first(headers["x-forwarded-proto"]) ?? "http"
    const host = first(headers["x-forwarded-host"]) ?? headers.host ?? "localhost"
    return `${protocol}://${host}`
  })

/** The absolute URL of a path on this server, e.g. `absoluteUrl("/v2/crawl/" + id)`. */
export const absoluteUrl = (path: string): Effect.Effect<string, never, GleanerConfig | HttpServerRequest.HttpServerRequest> =>
  Effect.map(publicBaseUrl, (base) => `${base}${path.startsWith("/") ? path : `/${path}`}`)
