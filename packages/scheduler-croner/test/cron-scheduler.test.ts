/**
 * The croner Scheduler: clear 400s for expressions and zones that cannot be used, next runs
 * strictly after the given instant, in the zone, through both DST changes of 2027 in Berlin.
 */
import { assert, describe, it } from "@effect/vitest"
import { runsPerMonth, Scheduler } from "@gleaner/core"
import { Effect, Option } from "effect"
import { CronScheduler } from "../src/index.js"

const utc = (iso: string) => Date.parse(iso)
const iso = (ms: number) => new Date(ms).toISOString()

/** The next `count` runs after `fromIso`, as ISO strings. */
const runs = (cron: string, timezone: string, fromIso: string, count: number) =>
  Effect.gen(function*() {
    const scheduler = yield* Scheduler
    const out: Array<string> = []
    let after = utc(fromIso)
    for (let i = 0; i < count; i++) {
      const next = yield* scheduler.nextRun(cron, timezone, after)
      if (Option.isNone(next)) break
      out.push(iso(next.value))
      after = next.value
    }
    return out
  })

const rejection = (cron: string, timezone: string) =>
  Effect.flatMap(Scheduler, (scheduler) => Effect.flip(scheduler.validate(cron, timezone)))

describe("CronScheduler", () => {
  describe("validate", () => {
    it.effect("accepts five-field expressions, names and nicknames in IANA zones", () =>
      Effect.gen(function*() {
        const scheduler = yield* Scheduler
        for (const [cron, zone] of [
          ["*/15 * * * *", "Europe/Berlin"],
          ["0 */6 * * *", "UTC"],
          ["0 9 * * MON-FRI", "America/New_York"],
          ["30 2 1 JAN,JUL *", "Asia/Kolkata"],
          [" 0 0 L * * ", "Australia/Lord_Howe"],
          ["0 12 1 * +MON", "UTC"],
          ["0 8-18/2 * * 7", "UTC"],
          ["0 9 15W * *", "UTC"],
          ["0 9 * * FRI#2", "UTC"],
          ["@hourly", "Europe/London"],
          ["@daily", "europe/berlin"]
        ] as const) yield* scheduler.validate(cron, zone)
      }).pipe(Effect.provide(CronScheduler)))

    it.effect("a cron that does not parse is a 400 saying what is wrong", () =>
      Effect.gen(function*() {
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["61 * * * *", "Invalid value for minute: 61"],
          ["* * * *", "expected 5 space-separated fields, got 4"],
          ["0 0 * * * *", "expected 5 space-separated fields, got 6"],
          ["", "expected 5 space-separated fields, got 0"],
          ["*/0 * * * *", "illegal stepping: 0"],
          ["0 25 * * *", "Invalid value for hour: 25"],
          ["every day", "expected 5 space-separated fields, got 2"],
          ["2027-01-01T00:00:00", "expected 5 space-separated fields, got 1"],
          ["0 0 31 2 *", "it never fires"],
          ["@reboot", "@reboot is not a nickname Gleaner accepts (@yearly, @annually"],
          ["0 9 * * 8", "Invalid value for dayOfWeek: 8"]
        ]
        for (const [cron, problem] of cases) {
          const error = yield* rejection(cron, "Europe/Berlin")
          assert.strictEqual(error._tag, "BadRequestError")
          assert.strictEqual(error.code, "BAD_REQUEST")
          assert.include(error.message, `Invalid cron expression "${cron}"`)
          assert.include(error.message, problem)
          assert.include(error.message, "minute hour day-of-month month day-of-week")
          assert.deepStrictEqual(error.details, [{ path: ["cron"], message: error.message }])
        }
      }).pipe(Effect.provide(CronScheduler)))

    it.effect("an unknown time zone is a 400 naming it", () =>
      Effect.gen(function*() {
        for (const zone of ["Mars/Olympus", "Europe/Berlinn", "", "+01:00", "CEST"]) {
          const error = yield* rejection("*/15 * * * *", zone)
          assert.strictEqual(error.code, "BAD_REQUEST")
          assert.include(error.message, `Unknown time zone "${zone}"`)
          assert.include(error.message, "IANA")
          assert.deepStrictEqual(error.details, [{ path: ["timezone"], message: error.message }])
        }
      }).pipe(Effect.provide(CronScheduler)))
  })

  describe("nextRun", () => {
    it.effect("is strictly after the given instant, in the zone", () =>
      Effect.gen(function*() {
        const scheduler = yield* Scheduler
        const next = (cron: string, zone: string, at: string) =>
          Effect.map(scheduler.nextRun(cron, zone, utc(at)), Option.map(iso))
        assert.deepStrictEqual(yield* next("*/15 * * * *", "UTC", "2027-01-01T00:15:00.000Z"), Option.some("2027-01-01T00:30:00.000Z"))
        assert.deepStrictEqual(yield* next("*/15 * * * *", "UTC", "2027-01-01T00:14:59.999Z"), Option.some("2027-01-01T00:15:00.000Z"))
        assert.deepStrictEqual(yield* next("*/15 * * * *", "UTC", "2027-01-01T00:15:00.001Z"), Option.some("2027-01-01T00:30:00.000Z"))
        // 09:00 in New York (EST, UTC-5) and in Kolkata (UTC+5:30)
        assert.deepStrictEqual(yield* next("0 9 * * *", "America/New_York", "2027-01-04T00:00:00Z"), Option.some("2027-01-04T14:00:00.000Z"))
        assert.deepStrictEqual(yield* next("0 9 * * *", "Asia/Kolkata", "2027-01-04T00:00:00Z"), Option.some("2027-01-04T03:30:00.000Z"))
        // Monday to Friday: from Saturday the next is Monday
        assert.deepStrictEqual(yield* next("0 9 * * MON-FRI", "Europe/Berlin", "2027-01-02T12:00:00Z"), Option.some("2027-01-04T08:00:00.000Z"))
      }).pipe(Effect.provide(CronScheduler)))

    it.effect("an interval schedule skips the spring-forward gap and runs through both repeated hours", () =>
      Effect.gen(function*() {
        // 2027-03-28 02:00 CET → 03:00 CEST (01:00 UTC): local 02:xx does not exist, real time goes on
        assert.deepStrictEqual(yield* runs("*/15 * * * *", "Europe/Berlin", "2027-03-28T00:30:00Z", 4), [
          "2027-03-28T00:45:00.000Z", // 01:45 CET
          "2027-03-28T01:00:00.000Z", // 03:00 CEST
          "2027-03-28T01:15:00.000Z",
          "2027-03-28T01:30:00.000Z"
        ])
        // hourly at :30 in the gap hour: 01:30 CET, then 03:30 CEST (02:30 does not exist)
        assert.deepStrictEqual(yield* runs("30 * * * *", "Europe/Berlin", "2027-03-27T23:59:00Z", 3), [
          "2027-03-28T00:30:00.000Z",
          "2027-03-28T01:30:00.000Z",
          "2027-03-28T02:30:00.000Z"
        ])
        // 2027-10-31 03:00 CEST → 02:00 CET (01:00 UTC): local 02:30 happens twice and runs twice
        assert.deepStrictEqual(yield* runs("30 * * * *", "Europe/Berlin", "2027-10-30T23:59:00Z", 3), [
          "2027-10-31T00:30:00.000Z", // 02:30 CEST
          "2027-10-31T01:30:00.000Z", // 02:30 CET
          "2027-10-31T02:30:00.000Z" // 03:30 CET
        ])
      }).pipe(Effect.provide(CronScheduler)))

    it.effect("a fixed-time schedule in the gap runs once after it; in the repeated hour, once", () =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* runs("30 2 * * *", "Europe/Berlin", "2027-03-27T12:00:00Z", 2), [
          "2027-03-28T01:00:00.000Z", // 03:00 CEST, the first valid time after the gap, same day
          "2027-03-29T00:30:00.000Z" // 02:30 CEST
        ])
        assert.deepStrictEqual(yield* runs("30 2 * * *", "Europe/Berlin", "2027-10-30T12:00:00Z", 2), [
          "2027-10-31T00:30:00.000Z", // the first 02:30 (CEST); the second (CET) does not run
          "2027-11-01T01:30:00.000Z"
        ])
      }).pipe(Effect.provide(CronScheduler)))

    it.effect("an expression that was never validated is a defect", () =>
      Effect.gen(function*() {
        const scheduler = yield* Scheduler
        const exit = yield* Effect.exit(scheduler.nextRun("61 * * * *", "UTC", 0))
        assert.isTrue(exit._tag === "Failure")
      }).pipe(Effect.provide(CronScheduler)))
  })

  describe("runs in a month", () => {
    it.effect("countRuns counts the runs in (from, to] up to a cap", () =>
      Effect.gen(function*() {
        const scheduler = yield* Scheduler
        const day = utc("2027-01-04T00:00:00Z")
        assert.strictEqual(yield* scheduler.countRuns("*/15 * * * *", "UTC", day, day + 3_600_000, 100), 4)
        assert.strictEqual(yield* scheduler.countRuns("* * * * *", "UTC", day, day + 86_400_000, 50), 50)
      }).pipe(Effect.provide(CronScheduler)))

    it.effect("runsPerMonth is exact for hourly patterns, weekday rules and busy schedules", () =>
      Effect.gen(function*() {
        const scheduler = yield* Scheduler
        // Monday 4 January 2027, 00:00 UTC; 30 days later is Wednesday 3 February
        const from = utc("2027-01-04T00:00:00Z")
        const count = (cron: string, timezone = "UTC") => runsPerMonth(scheduler, cron, timezone, from)
        assert.strictEqual(yield* count("0 */6 * * *", "Europe/Berlin"), 120)
        assert.strictEqual(yield* count("* * * * *", "Europe/Berlin"), 43_200)
        // 22 weekdays in the 30 days × 9 business hours × 12 runs an hour
        assert.strictEqual(yield* count("*/5 9-17 * * 1-5"), 22 * 9 * 12)
        assert.strictEqual(yield* count("30 9 1 * *"), 1)
        assert.strictEqual(yield* count("@daily"), 30)
      }).pipe(Effect.provide(CronScheduler)))
  })
})
