/**
 * Crawl endpoints (API.md §3.6): the core Crawler for the authenticated team; this module only
 * turns its answers into the wire shapes (absolute job and `next` URLs).
 */
import { HttpApiBuilder } from "@effect/platform"
import { Crawler, type PageJobStatus } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"
import { absoluteUrl } from "../url.js"

/** A status answer with `next` as the absolute URL of the following page (crawl and batch alike). */
export const statusWithNext = <E, R>(
  path: string,
  params: { readonly limit?: number | undefined },
  status: Effect.Effect<PageJobStatus, E, R>
) =>
  Effect.gen(function*() {
    const { nextSkip, limit, ...rest } = yield* status
    const limitParam = params.limit === undefined ? "" : `&limit=${limit}`
    const next = nextSkip === undefined ? undefined : yield* absoluteUrl(`${path}?skip=${nextSkip}${limitParam}`)
    return { success: true as const, ...rest, ...(next === undefined ? {} : { next }) }
  })

export const CrawlLive = HttpApiBuilder.group(GleanerApi, "crawl", (handlers) =>
  Effect.gen(function*() {
    const crawler = yield* Crawler
    const active = Effect.flatMap(CurrentAuth, (auth) => crawler.active(auth.team.id)).pipe(
      Effect.map((crawls) => ({ success: true as const, crawls }))
    )
    return handlers
      .handle("startCrawl", ({ headers, payload }) =>
        Effect.gen(function*() {
          const started = yield* crawler.start(yield* CurrentAuth, payload, headers["x-idempotency-key"])
          return { success: true as const, ...started, url: yield* absoluteUrl(`/v2/crawl/${started.id}`) }
        }))
      .handle("paramsPreview", ({ payload }) =>
        Effect.map(crawler.paramsPreview(payload.url, payload.prompt), (preview) => ({ success: true as const, ...preview })))
      .handle("activeCrawls", () => active)
      .handle("ongoingCrawls", () => active)
      .handle("crawlStatus", ({ path, urlParams }) =>
        Effect.flatMap(CurrentAuth, (auth) =>
          statusWithNext(`/v2/crawl/${path.jobId}`, urlParams, crawler.status(auth.team.id, path.jobId, urlParams))))
      .handle("cancelCrawl", ({ path }) => Effect.flatMap(CurrentAuth, (auth) => crawler.cancel(auth.team.id, path.jobId)))
      .handle("crawlErrors", ({ path }) => Effect.flatMap(CurrentAuth, (auth) => crawler.errors(auth.team.id, path.jobId)))
  }))
