/**
 * Batch scrape endpoints (API.md §3.5): the core BatchScraper for the authenticated team, with
 * absolute job and `next` URLs.
 */
import { HttpApiBuilder } from "@effect/platform"
import { BatchScraper } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"
import { statusWithNext } from "./crawl.js"
import { absoluteUrl } from "../url.js"

export const BatchScrapeLive = HttpApiBuilder.group(GleanerApi, "batchScrape", (handlers) =>
  Effect.gen(function*() {
    const batch = yield* BatchScraper
    return handlers
      .handle("startBatchScrape", ({ payload }) =>
        Effect.gen(function*() {
          const started = yield* batch.start(yield* CurrentAuth, payload)
          return { success: true as const, ...started, url: yield* absoluteUrl(`/v2/batch/scrape/${started.id}`) }
        }))
      .handle("batchScrapeStatus", ({ path, urlParams }) =>
        Effect.flatMap(CurrentAuth, (auth) =>
          statusWithNext(`/v2/batch/scrape/${path.jobId}`, urlParams, batch.status(auth.team.id, path.jobId, urlParams))))
      .handle("cancelBatchScrape", ({ path }) => Effect.flatMap(CurrentAuth, (auth) => batch.cancel(auth.team.id, path.jobId)))
      .handle("batchScrapeErrors", ({ path }) => Effect.flatMap(CurrentAuth, (auth) => batch.errors(auth.team.id, path.jobId)))
  }))
