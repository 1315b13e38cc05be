/**
 * `POST /v2/scrape` and `GET /v2/scrape/:jobId` (API.md §3.1–3.2): the core Scraper for the
 * authenticated team; `POST|DELETE /v2/scrape/:jobId/interact` (§3.3): core's ScrapeInteract,
 * with the session's public URLs built as for `POST /v2/browser`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { ScrapeInteract, Scraper } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"
import { sessionUrls } from "./browser.js"

export const ScrapeLive = HttpApiBuilder.group(GleanerApi, "scrape", (handlers) =>
  Effect.gen(function*() {
    const scraper = yield* Scraper
    const interaction = yield* ScrapeInteract
    return handlers
      .handle("scrape", ({ payload }) =>
        Effect.flatMap(CurrentAuth, (auth) => scraper.scrape(auth, payload)).pipe(
          Effect.map((data) => ({ success: true as const, data }))
        ))
      .handle("getScrape", ({ path }) =>
        Effect.flatMap(CurrentAuth, (auth) => scraper.getDocument(auth.team.id, path.jobId)).pipe(
          Effect.map((data) => ({ success: true as const, data }))
        ))
      .handle("interact", ({ path, payload }) =>
        Effect.gen(function*() {
          const { sessionId, token, ...outcome } = yield* interaction.interact(yield* CurrentAuth, path.jobId, payload)
          return { sessionId, ...(yield* sessionUrls(sessionId, token)), ...outcome }
        }))
      .handle("stopInteraction", ({ path }) => Effect.flatMap(CurrentAuth, (auth) => interaction.stop(auth.team.id, path.jobId)))
  }))
