/**
 * Claims of scheduled runs: one row per (schedule key, due instant). Claiming is an
 * insert-or-ignore on that pair, so of several processes racing for one run exactly one gets a
 * row back and fires it; the others see false and let it be.
 */
import type { StoreService } from "@gleaner/core"
import { Effect } from "effect"
import type { Db } from "./database.js"

export const makeScheduledRuns = ({ execute, query }: Db): StoreService["scheduledRuns"] => ({
  claim: Effect.fnUntraced(function*(scheduleKey: string, runAtMs: number, claimer: string, now: number) {
    const rows = yield* execute(
      query.insertInto("scheduled_runs")
        .values({ schedule_key: scheduleKey, run_at: runAtMs, claimer, claimed_at: now })
        .onConflict((oc) => oc.columns(["schedule_key", "run_at"]).doNothing())
        .returning("schedule_key")
    )
    return rows.length > 0
  }),

  purge: Effect.fnUntraced(function*(before: number) {
    const rows = yield* execute(query.deleteFrom("scheduled_runs").where("run_at", "<", before).returning("schedule_key"))
    return rows.length
  })
})
