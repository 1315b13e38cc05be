/**
 * The Scheduler port: when does a cron schedule fire next, in a time zone. The croner layer and
 * a TestClock-driven test layer arrive with monitors.
 */
import { Context, type Effect, type Option } from "effect"
import type { BadRequestError } from "../errors.js"

export class Scheduler extends Context.Tag("@gleaner/core/Scheduler")<Scheduler, {
  /** Fails with 400 for a cron expression or time zone that does not parse. */
  readonly validate: (cron: string, timezone: string) => Effect.Effect<void, BadRequestError>
  /** The first run strictly after `afterMs`, or none when the schedule never fires again. */
  readonly nextRun: (cron: string, timezone: string, afterMs: number) => Effect.Effect<Option.Option<number>>
}>() {}
