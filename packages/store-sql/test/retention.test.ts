/**
 * Retention over a real store: one sweep deletes settled jobs older than the retention period
 * with their pages, stored scrape documents past their expiry and files of days older than the
 * period, and monitor checks older than their monitor's retentionDays; running and recent jobs,
 * recent files and checks of monitors that keep them longer, stay.
 */
import { assert, layer } from "@effect/vitest"
import { BlobStore, BlobStores, GleanerConfig, Store, sweepExpired } from "@gleaner/core"
import { Effect, Layer, TestClock } from "effect"
import { SqliteStore } from "../src/index.js"
import { makeTeam, uid } from "./contract-fixtures.js"

const env = Layer.mergeAll(SqliteStore.layer({ filename: ":memory:" }), GleanerConfig.layer({ retentionDays: 7 }), BlobStores.memory())
const day = 86_400_000

layer(env)("retention sweep", (it) => {
  it.effect("deletes expired jobs, their pages, documents and files; keeps running and recent ones", () =>
    Effect.gen(function*() {
      const store = yield* Store
      const team = yield* makeTeam(store)
      const job = (createdAt: number) => store.jobs.enqueue({ id: uid(), teamId: team.id, kind: "crawl", payload: "{}", runAt: createdAt, createdAt })
      const old = yield* job(0)
      const oldRunning = yield* job(0)
      const recent = yield* job(6 * day)
      yield* store.jobPages.add(old.id, team.id, [{ key: "a", url: "https://x.test/a", depth: 0 }], 0)
      yield* store.jobs.cancel(team.id, old.id, 1)
      yield* store.jobs.cancel(team.id, recent.id, 6 * day + 1)
      yield* store.documents.put({ id: uid(), teamId: team.id, sourceUrl: "https://x.test", document: "{}", auditMetadata: null, replay: null, createdAt: 0, expiresAt: 7 * day })
      // monitors keep checks for their own retentionDays: 1 day here, 30 there
      const monitor = (retentionDays: number) => ({
        id: uid(), teamId: team.id, apiKeyId: null, name: "m", status: "active" as const, cron: "0 * * * *", timezone: "UTC", spec: "{}",
        retentionDays, nextRunAt: null, lastRunAt: null, currentCheckId: null, lastCheckSummary: null, createdAt: 0, updatedAt: 0
      })
      const shortLived = monitor(1)
      const longLived = monitor(30)
      const check = (monitorId: string) => ({
        id: uid(), monitorId, teamId: team.id, status: "completed" as const, trigger: "manual" as const, scheduledFor: null, startedAt: null,
        finishedAt: null, estimatedCredits: null, reservedCredits: null, actualCredits: null, billingStatus: "confirmed" as const,
        summary: "{}", targetResults: "[]", notificationStatus: null, error: null, createdAt: 6 * day, updatedAt: 6 * day
      })
      const expiredCheck = check(shortLived.id)
      const keptCheck = check(longLived.id)
      for (const m of [shortLived, longLived]) yield* store.monitors.insert(m)
      for (const c of [expiredCheck, keptCheck]) yield* store.monitorChecks.insert(c)

      const blobs = yield* BlobStore
      const png = { bytes: new Uint8Array([1]), contentType: "image/png" } as const
      const oldFile = yield* blobs.put(png)
      yield* TestClock.setTime(7 * day)
      const recentFile = yield* blobs.put(png)

      yield* TestClock.setTime(8 * day)
      const swept = yield* sweepExpired
      assert.deepStrictEqual(swept, { jobs: 1, documents: 1, files: 1, checks: 1 })
      assert.isTrue((yield* store.monitorChecks.get(team.id, shortLived.id, expiredCheck.id))._tag === "None")
      assert.isTrue((yield* store.monitorChecks.get(team.id, longLived.id, keptCheck.id))._tag === "Some")
      assert.isTrue((yield* blobs.get(oldFile))._tag === "None")
      assert.isTrue((yield* blobs.get(recentFile))._tag === "Some")
      assert.isTrue((yield* store.jobs.get(team.id, old.id))._tag === "None")
      assert.lengthOf(yield* store.jobPages.keys(old.id), 0)
      assert.isTrue((yield* store.jobs.get(team.id, oldRunning.id))._tag === "Some")
      assert.isTrue((yield* store.jobs.get(team.id, recent.id))._tag === "Some")
    }))
})
