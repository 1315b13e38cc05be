/**
 * API keys. Only the SHA-256 of a key is stored; authentication looks a key up by that hash and
 * gets its team in the same query (one round trip per request). Revoking stamps `revoked_at`; a
 * revoked key is no longer found but stays listed.
 */
import type { NewApiKey, StoreService } from "@gleaner/core"
import { Effect, Option, Schema } from "effect"
import { column, type Db, DbNumber, decodeFirst, decodeRows } from "./database.js"

export const ApiKeyFromRow = Schema.Struct({
  id: Schema.String,
  teamId: column("team_id", Schema.String),
  name: Schema.String,
  displayPrefix: column("display_prefix", Schema.String),
  createdAt: column("created_at", DbNumber),
  revokedAt: column("revoked_at", Schema.NullOr(DbNumber))
})

/** The team half of the key+team join, read from its `team_*` aliases. */
const TeamFromJoinedRow = Schema.Struct({
  id: column("team_id", Schema.String),
  name: column("team_name", Schema.String),
  plan: column("team_plan", Schema.String),
  maxConcurrency: column("team_max_concurrency", DbNumber),
  createdAt: column("team_created_at", DbNumber)
})

const KeyWithTeamFromRow = Schema.Struct({
  key: ApiKeyFromRow,
  team: TeamFromJoinedRow
})

const decodeKeys = decodeRows(ApiKeyFromRow)
const decodeKey = decodeFirst(ApiKeyFromRow)
const decodeKeyWithTeam = decodeFirst(KeyWithTeamFromRow)

export const makeApiKeys = (db: Db): StoreService["apiKeys"] => {
  const { execute, query } = db

  return {
    insert: Effect.fnUntraced(function*(key: NewApiKey) {
      const rows = yield* execute(
        query
          .insertInto("api_keys")
          .values({
            id: key.id,
            team_id: key.teamId,
            name: key.name,
            display_prefix: key.displayPrefix,
            hash: key.hash,
            created_at: key.createdAt,
            revoked_at: null
          })
          .returningAll()
      )
      return Option.getOrThrow(yield* decodeKey(rows))
    }),

    findActiveByHash: Effect.fnUntraced(function*(hash: string) {
      const rows = yield* execute(
        query
          .selectFrom("api_keys")
          .innerJoin("teams", "teams.id", "api_keys.team_id")
          .select([
            "api_keys.id",
            "api_keys.team_id",
            "api_keys.name",
            "api_keys.display_prefix",
            "api_keys.created_at",
            "api_keys.revoked_at",
            "teams.name as team_name",
            "teams.plan as team_plan",
            "teams.max_concurrency as team_max_concurrency",
            "teams.created_at as team_created_at"
          ])
          .where("api_keys.hash", "=", hash)
          .where("api_keys.revoked_at", "is", null)
      )
      // The same row feeds both halves; each schema picks its own columns.
      return yield* decodeKeyWithTeam(rows.map((row) => ({ key: row, team: row })))
    }),

    list: Effect.fnUntraced(function*(teamId?: string) {
      const all = query.selectFrom("api_keys").selectAll().orderBy("created_at").orderBy("id")
      return yield* decodeKeys(yield* execute(teamId === undefined ? all : all.where("team_id", "=", teamId)))
    }),

    revoke: Effect.fnUntraced(function*(id: string, now: number) {
      const rows = yield* execute(
        query
          .updateTable("api_keys")
          .set({ revoked_at: now })
          .where("id", "=", id)
          .where("revoked_at", "is", null)
          .returning("id")
      )
      return rows.length > 0
    })
  }
}
