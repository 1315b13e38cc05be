/**
 * The browser-profile half of the Store contract: nothing saved reads as None; one writer at a
 * time holds a profile's lock (an expired lock can be taken over); only the holder saves.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Store } from "@gleaner/core"
import { Effect, Option } from "effect"
import { makeTeam, T0 } from "./contract-fixtures.js"

export const browserProfilesContract = (it: Vitest.MethodsNonLive<Store, true>) =>
  describe("browser profiles", () => {
    it.effect("one writer at a time; only the holder saves; the state reads back per team", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const other = yield* makeTeam(store)
        const profiles = store.browserProfiles
        assert.isTrue(Option.isNone(yield* profiles.get(team.id, "shop")))
        assert.isTrue(yield* profiles.lock(team.id, "shop", "a", T0, T0 + 60_000))
        assert.isFalse(yield* profiles.lock(team.id, "shop", "b", T0 + 1, T0 + 60_000))
        assert.isTrue(yield* profiles.lock(other.id, "shop", "b", T0 + 1, T0 + 60_000))
        assert.isTrue(yield* profiles.lock(team.id, "shop", "a", T0 + 2, T0 + 90_000))
        // a lock taken before reads nothing until something is saved
        assert.isTrue(Option.isNone(yield* profiles.get(team.id, "shop")))
        assert.isFalse(yield* profiles.save(team.id, "shop", "b", "{\"cookies\":[]}", T0 + 3))
        assert.isTrue(yield* profiles.save(team.id, "shop", "a", "{\"cookies\":[1]}", T0 + 4))
        assert.deepStrictEqual(yield* profiles.get(team.id, "shop"), Option.some({ state: "{\"cookies\":[1]}", updatedAt: T0 + 4 }))
        assert.isTrue(Option.isNone(yield* profiles.get(other.id, "shop")))
        // saving released the lock; an expired lock is taken over; unlock frees it
        assert.isTrue(yield* profiles.lock(team.id, "shop", "b", T0 + 5, T0 + 10))
        assert.isTrue(yield* profiles.lock(team.id, "shop", "c", T0 + 11, T0 + 60_000))
        yield* profiles.unlock(team.id, "shop", "b")
        assert.isFalse(yield* profiles.lock(team.id, "shop", "d", T0 + 12, T0 + 60_000))
        yield* profiles.unlock(team.id, "shop", "c")
        assert.isTrue(yield* profiles.lock(team.id, "shop", "d", T0 + 13, T0 + 60_000))
        assert.deepStrictEqual(yield* profiles.get(team.id, "shop"), Option.some({ state: "{\"cookies\":[1]}", updatedAt: T0 + 4 }))
      }))
  })
