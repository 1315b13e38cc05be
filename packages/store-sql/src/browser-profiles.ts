/**
 * Browser profiles: one row per team and name with the saved state and the write lock. Taking
 * the lock is one upsert whose update only happens when the lock is free, expired or already the
 * caller's, so of two writers racing exactly one gets a row back.
 */
import type { StoreService } from "@gleaner/core"
import { Effect, Schema } from "effect"
import { column, type Db, DbNumber, decodeFirst } from "./database.js"

const decodeProfile = decodeFirst(Schema.Struct({ state: Schema.String, updatedAt: column("updated_at", DbNumber) }))

export const makeBrowserProfiles = ({ execute, query }: Db): StoreService["browserProfiles"] => ({
  get: (teamId, name) =>
    Effect.flatMap(
      execute(query.selectFrom("browser_profiles").select(["state", "updated_at"]).where("team_id", "=", teamId).where("name", "=", name)
        .where("state", "is not", null)),
      decodeProfile
    ),
  lock: (teamId, name, holder, now, untilMs) =>
    Effect.map(
      execute(
        query.insertInto("browser_profiles")
          .values({ team_id: teamId, name, state: null, updated_at: now, lock_holder: holder, locked_until: untilMs })
          .onConflict((oc) =>
            oc.columns(["team_id", "name"])
              .doUpdateSet({ lock_holder: holder, locked_until: untilMs })
              .where((eb) =>
                eb.or([
                  eb("browser_profiles.lock_holder", "is", null),
                  eb("browser_profiles.locked_until", "<", now),
                  eb("browser_profiles.lock_holder", "=", holder)
                ])
              )
          )
          .returning("name")
      ),
      (rows) => rows.length > 0
    ),
  save: (teamId, name, holder, state, now) =>
    Effect.map(
      execute(
        query.updateTable("browser_profiles")
          .set({ state, updated_at: now, lock_holder: null, locked_until: null })
          .where("team_id", "=", teamId).where("name", "=", name).where("lock_holder", "=", holder)
          .returning("name")
      ),
      (rows) => rows.length > 0
    ),
  unlock: (teamId, name, holder) =>
    Effect.asVoid(execute(
      query.updateTable("browser_profiles").set({ lock_holder: null, locked_until: null })
        .where("team_id", "=", teamId).where("name", "=", name).where("lock_holder", "=", holder)
    ))
})
