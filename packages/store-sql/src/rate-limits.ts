/**
 * Fixed-window rate-limit counters: one row per (key, window start). A hit is a single upsert
 * that returns the new count, so concurrent requests never lose an increment; old windows are
 * purged in bulk.
 */
import type { StoreService } from "@gleaner/core"
import { Effect, Option, Schema } from "effect"
import { type Db, DbNumber, decodeFirst } from "./database.js"

const decodeCount = decodeFirst(Schema.Struct({ count: DbNumber }))

export const makeRateLimits = (db: Db): StoreService["rateLimits"] => {
  const { execute, query } = db

  return {
    hit: Effect.fnUntraced(function*(key: string, windowStart: number) {
      const rows = yield* execute(
        query
          .insertInto("rate_limits")
          .values({ key, window_start: windowStart, count: 1 })
          .onConflict((oc) =>
            oc.columns(["key", "window_start"]).doUpdateSet((eb) => ({ count: eb("rate_limits.count", "+", 1) }))
          )
          .returning("count")
      )
      return Option.getOrThrow(yield* decodeCount(rows)).count
    }),

    purge: Effect.fnUntraced(function*(before: number) {
      yield* execute(query.deleteFrom("rate_limits").where("window_start", "<", before))
    })
  }
}
