/**
 * Idempotency keys: a key a team sends with a request that must run once. Claiming is an
 * insert-or-ignore on (team, key), so of two requests racing with one key exactly one wins.
 */
import type { StoreService } from "@gleaner/core"
import { Effect } from "effect"
import type { Db } from "./database.js"

export const makeIdempotencyKeys = ({ execute, query }: Db): StoreService["idempotencyKeys"] => ({
  claim: Effect.fnUntraced(function*(teamId: string, key: string, now: number) {
    const rows = yield* execute(
      query.insertInto("idempotency_keys").values({ team_id: teamId, idempotency_key: key, created_at: now })
        .onConflict((oc) => oc.columns(["team_id", "idempotency_key"]).doNothing())
        .returning("idempotency_key")
    )
    return rows.length > 0
  })
})
