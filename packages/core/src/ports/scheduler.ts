/**
 * The Scheduler port: when does a cron schedule fire next, in a time zone, and how often in a
 * span of time. The croner layer implements it; the ScheduleRunner waits on Effect's Clock, so
 * tests drive schedules with TestClock.
 */
import { Context, type Effect, type Option } from "effect"
import type { BadRequestError } from "../errors.js"

export class Scheduler extends Context.Tag("@gleaner/core/Scheduler")<Scheduler, {
  /** Fails with 400 for a cron expression or time zone that does not parse. */
  readonly validate: (cron: string, timezone: string) => Effect.Effect<void, BadRequestError>
  /** The first run strictly after `afterMs`, or none when the schedule never fires again. */
  readonly nextRun: (cron: string, timezone: string, afterMs: number) => Effect.Effect<Option.Option<number>>
  /** Runs strictly after `fromMs` and at or before `toMs`, counted up to `max`. */
  readonly countRuns: (cron: string, timezone: string, fromMs: number, toMs: number, max: number) => Effect.Effect<number>
}>() {}
