/**
 * Team concurrency for synchronous work (API.md §7): at most `maxConcurrency` of a team's
 * synchronous scrapes run at once in this process; the ones beyond wait their turn (in arrival
 * order) instead of being refused, and the wait counts against the request's own deadline. Jobs
 * (crawl, batch) are limited separately, by the queue's claim in the store.
 */
import { Clock, Effect } from "effect"
import type { Team } from "../ports/store.js"

/** How a request got its turn. */
export interface Turn {
  /** The team was at its limit when the request arrived, so it waited. */
  readonly limited: boolean
  /** Milliseconds spent waiting. */
  readonly waitedMs: number
}

interface Slot {
  readonly semaphore: Effect.Semaphore
  permits: number
  /** Requests waiting or running. */
  inFlight: number
  running: number
}

export class TeamConcurrency extends Effect.Service<TeamConcurrency>()("@gleaner/core/TeamConcurrency", {
  sync: () => {
    const slots = new Map<string, Slot>()

    const slotOf = (team: Team): Effect.Effect<Slot> =>
      Effect.suspend(() => {
        const permits = Math.max(1, team.maxConcurrency)
        const known = slots.get(team.id)
        if (known === undefined) {
          const slot: Slot = { semaphore: Effect.unsafeMakeSemaphore(permits), permits, inFlight: 0, running: 0 }
          slots.set(team.id, slot)
          return Effect.succeed(slot)
        }
        if (known.permits === permits) return Effect.succeed(known)
        known.permits = permits
        return Effect.as(known.semaphore.resize(permits), known)
      })

    /**
     * Runs `use` in one of the team's slots. Waiting longer than `maxWaitMs` fails with
     * `onTimeout()`; a request interrupted while waiting leaves its place.
     */
    const run = <A, E, R, E2>(
      team: Team,
      maxWaitMs: number,
      onTimeout: () => E2,
      use: (turn: Turn) => Effect.Effect<A, E, R>
    ): Effect.Effect<A, E | E2, R> =>
      Effect.gen(function*() {
        const slot = yield* slotOf(team)
        const limited = slot.inFlight >= slot.permits
        slot.inFlight += 1
        const start = yield* Clock.currentTimeMillis
        const release = Effect.zipRight(Effect.sync(() => { slot.running -= 1 }), slot.semaphore.release(1))
        return yield* Effect.uninterruptibleMask((restore) =>
          restore(slot.semaphore.take(1).pipe(Effect.timeoutFail({ duration: maxWaitMs, onTimeout }))).pipe(
            Effect.zipRight(Effect.sync(() => { slot.running += 1 })),
            Effect.zipRight(Clock.currentTimeMillis),
            Effect.flatMap((now) => restore(use({ limited, waitedMs: now - start })).pipe(Effect.ensuring(release)))
          )
        ).pipe(Effect.ensuring(Effect.sync(() => {
          slot.inFlight -= 1
          if (slot.inFlight === 0 && slots.get(team.id) === slot) slots.delete(team.id)
        })))
      })

    /** The team's synchronous requests running now in this process. */
    const running = (teamId: string): Effect.Effect<number> => Effect.sync(() => slots.get(teamId)?.running ?? 0)

    return { run, running } as const
  }
}) {}
