/**
 * Crawl endpoints (API.md §3.6): the core Crawler for the authenticated team; this module only
 * turns its answers into the wire shapes (absolute job and `next` URLs).
 */
import { HttpApiBuilder } from "@effect/platform"
import { Crawler } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"
import { absoluteUrl } from "../url.js"

export const CrawlLive = HttpApiBuilder.group(GleanerApi, "crawl", (handlers) =>
  Effect.gen(function*() {
    const crawler = yield* Crawler
    const active = Effect.flatMap(CurrentAuth, (auth) => crawler.active(auth.team.id)).pipe(
      Effect.map((crawls) => ({ success: true as const, crawls }))
    )
    return handlers
      .handle("startCrawl", ({ payload }) =>
        Effect.gen(function*() {
          const started = yield* crawler.start(yield* CurrentAuth, payload)
          return { success: true as const, ...started, url: yield* absoluteUrl(`/v2/crawl/${started.id}`) }
        }))
      .handle("paramsPreview", ({ payload }) =>
        Effect.map(crawler.paramsPreview(payload.url, payload.prompt), (preview) => ({ success: true as const, ...preview })))
      .handle("activeCrawls", () => active)
      .handle("ongoingCrawls", () => active)
      .handle("crawlStatus", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { nextSkip, limit, ...status } = yield* crawler.status((yield* CurrentAuth).team.id, path.jobId, urlParams)
          const limitParam = urlParams.limit === undefined ? "" : `&limit=${limit}`
          const next = nextSkip === undefined ? undefined : yield* absoluteUrl(`/v2/crawl/${path.jobId}?skip=${nextSkip}${limitParam}`)
          return { success: true as const, ...status, ...(next === undefined ? {} : { next }) }
        }))
      .handle("cancelCrawl", ({ path }) => Effect.flatMap(CurrentAuth, (auth) => crawler.cancel(auth.team.id, path.jobId)))
      .handle("crawlErrors", ({ path }) => Effect.flatMap(CurrentAuth, (auth) => crawler.errors(auth.team.id, path.jobId)))
  }))
