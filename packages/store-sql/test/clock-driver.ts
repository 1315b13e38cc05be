/**
 * Driving TestClock for schedule runners that do real I/O: move the clock from one wake-up to
 * the next, and before each move wait (in real time, briefly) until every runner is asleep again,
 * so a big single jump never passes instants before a runner has looked at the clock.
 */
import { Chunk, Effect, TestClock } from "effect"

const realPause = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 1)))

/** Waits until `runners` sleeps are pending in the future: every runner is asleep again; the earliest wake-up. */
export const settled = (runners: number) =>
  Effect.gen(function*() {
    for (;;) {
      const now = yield* TestClock.currentTimeMillis
      const pending = Chunk.filter(yield* TestClock.sleeps(), (at) => at > now)
      if (Chunk.size(pending) >= runners) return Chunk.reduce(pending, Number.POSITIVE_INFINITY, (min, at) => Math.min(min, at))
      yield* realPause
    }
  })

/** Moves the TestClock wake-up by wake-up until `endMs`, letting the runners act at each. */
export const driveUntil = (endMs: number, runners: number) =>
  Effect.gen(function*() {
    for (;;) {
      const next = yield* settled(runners)
      if (next > endMs) return
      yield* TestClock.setTime(next)
    }
  })
