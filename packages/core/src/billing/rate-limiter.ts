/**
 * Per-minute request limits per team and endpoint bucket, counted in the store so every
 * process sharing a database enforces the same limit. Fixed one-minute windows, like upstream.
 */
import { Clock, Effect, Option } from "effect"
import { RateLimitError } from "../errors.js"
import { Store, type Team } from "../ports/store.js"
import { Plans, type RateLimitBucket } from "./plans.js"

const WINDOW_MS = 60_000

export interface RateLimitState {
  readonly limit: number
  readonly remaining: number
  /** Epoch ms at which the current window ends. */
  readonly resetAtMs: number
}

export class RateLimiter extends Effect.Service<RateLimiter>()("@gleaner/core/RateLimiter", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const plans = yield* Plans

    /** Counts one request; fails with RateLimitError (429) once the bucket's limit is passed. */
    const consume = Effect.fn("RateLimiter.consume")(function*(team: Team, bucket: RateLimitBucket) {
      const limit = Option.match(plans.find(team.plan), { onNone: () => 0, onSome: (p) => p.rateLimits[bucket] })
      const now = yield* Clock.currentTimeMillis
      const windowStart = now - (now % WINDOW_MS)
      const resetAtMs = windowStart + WINDOW_MS
      const count = yield* store.rateLimits.hit(`${team.id}:${bucket}`, windowStart)
      // the first hit of a window is a cheap moment to drop windows nobody will read again
      if (count === 1) yield* store.rateLimits.purge(windowStart - WINDOW_MS)
      if (count > limit) {
        const retryAfterSeconds = Math.max(1, Math.ceil((resetAtMs - now) / 1000))
        return yield* new RateLimitError({
          message: `Rate limit exceeded. Consumed (req/min): ${count}, Remaining (req/min): 0. ` +
            `Upgrade your plan at https://firecrawl.dev/pricing for increased rate limits or please retry after ` +
            `${retryAfterSeconds}s, resets at ${new Date(resetAtMs).toString()}`,
          limit,
          remaining: 0,
          resetAtMs,
          retryAfterSeconds
        })
      }
      return { limit, remaining: limit - count, resetAtMs } satisfies RateLimitState
    })

    return { consume } as const
  })
}) {}
