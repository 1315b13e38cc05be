/**
 * The monitors half of the Store contract: monitors per team (another team's is absent), the
 * current-check slot that exactly one of racing callers takes, checks and their pages (one row per
 * URL, in the order written), snapshots, delete taking everything with it, and retention by each
 * monitor's own `retentionDays`.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { type MonitorCheckPageRecord, type MonitorCheckRecord, type MonitorRecord, Store, type StoreService } from "@gleaner/core"
import { Array as Arr, Effect, Option } from "effect"
import { makeTeam, T0, uid } from "./contract-fixtures.js"

const DAY = 86_400_000

const monitorOf = (teamId: string, overrides: Partial<MonitorRecord> = {}): MonitorRecord => ({
  id: uid(),
  teamId,
  apiKeyId: null,
  name: "m",
  status: "active",
  cron: "*/15 * * * *",
  timezone: "Europe/Berlin",
  spec: `{"targets":[]}`,
  retentionDays: 30,
  nextRunAt: T0 + 900_000,
  lastRunAt: null,
  currentCheckId: null,
  lastCheckSummary: null,
  createdAt: T0,
  updatedAt: T0,
  ...overrides
})

const checkOf = (monitor: MonitorRecord, overrides: Partial<MonitorCheckRecord> = {}): MonitorCheckRecord => ({
  id: uid(),
  monitorId: monitor.id,
  teamId: monitor.teamId,
  status: "queued",
  trigger: "manual",
  scheduledFor: null,
  startedAt: null,
  finishedAt: null,
  estimatedCredits: null,
  reservedCredits: null,
  actualCredits: null,
  billingStatus: "not_applicable",
  summary: "{}",
  targetResults: "[]",
  notificationStatus: null,
  error: null,
  createdAt: T0,
  updatedAt: T0,
  ...overrides
})

const pageOf = (check: MonitorCheckRecord, url: string, overrides: Partial<MonitorCheckPageRecord> = {}): MonitorCheckPageRecord => ({
  id: uid(),
  checkId: check.id,
  monitorId: check.monitorId,
  teamId: check.teamId,
  targetId: "t1",
  url,
  status: "new",
  previousScrapeId: null,
  currentScrapeId: uid(),
  statusCode: 200,
  error: null,
  metadata: null,
  judgment: null,
  diff: null,
  snapshot: null,
  createdAt: T0,
  ...overrides
})

const snapshotOf = (monitor: MonitorRecord, url: string, scrapedAt = T0, targetId = "t1") => ({
  monitorId: monitor.id,
  teamId: monitor.teamId,
  targetId,
  url,
  markdown: `# ${url}`,
  json: null,
  scrapeId: uid(),
  scrapedAt
})

const setup = (store: StoreService, overrides: Partial<MonitorRecord> = {}) =>
  Effect.gen(function*() {
    const team = yield* makeTeam(store)
    const monitor = monitorOf(team.id, overrides)
    yield* store.monitors.insert(monitor)
    return { team, monitor }
  })

