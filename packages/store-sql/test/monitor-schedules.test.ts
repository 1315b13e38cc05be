/**
 * Monitors on their schedule, with time driven by TestClock: a monitor on `*\/15 * * * *` in
 * Europe/Berlin gets one check per run at the right instants through the spring-forward change,
 * and two engines (two processes' worth: their own pools, Monitors and schedule watchers) on one
 * database start each run's check exactly once between them — on a SQLite file and on Postgres.
 * No workers run, so the first check stays queued and the later runs are recorded as
 * `skipped_overlap`: one check record per run either way.
 */
import { assert, describe, it } from "@effect/vitest"
import { Accounts, EngineLive, GleanerConfig, Monitors, Store, watchMonitorSchedules } from "@gleaner/core"
import { UndiciFetcher } from "@gleaner/fetch-undici"
import { CronScheduler } from "@gleaner/scheduler-croner"
import { Context, Effect, Layer, Option, TestClock, TestContext } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { PostgresStore, SqliteStore } from "../src/index.js"
import { driveUntil } from "./clock-driver.js"
import { scopedDatabase } from "./postgres-fixtures.js"

const directory = mkdtempSync(join(tmpdir(), "gleaner-monitor-schedules-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const iso = (ms: number) => new Date(ms).toISOString().replace(":00.000Z", "Z")
const berlin = (ms: number) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit", timeZoneName: "short", hourCycle: "h23" }).format(ms)

/** An engine without workers on its own connection to the store. */
const engineOn = (store: Layer.Layer<Store, unknown>) =>
  EngineLive.pipe(
    Layer.provideMerge(store),
    Layer.provideMerge(UndiciFetcher.layer),
    Layer.provideMerge(CronScheduler),
    Layer.provideMerge(GleanerConfig.layer())
  )

/** Creates the monitor on the first engine, watches schedules on all from `start` to `end`; the checks made. */
const checksBetween = (stores: ReadonlyArray<Layer.Layer<Store, unknown>>, start: number, end: number) =>
  Effect.scoped(Effect.gen(function*() {
    const engines = yield* Effect.forEach(stores, (store) => Layer.build(engineOn(store)))
    const first = engines[0]
    if (first === undefined) return yield* Effect.dieMessage("no engine")
    yield* TestClock.setTime(start - 60_000)
    const { monitor, teamId } = yield* Effect.gen(function*() {
      const team = yield* (yield* Accounts).createTeam(`schedules-${start}`, (yield* GleanerConfig).defaultPlan)
      const monitor = yield* (yield* Monitors).create({ team, apiKeyId: null }, {
        name: "quarter-hourly",
        schedule: { cron: "*/15 * * * *", timezone: "Europe/Berlin" },
        targets: [{ type: "scrape", urls: ["https://example.com/"] }]
      })
      return { monitor, teamId: team.id }
    }).pipe(Effect.provide(first))
    assert.strictEqual(monitor.nextRunAt, new Date(start).toISOString())
    yield* TestClock.setTime(start)
    yield* Effect.forEach(engines, (engine, i) => watchMonitorSchedules({ claimer: `p${i}`, refreshMs: 6 * 3_600_000 }).pipe(Effect.provide(engine)))
    yield* driveUntil(end, engines.length)
    const store = Context.get(first, Store)
    const checks = yield* store.monitorChecks.list(teamId, monitor.id, { limit: 100, offset: 0 })
    const after = Option.getOrThrow(yield* store.monitors.get(teamId, monitor.id))
    return { checks: [...checks].reverse(), nextRunAt: after.nextRunAt }
  }))

const start = Date.parse("2027-03-28T00:00:00Z")
const end = Date.parse("2027-03-28T02:00:00Z")
// 2027-03-28: 02:00 CET becomes 03:00 CEST at 01:00 UTC
const expectedUtc = ["00:00", "00:15", "00:30", "00:45", "01:00", "01:15", "01:30", "01:45", "02:00"].map((t) => `2027-03-28T${t}Z`)
const expectedBerlin = ["01:00 CET", "01:15 CET", "01:30 CET", "01:45 CET", "03:00 CEST", "03:15 CEST", "03:30 CEST", "03:45 CEST", "04:00 CEST"]

const expectOneCheckPerRun = (result: { readonly checks: ReadonlyArray<{ readonly scheduledFor: number | null; readonly status: string; readonly trigger: string }>; readonly nextRunAt: number | null }) => {
  const instants = result.checks.map((c) => c.scheduledFor ?? 0)
  assert.deepStrictEqual(instants.map(iso), expectedUtc)
  assert.deepStrictEqual(instants.map(berlin), expectedBerlin)
  assert.isTrue(result.checks.every((c) => c.trigger === "scheduled"))
  assert.deepStrictEqual(result.checks.map((c) => c.status), ["queued", ...expectedUtc.slice(1).map(() => "skipped_overlap")])
  assert.strictEqual(result.nextRunAt, Date.parse("2027-03-28T02:15:00Z"))
}

describe("monitor schedules", () => {
  it.scoped("*/15 in Europe/Berlin: one check per run at the right instants through the spring-forward change", () =>
    Effect.gen(function*() {
      expectOneCheckPerRun(yield* checksBetween([SqliteStore.layer({ filename: ":memory:" })], start, end))
    }))

  it.scopedLive("two engines on one SQLite file start each run's check once between them", () =>
    Effect.gen(function*() {
      const filename = join(directory, "two-engines.db")
      const result = yield* checksBetween([SqliteStore.layer({ filename }), SqliteStore.layer({ filename })], start, end).pipe(
        Effect.provide(TestContext.TestContext)
      )
      expectOneCheckPerRun(result)
    }))

  // skipped only without a Postgres server to test on: loudly here, and never on CI
  const url = process.env["GLEANER_TEST_POSTGRES_URL"]
  if (url === undefined) {
    if (process.env["CI"]) throw new Error("CI must run the Postgres suites: set GLEANER_TEST_POSTGRES_URL (.ci/run does)")
    console.warn("\n[store-sql] SKIPPING the two-engine Postgres monitor schedule test: GLEANER_TEST_POSTGRES_URL is not set\n")
  }
  it.scopedLive.skipIf(url === undefined)("two engines on one Postgres database start each run's check once between them", () =>
    Effect.gen(function*() {
      const database = yield* scopedDatabase(url ?? "")
      const result = yield* checksBetween([PostgresStore.layer({ url: database.url }), PostgresStore.layer({ url: database.url })], start, end).pipe(
        Effect.provide(TestContext.TestContext)
      )
      expectOneCheckPerRun(result)
    }), 60_000)
})
