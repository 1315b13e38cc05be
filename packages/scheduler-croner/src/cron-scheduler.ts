/**
 * The Scheduler port on croner: parses five-field cron expressions and computes the next run in
 * an IANA time zone. Croner only computes dates here; the waiting is done with Effect's Clock by
 * whoever asks (the ScheduleRunner), so tests drive time with TestClock.
 *
 * DST, as croner computes it (Vixie cron's rules, which most cron users expect):
 * - Interval expressions (a `*`, step, range or list in the minute or hour field, such as
 *   `*\/15 * * * *`): local times that do not exist in a spring-forward gap are skipped; local times
 *   that occur twice in a fall-back hour run on both occurrences, so the job keeps its rhythm in
 *   real time.
 * - Fixed-time expressions (a single minute and a single hour, such as `30 2 * * *`): a time in the
 *   gap runs once at the first valid time after it (03:00 in Europe/Berlin), on the same day; a
 *   time that occurs twice runs once, at its first occurrence.
 */
import { BadRequestError, Scheduler } from "@gleaner/core"
import { Cron } from "croner"
import { Effect, Either, Layer, Option } from "effect"

/** Five fields, or one of the nicknames croner expands. */
const fiveFields = /^\S+\s+\S+\s+\S+\s+\S+\s+\S+$/
const nicknames = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]
const example = `Use five fields, "minute hour day-of-month month day-of-week", such as "*/15 * * * *" or "0 9 * * MON-FRI"`

const badCron = (cron: string, problem: string) => {
  const message = `Invalid cron expression "${cron}": ${problem}. ${example}.`
  return new BadRequestError({ message, details: [{ path: ["cron"], message }] })
}

const badTimezone = (timezone: string) => {
  const message = `Unknown time zone "${timezone}": use an IANA time zone name such as "Europe/Berlin", "America/New_York" or "UTC".`
  return new BadRequestError({ message, details: [{ path: ["timezone"], message }] })
}

/** Croner's messages start with its class name ("CronPattern: Invalid value for minute: 61"). */
const problemOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/^Cron\w*:\s*/, "").replace(/\.$/, "")

/** A zone the platform's time-zone database knows, by IANA name (not a bare offset like "+01:00"). */
const isKnownTimezone = (timezone: string) => {
  if (!/^[A-Za-z]/.test(timezone)) return false
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone })
    return true
  } catch {
    return false
  }
}

/**
 * The parsed schedule, or why it cannot be one. Croner also takes an ISO date as a one-off
 * "pattern"; schedules are recurring, so only the cron shape is passed on to it.
 */
const parse = (cron: string, timezone: string): Either.Either<Cron, BadRequestError> => {
  const trimmed = cron.trim()
  if (trimmed.startsWith("@") && !nicknames.includes(trimmed.toLowerCase())) {
    return Either.left(badCron(cron, `${trimmed} is not a nickname Gleaner accepts (${nicknames.join(", ")})`))
  }
  if (!trimmed.startsWith("@") && !fiveFields.test(trimmed)) {
    return Either.left(badCron(cron, `expected 5 space-separated fields, got ${trimmed === "" ? 0 : trimmed.split(/\s+/).length}`))
  }
  if (!isKnownTimezone(timezone)) return Either.left(badTimezone(timezone))
  try {
    return Either.right(new Cron(trimmed, { paused: true, mode: "5-part", timezone }))
  } catch (error) {
    return Either.left(badCron(cron, problemOf(error)))
  }
}

const next = (job: Cron, afterMs: number): Option.Option<number> =>
  Option.map(Option.fromNullable(job.nextRun(new Date(afterMs))), (date) => date.getTime())

/** Validates once, then checks the expression ever fires (`0 0 31 2 *` never does). */
const validate = (cron: string, timezone: string): Effect.Effect<void, BadRequestError> =>
  Either.match(parse(cron, timezone), {
    onLeft: Effect.fail,
    onRight: (job) =>
      Option.isNone(next(job, Date.UTC(2000, 0, 1)))
        ? Effect.fail(badCron(cron, "it never fires (no date matches it)"))
        : Effect.void
  })

/**
 * The first run strictly after `afterMs`. An expression that does not validate is a defect here:
 * callers validate schedules when they are saved.
 */
const nextRun = (cron: string, timezone: string, afterMs: number): Effect.Effect<Option.Option<number>> =>
  Either.match(parse(cron, timezone), {
    onLeft: (error) => Effect.die(error),
    onRight: (job) => Effect.sync(() => next(job, afterMs))
  })

/** Runs in (fromMs, toMs], up to `max`, on one parse of the expression. */
const countRuns = (cron: string, timezone: string, fromMs: number, toMs: number, max: number): Effect.Effect<number> =>
  Either.match(parse(cron, timezone), {
    onLeft: (error) => Effect.die(error),
    onRight: (job) =>
      Effect.sync(() => {
        let count = 0
        for (let at = next(job, fromMs); Option.isSome(at) && at.value <= toMs && count < max; at = next(job, at.value)) count += 1
        return count
      })
  })

/** The Scheduler port computed with croner. */
export const CronScheduler: Layer.Layer<Scheduler> = Layer.succeed(Scheduler, Scheduler.of({ validate, nextRun, countRuns }))
