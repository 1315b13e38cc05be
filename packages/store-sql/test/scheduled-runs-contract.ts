/**
 * The scheduled-runs half of the Store contract: each (schedule, instant) is claimed once, by
 * whoever comes first, even when claimers race; purging forgets claims of runs due before a time.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Store } from "@gleaner/core"
import { Array as Arr, Effect } from "effect"
import { T0, uid } from "./contract-fixtures.js"

export const scheduledRunsContract = (it: Vitest.MethodsNonLive<Store, true>) =>
  describe("scheduled runs", () => {
    it.effect("a run is claimed once; other runs and other schedules are separate", () =>
      Effect.gen(function*() {
        const runs = (yield* Store).scheduledRuns
        const key = `monitor:${uid()}`
        assert.isTrue(yield* runs.claim(key, T0, "a", T0))
        assert.isFalse(yield* runs.claim(key, T0, "b", T0 + 1))
        assert.isFalse(yield* runs.claim(key, T0, "a", T0 + 2))
        assert.isTrue(yield* runs.claim(key, T0 + 900_000, "b", T0 + 900_000))
        assert.isTrue(yield* runs.claim(`monitor:${uid()}`, T0, "b", T0))
      }))

    it.effect("of concurrent claimers exactly one wins", () =>
      Effect.gen(function*() {
        const runs = (yield* Store).scheduledRuns
        const key = `monitor:${uid()}`
        const won = yield* Effect.all(Arr.makeBy(12, (i) => runs.claim(key, T0, `p${i}`, T0)), { concurrency: "unbounded" })
        assert.strictEqual(won.filter(Boolean).length, 1)
      }))

    it.effect("purge forgets claims of runs due before the time, and only those", () =>
      Effect.gen(function*() {
        const runs = (yield* Store).scheduledRuns
        const key = `monitor:${uid()}`
        // far before T0, so claims other tests make stay out of the way
        const old = 1_000_000
        assert.isTrue(yield* runs.claim(key, old, "a", old))
        assert.isTrue(yield* runs.claim(key, old + 60_000, "a", old + 60_000))
        assert.isTrue(yield* runs.claim(key, old + 120_000, "a", old + 120_000))
        assert.strictEqual(yield* runs.purge(old + 120_000), 2)
        assert.strictEqual(yield* runs.purge(old + 120_000), 0)
        assert.isFalse(yield* runs.claim(key, old + 120_000, "b", T0))
        // forgotten: the same run could be claimed again (callers purge only runs long past)
        assert.isTrue(yield* runs.claim(key, old, "b", T0))
      }))
  })
