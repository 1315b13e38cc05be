/**
 * The ScheduleRunner: watches cron schedules and fires each due run once across processes. It
 * sleeps on Effect's Clock until the earliest next run, claims that run in the store (so of
 * several processes watching one schedule exactly one fires it), and hands the runs it won to a
 * handler. It knows nothing about what a schedule is for: monitors plug in through `schedules`
 * and `handler`. Driven entirely by the Clock, so tests move time with TestClock.
 *
 * What it promises: a run is fired at most once (the claim), at its instant when the process is
 * awake. A process that wakes late (busy, suspended) fires the run it was waiting for, once, late,
 * and then moves to the first run after the current time; runs due while no process watched are
 * not made up. A schedule starts with its first run at or after the moment the runner first saw it.
 */
import { hostname } from "node:os"
import { randomBytes } from "node:crypto"
import { Cause, Clock, Duration, Effect, Option } from "effect"
import { Scheduler } from "../ports/scheduler.js"
import { Store } from "../ports/store.js"

/** A schedule to watch. */
export interface WatchedSchedule {
  /** Unique among everything this store schedules (`monitor:<id>`): the claim key. */
  readonly id: string
  /** A cron expression the Scheduler validated. */
  readonly cron: string
  /** An IANA time zone name. */
  readonly timezone: string
}

/** A run this process claimed. */
export interface ScheduledRun {
  readonly scheduleId: string
  /** The instant the run was due (epoch ms). */
  readonly runAtMs: number
  /** When this process fired it (epoch ms); later than `runAtMs` only when the process woke late. */
  readonly firedAtMs: number
}

export interface ScheduleRunnerOptions {
  /** The schedules to watch, read again at every wake-up (a change is seen within `refreshMs`). */
  readonly schedules: Effect.Effect<ReadonlyArray<WatchedSchedule>>
  /**
   * Acts on a run this process won; keep it short (enqueue a job): runs are fired one after the
   * other, so a slow handler delays the next. Its failures and defects are logged, and the runner
   * goes on (the run stays claimed: it is not retried).
   */
  readonly handler: (run: ScheduledRun) => Effect.Effect<void, unknown>
  /** Longest sleep between reads of `schedules`, in ms. Default 60 000. */
  readonly refreshMs?: number
  /** Claims of runs older than this are purged, in ms. Default 7 days. */
  readonly claimRetentionMs?: number
  /** Names this process in its claims; unique per process by default. */
  readonly claimer?: string
}

interface Watch {
  readonly schedule: WatchedSchedule
  /** The next run to fire; None when the schedule never fires again. */
  readonly nextAtMs: Option.Option<number>
}

const purgeEveryMs = 3_600_000

/** Runs the schedule runner in the current scope until it closes; its claimer name. */
export const runSchedules = Effect.fn("ScheduleRunner.run")(function*(options: ScheduleRunnerOptions) {
  const store = yield* Store
  const scheduler = yield* Scheduler
  const claimer = options.claimer ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`
  const refreshMs = options.refreshMs ?? 60_000
  const claimRetentionMs = options.claimRetentionMs ?? 7 * 86_400_000
  const watches = new Map<string, Watch>()
  let purgedAt = Number.NEGATIVE_INFINITY

  // A schedule whose next run cannot be computed (it was never validated) is logged and skipped.
  const nextAfter = (schedule: WatchedSchedule, afterMs: number) =>
    scheduler.nextRun(schedule.cron, schedule.timezone, afterMs).pipe(
      Effect.catchAllDefect((defect) =>
        Effect.as(Effect.logWarning("schedule skipped: its next run cannot be computed", { scheduleId: schedule.id }, defect), Option.none<number>()))
    )

  /** Picks up added and changed schedules (first run at or after now) and drops removed ones. */
  const refresh = Effect.fnUntraced(function*(now: number) {
    const schedules = yield* options.schedules
    const ids = new Set(schedules.map((s) => s.id))
    for (const id of watches.keys()) if (!ids.has(id)) watches.delete(id)
    for (const schedule of schedules) {
      const known = watches.get(schedule.id)
      if (known !== undefined && known.schedule.cron === schedule.cron && known.schedule.timezone === schedule.timezone) continue
      watches.set(schedule.id, { schedule, nextAtMs: yield* nextAfter(schedule, now - 1) })
    }
  })

  const fire = Effect.fnUntraced(function*(watch: Watch, runAtMs: number, now: number) {
    const { schedule } = watch
    const won = yield* store.scheduledRuns.claim(schedule.id, runAtMs, claimer, now)
    if (won) {
      yield* options.handler({ scheduleId: schedule.id, runAtMs, firedAtMs: now }).pipe(
        Effect.catchAllCause((cause) => Effect.logError("scheduled run failed", Cause.pretty(cause))),
        Effect.annotateLogs({ scheduleId: schedule.id, runAtMs })
      )
    }
    // the next run after both this one and now: runs missed while asleep are not made up
    watches.set(schedule.id, { schedule, nextAtMs: yield* nextAfter(schedule, Math.max(runAtMs, now - 1)) })
  })

  const tick = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    yield* refresh(now)
    for (const watch of [...watches.values()]) {
      if (Option.isSome(watch.nextAtMs) && watch.nextAtMs.value <= now) yield* fire(watch, watch.nextAtMs.value, now)
    }
    if (now - purgedAt >= purgeEveryMs) {
      purgedAt = now
      yield* store.scheduledRuns.purge(now - claimRetentionMs)
    }
    // sleep until the earliest next run, but re-read the schedules at least every refreshMs
    const after = yield* Clock.currentTimeMillis
    const earliest = [...watches.values()].reduce(
      (soonest, w) => Option.isSome(w.nextAtMs) ? Math.min(soonest, w.nextAtMs.value) : soonest,
      after + refreshMs
    )
    if (earliest > after) yield* Effect.sleep(Duration.millis(earliest - after))
  })

  yield* Effect.forkScoped(Effect.forever(tick.pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause)
        : Effect.zipRight(Effect.logError("schedule runner tick failed", Cause.pretty(cause)), Effect.sleep(Duration.millis(refreshMs))))
  )))
  yield* Effect.logDebug("schedule runner started", { claimer })
  return { claimer } as const
})
