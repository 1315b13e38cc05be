/**
 * `POST /v2/scrape` and `GET /v2/scrape/:jobId` (API.md §3.1–3.2): the core Scraper for the
 * authenticated team; nothing else happens here.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Scraper } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"

export const ScrapeLive = HttpApiBuilder.group(GleanerApi, "scrape", (handlers) =>
  Effect.gen(function*() {
    const scraper = yield* Scraper
    return handlers
      .handle("scrape", ({ payload }) =>
        Effect.flatMap(CurrentAuth, (auth) => scraper.scrape(auth, payload)).pipe(
          Effect.map((data) => ({ success: true as const, data }))
        ))
      .handle("getScrape", ({ path }) =>
        Effect.flatMap(CurrentAuth, (auth) => scraper.getDocument(auth.team.id, path.jobId)).pipe(
          Effect.map((data) => ({ success: true as const, data }))
        ))
  }))