export const monitorsContract = (it: Vitest.MethodsNonLive<Store, true>) =>
  describe("monitors", () => {
    it.effect("are kept per team, listed newest first with paging, and changed in place", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const { monitor, team } = yield* setup(store)
        const newer = monitorOf(team.id, { createdAt: T0 + 1, status: "paused" })
        yield* store.monitors.insert(newer)
        const other = yield* makeTeam(store)
        assert.deepStrictEqual(yield* store.monitors.get(team.id, monitor.id), Option.some(monitor))
        assert.isTrue(Option.isNone(yield* store.monitors.get(other.id, monitor.id)))
        assert.deepStrictEqual((yield* store.monitors.list(team.id, { limit: 10, offset: 0 })).map((m) => m.id), [newer.id, monitor.id])
        assert.deepStrictEqual((yield* store.monitors.list(team.id, { limit: 1, offset: 1 })).map((m) => m.id), [monitor.id])
        assert.deepStrictEqual(yield* store.monitors.list(other.id, { limit: 10, offset: 0 }), [])
        const active = (yield* store.monitors.active()).map((m) => m.id)
        assert.include(active, monitor.id)
        assert.notInclude(active, newer.id)

        const changed = yield* store.monitors.update(team.id, monitor.id, { name: "renamed", status: "paused", nextRunAt: null, retentionDays: 7, updatedAt: T0 + 5 })
        assert.deepStrictEqual(changed, Option.some({ ...monitor, name: "renamed", status: "paused" as const, nextRunAt: null, retentionDays: 7, updatedAt: T0 + 5 }))
        assert.isTrue(Option.isNone(yield* store.monitors.update(other.id, monitor.id, { name: "x", updatedAt: T0 })))
        yield* store.monitors.setNextRunAt(monitor.id, T0 + 42)
        assert.strictEqual(Option.getOrThrow(yield* store.monitors.get(team.id, monitor.id)).nextRunAt, T0 + 42)
      }))

    it.effect("exactly one of racing callers takes the current-check slot; ending frees it", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const { monitor, team } = yield* setup(store)
        const ids = Arr.makeBy(6, () => uid())
        const won = yield* Effect.all(ids.map((id) => store.monitors.beginCheck(monitor.id, id, T0)), { concurrency: "unbounded" })
        assert.strictEqual(won.filter(Boolean).length, 1)
        const current = Option.getOrThrow(yield* store.monitors.get(team.id, monitor.id)).currentCheckId
        assert.strictEqual(current, ids[won.indexOf(true)])
        assert.isFalse(yield* store.monitors.endCheck(monitor.id, uid(), { lastRunAt: T0 + 1, lastCheckSummary: null, now: T0 + 1 }))
        assert.isTrue(yield* store.monitors.endCheck(monitor.id, current ?? "", { lastRunAt: T0 + 2, lastCheckSummary: `{"same":1}`, now: T0 + 2 }))
        const after = Option.getOrThrow(yield* store.monitors.get(team.id, monitor.id))
        assert.deepStrictEqual([after.currentCheckId, after.lastRunAt, after.lastCheckSummary], [null, T0 + 2, `{"same":1}`])
        assert.isTrue(yield* store.monitors.beginCheck(monitor.id, uid(), T0 + 3))
      }))

    it.effect("checks are listed newest first by status; a check's pages are one per URL, in the order written", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const { monitor, team } = yield* setup(store)
        const first = checkOf(monitor, { status: "completed" })
        const second = checkOf(monitor, { createdAt: T0 + 1 })
        yield* store.monitorChecks.insert(first)
        yield* store.monitorChecks.insert(second)
        assert.deepStrictEqual((yield* store.monitorChecks.list(team.id, monitor.id, { limit: 10, offset: 0 })).map((c) => c.id), [second.id, first.id])
        assert.deepStrictEqual((yield* store.monitorChecks.list(team.id, monitor.id, { limit: 10, offset: 0, status: "completed" })).map((c) => c.id), [first.id])
        assert.deepStrictEqual(yield* store.monitorChecks.get(team.id, monitor.id, first.id), Option.some(first))
        assert.isTrue(Option.isNone(yield* store.monitorChecks.get(team.id, uid(), first.id)))
        const updated = yield* store.monitorChecks.update(second.id, { status: "running", startedAt: T0 + 2, reservedCredits: 3, billingStatus: "reserved", updatedAt: T0 + 2 })
        assert.deepStrictEqual(updated, Option.some({ ...second, status: "running" as const, startedAt: T0 + 2, reservedCredits: 3, billingStatus: "reserved" as const, updatedAt: T0 + 2 }))

        yield* store.monitorChecks.putPage(pageOf(second, "https://a.test/1", { createdAt: T0 + 1 }))
        yield* store.monitorChecks.putPage(pageOf(second, "https://a.test/2", { createdAt: T0 + 2, status: "changed" }))
        yield* store.monitorChecks.putPage(pageOf(second, "https://a.test/3", { createdAt: T0 + 3, status: "error", error: "boom" }))
        // a second outcome for the same URL replaces the first
        yield* store.monitorChecks.putPage(pageOf(second, "https://a.test/1", { createdAt: T0 + 1, status: "same" }))
        const pages = yield* store.monitorChecks.pages(second.id, { limit: 10, skip: 0 })
        assert.deepStrictEqual(pages.map((p) => [p.url, p.status]), [["https://a.test/1", "same"], ["https://a.test/2", "changed"], ["https://a.test/3", "error"]])
        assert.deepStrictEqual((yield* store.monitorChecks.pages(second.id, { limit: 1, skip: 1 })).map((p) => p.url), ["https://a.test/2"])
        assert.deepStrictEqual((yield* store.monitorChecks.pages(second.id, { limit: 10, skip: 0, status: "error" })).map((p) => p.error), ["boom"])
      }))

    it.effect("snapshots are replaced per URL, listed per target, and deleted", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const { monitor } = yield* setup(store)
        yield* store.monitorSnapshots.put(snapshotOf(monitor, "https://a.test/1"))
        const replaced = { ...snapshotOf(monitor, "https://a.test/1", T0 + 5), markdown: "changed", json: `{"a":1}` }
        yield* store.monitorSnapshots.put(replaced)
        yield* store.monitorSnapshots.put(snapshotOf(monitor, "https://a.test/2", T0, "t2"))
        assert.deepStrictEqual(yield* store.monitorSnapshots.get(monitor.id, "https://a.test/1"), Option.some(replaced))
        assert.deepStrictEqual((yield* store.monitorSnapshots.ofTarget(monitor.id, "t1")).map((s) => s.url), ["https://a.test/1"])
        yield* store.monitorSnapshots.delete(monitor.id, "https://a.test/1")
        assert.isTrue(Option.isNone(yield* store.monitorSnapshots.get(monitor.id, "https://a.test/1")))
      }))

    it.effect("deleting a monitor deletes its checks, pages and snapshots; another team cannot", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const { monitor, team } = yield* setup(store)
        const check = checkOf(monitor)
        yield* store.monitorChecks.insert(check)
        yield* store.monitorChecks.putPage(pageOf(check, "https://a.test/1"))
        yield* store.monitorSnapshots.put(snapshotOf(monitor, "https://a.test/1"))
        const other = yield* makeTeam(store)
        assert.isFalse(yield* store.monitors.delete(other.id, monitor.id))
        assert.isTrue(yield* store.monitors.delete(team.id, monitor.id))
        assert.isFalse(yield* store.monitors.delete(team.id, monitor.id))
        assert.isTrue(Option.isNone(yield* store.monitors.get(team.id, monitor.id)))
        assert.isTrue(Option.isNone(yield* store.monitorChecks.get(team.id, monitor.id, check.id)))
        assert.deepStrictEqual(yield* store.monitorChecks.pages(check.id, { limit: 10, skip: 0 }), [])
        assert.isTrue(Option.isNone(yield* store.monitorSnapshots.get(monitor.id, "https://a.test/1")))
      }))

    it.effect("retention follows each monitor's retentionDays", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const now = T0 + 100 * DAY
        const short = yield* setup(store, { retentionDays: 1 })
        const long = yield* setup(store, { retentionDays: 30 })
        const oldShort = checkOf(short.monitor, { createdAt: now - 2 * DAY })
        const freshShort = checkOf(short.monitor, { createdAt: now - DAY / 2 })
        const oldLong = checkOf(long.monitor, { createdAt: now - 2 * DAY })
        for (const check of [oldShort, freshShort, oldLong]) yield* store.monitorChecks.insert(check)
        yield* store.monitorChecks.putPage(pageOf(oldShort, "https://a.test/1"))
        yield* store.monitorSnapshots.put(snapshotOf(short.monitor, "https://a.test/old", now - 2 * DAY))
        yield* store.monitorSnapshots.put(snapshotOf(long.monitor, "https://a.test/old", now - 2 * DAY))
        assert.isAtLeast(yield* store.monitorChecks.purgeExpired(now), 1)
        assert.isTrue(Option.isNone(yield* store.monitorChecks.get(short.team.id, short.monitor.id, oldShort.id)))
        assert.deepStrictEqual(yield* store.monitorChecks.pages(oldShort.id, { limit: 10, skip: 0 }), [])
        assert.isTrue(Option.isSome(yield* store.monitorChecks.get(short.team.id, short.monitor.id, freshShort.id)))
        assert.isTrue(Option.isSome(yield* store.monitorChecks.get(long.team.id, long.monitor.id, oldLong.id)))
        assert.isTrue(Option.isNone(yield* store.monitorSnapshots.get(short.monitor.id, "https://a.test/old")))
        assert.isTrue(Option.isSome(yield* store.monitorSnapshots.get(long.monitor.id, "https://a.test/old")))
      }))
  })
