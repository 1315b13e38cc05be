/**
 * The browser-session half of the Store contract: records per team, activity, the owner's
 * heartbeat, ending exactly once, and finding the sessions of a process that died.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { type BrowserSessionRecord, Store, type StoreService } from "@gleaner/core"
import { Effect, Option } from "effect"
import { makeTeam, T0, uid } from "./contract-fixtures.js"

const newSession = (store: StoreService, teamId: string, overrides: Partial<BrowserSessionRecord> = {}) => {
  const session: BrowserSessionRecord = {
    id: uid(), teamId, apiKeyId: null, ownerId: "owner-1", status: "active", tokenHash: "ab".repeat(32),
    streamWebView: true, ttlSeconds: 600, activityTtlSeconds: 300, createdAt: T0, expiresAt: T0 + 600_000,
    lastActivityAt: T0, seenAt: T0, endedAt: null, creditsBilled: null, endReason: null, ...overrides
  }
  return Effect.as(store.browserSessions.insert(session), session)
}

export const browserSessionsContract = (it: Vitest.MethodsNonLive<Store, true>) =>
  describe("browser sessions", () => {
    it.effect("insert, get and list per team; another team's id is absent", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const other = yield* makeTeam(store)
        const first = yield* newSession(store, team.id, { streamWebView: false })
        const second = yield* newSession(store, team.id, { createdAt: T0 + 10, apiKeyId: "key-1" })
        assert.deepStrictEqual(yield* store.browserSessions.get(team.id, first.id), Option.some(first))
        assert.isTrue(Option.isNone(yield* store.browserSessions.get(other.id, first.id)))
        assert.deepStrictEqual((yield* store.browserSessions.list(team.id)).map((s) => s.id), [second.id, first.id])
        assert.deepStrictEqual(yield* store.browserSessions.list(other.id), [])
        assert.strictEqual(yield* store.browserSessions.countActive(team.id), 2)
      }))

    it.effect("end is once: destroyed with its figures; touch and seen leave ended sessions alone", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const session = yield* newSession(store, team.id)
        yield* store.browserSessions.touch(session.id, T0 + 5_000)
        assert.isTrue(yield* store.browserSessions.end(session.id, { endedAt: T0 + 61_000, creditsBilled: 4, reason: "deleted" }))
        assert.isFalse(yield* store.browserSessions.end(session.id, { endedAt: T0 + 99_000, creditsBilled: 9, reason: "expired" }))
        yield* store.browserSessions.touch(session.id, T0 + 70_000)
        yield* store.browserSessions.seen([session.id], T0 + 70_000)
        const ended = Option.getOrThrow(yield* store.browserSessions.get(team.id, session.id))
        assert.deepStrictEqual(ended, {
          ...session, status: "destroyed", lastActivityAt: T0 + 5_000, seenAt: T0 + 5_000, endedAt: T0 + 61_000,
          creditsBilled: 4, endReason: "deleted"
        })
        assert.deepStrictEqual((yield* store.browserSessions.list(team.id, "destroyed")).map((s) => s.id), [session.id])
        assert.deepStrictEqual(yield* store.browserSessions.list(team.id, "active"), [])
        assert.strictEqual(yield* store.browserSessions.countActive(team.id), 0)
      }))

    it.effect("orphaned finds active sessions not seen since a time", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const base = T0 + 10_000_000
        const stale = yield* newSession(store, team.id, { seenAt: base })
        const fresh = yield* newSession(store, team.id, { seenAt: base })
        yield* store.browserSessions.seen([fresh.id], base + 50_000)
        const found = (yield* store.browserSessions.orphaned(base + 30_000)).filter((s) => s.teamId === team.id)
        assert.deepStrictEqual(found.map((s) => s.id), [stale.id])
        yield* store.browserSessions.end(stale.id, { endedAt: base + 30_000, creditsBilled: 2, reason: "orphaned" })
        yield* store.browserSessions.end(fresh.id, { endedAt: base + 60_000, creditsBilled: 2, reason: "deleted" })
        assert.deepStrictEqual((yield* store.browserSessions.orphaned(base + 999_999)).filter((s) => s.teamId === team.id), [])
      }))
  })
