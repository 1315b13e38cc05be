/**
 * Scrape-interact (API.md §3.3): run code in a stored scrape's page, re-opened in a browser
 * session as the scrape saw it (its URL, waitFor, actions, device and headers, kept with the
 * document as its replay context). The first call opens the session; later calls on the same
 * scrape run in it while it lives; DELETE ends it. The session is an ordinary browser session:
 * it is listed, reachable over its cdpUrl and live view, and billed when it ends.
 */
import { Clock, Effect, Option, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { browserSessionMessages, BrowserSessions } from "../browser-sessions/browser-sessions.js"
import { BadRequestError, ConflictError, messages, NotFoundError } from "../errors.js"
import { isUuid } from "../ids.js"
import { Store } from "../ports/store.js"
import { type ScrapeInteractRequest, ScrapeReplay } from "../schema/scrape-interact.js"

export const scrapeInteractMessages = {
  promptNeedsLlm:
    "The `prompt` form of interact needs an LLM provider, which this server does not have yet. " +
    "Send JavaScript in `code` (language \"node\") instead: it runs in the scraped page (`return x` gives `result`).",
  noReplay:
    "This scrape was stored without what is needed to re-open its page (it predates scrape-interact). Scrape the page again and interact with the new scrape id."
} as const

/** The replay gets at least this long, whatever the scrape's own deadline was. */
const minimumReplayMs = 30_000

const decodeReplay = Schema.decodeUnknown(Schema.parseJson(ScrapeReplay))

/** The session's answer: `token` builds its public URLs (absent when only the id is known). */
export interface ScrapeInteraction {
  readonly sessionId: string
  readonly token: string | undefined
  readonly success: boolean
  readonly stdout: string
  readonly result: string
  readonly stderr: string
  readonly exitCode: number
  readonly killed: boolean
  readonly error?: string | undefined
}

export class ScrapeInteract extends Effect.Service<ScrapeInteract>()("@gleaner/core/ScrapeInteract", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const sessions = yield* BrowserSessions

    /** The stored scrape's replay context: 400 malformed id, 404 unknown (or zero data retention), 409 stored without one. */
    const replayOf = (teamId: string, scrapeId: string) =>
      Effect.gen(function*() {
        const stored = yield* store.documents.get(teamId, scrapeId, yield* Clock.currentTimeMillis)
        if (Option.isNone(stored)) return yield* new NotFoundError({ message: messages.jobNotFound })
        if (stored.value.replay === null) return yield* new ConflictError({ message: scrapeInteractMessages.noReplay })
        return yield* Effect.orDie(decodeReplay(stored.value.replay))
      })

    const interact = Effect.fn("ScrapeInteract.interact")(function*(auth: AuthContext, scrapeId: string, request: ScrapeInteractRequest) {
      if (!isUuid(scrapeId)) return yield* new BadRequestError({ message: messages.invalidJobId })
      const code = request.code
      if (code === undefined) return yield* new BadRequestError({ message: scrapeInteractMessages.promptNeedsLlm })
      if (request.language !== "node") return yield* new BadRequestError({ message: browserSessionMessages.noRunner(request.language) })
      const replay = yield* replayOf(auth.team.id, scrapeId)
      yield* Effect.annotateCurrentSpan({ scrapeId, teamId: auth.team.id })
      const sessionId = request.existingSessionId ?? (yield* sessions.forScrape(auth, scrapeId, {
        url: replay.url,
        waitForMs: replay.waitForMs,
        actions: replay.actions,
        mobile: replay.mobile,
        headers: replay.headers,
        timeoutMs: Math.max(replay.timeoutMs, minimumReplayMs)
      })).id
      const { success: _, ...outcome } = yield* sessions.execute(auth.team.id, sessionId, { code, language: "node", timeout: request.timeout })
      return {
        ...outcome,
        sessionId,
        token: yield* sessions.tokenOf(auth.team.id, sessionId),
        success: outcome.exitCode === 0 && !outcome.killed
      } satisfies ScrapeInteraction
    })

    /** Ends the session serving the scrape (`DELETE /v2/scrape/:id/interact`). */
    const stop = Effect.fn("ScrapeInteract.stop")(function*(teamId: string, scrapeId: string) {
      if (!isUuid(scrapeId)) return yield* new BadRequestError({ message: messages.invalidJobId })
      return yield* sessions.stopForScrape(teamId, scrapeId)
    })

    return { interact, stop } as const
  })
}) {}
