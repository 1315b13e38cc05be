/**
 * Monitors on the ScheduleRunner: every active monitor's cron schedule is watched, and each run
 * this process wins starts a check (or records it as skipped while the last one still runs).
 * Schedules are re-read every 15 seconds, so a new, changed or paused monitor is seen quickly.
 */
import { Effect, Layer } from "effect"
import { Store } from "../ports/store.js"
import { runSchedules } from "../schedules/schedule-runner.js"
import { monitorScheduleId, Monitors } from "./monitors.js"

/** Watches the monitors' schedules in the current scope; `claimer` names this process in claims. */
export const watchMonitorSchedules = (options: { readonly claimer?: string; readonly refreshMs?: number } = {}) =>
  Effect.gen(function*() {
    const store = yield* Store
    const monitors = yield* Monitors
    return yield* runSchedules({
      schedules: Effect.map(store.monitors.active(), (rows) =>
        rows.map((row) => ({ id: monitorScheduleId(row), cron: row.cron, timezone: row.timezone }))),
      handler: monitors.fireScheduled,
      refreshMs: options.refreshMs ?? 15_000,
      ...(options.claimer === undefined ? {} : { claimer: options.claimer })
    })
  })

export const MonitorSchedulesLive = Layer.scopedDiscard(watchMonitorSchedules())
