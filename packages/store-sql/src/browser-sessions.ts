/**
 * Browser session records. Ending is one conditional UPDATE (`status = 'active'` → destroyed),
 * so of two processes (or a delete racing an expiry) only one sees `true` and bills.
 */
import type { BrowserSessionRecord, StoreService } from "@gleaner/core"
import { Effect, Schema } from "effect"
import { column, type Db, DbBoolean, DbNumber, decodeFirst, decodeRows } from "./database.js"

const BrowserSessionFromRow = Schema.Struct({
  id: Schema.String,
  teamId: column("team_id", Schema.String),
  apiKeyId: column("api_key_id", Schema.NullOr(Schema.String)),
  ownerId: column("owner_id", Schema.String),
  status: Schema.Literal("active", "destroyed"),
  tokenHash: column("token_hash", Schema.String),
  streamWebView: column("stream_web_view", DbBoolean),
  ttlSeconds: column("ttl_seconds", DbNumber),
  activityTtlSeconds: column("activity_ttl_seconds", DbNumber),
  createdAt: column("created_at", DbNumber),
  expiresAt: column("expires_at", DbNumber),
  lastActivityAt: column("last_activity_at", DbNumber),
  seenAt: column("seen_at", DbNumber),
  endedAt: column("ended_at", Schema.NullOr(DbNumber)),
  creditsBilled: column("credits_billed", Schema.NullOr(DbNumber)),
  endReason: column("end_reason", Schema.NullOr(Schema.String))
})

const decodeSessions = decodeRows(BrowserSessionFromRow)
const decodeSession = decodeFirst(BrowserSessionFromRow)
const decodeCount = decodeFirst(Schema.Struct({ n: DbNumber }))

export const makeBrowserSessions = (db: Db): StoreService["browserSessions"] => {
  const { execute, query } = db
  return {
    insert: (s: BrowserSessionRecord) =>
      Effect.asVoid(execute(query.insertInto("browser_sessions").values({
        id: s.id,
        team_id: s.teamId,
        api_key_id: s.apiKeyId,
        owner_id: s.ownerId,
        status: s.status,
        token_hash: s.tokenHash,
        stream_web_view: s.streamWebView ? 1 : 0,
        ttl_seconds: s.ttlSeconds,
        activity_ttl_seconds: s.activityTtlSeconds,
        created_at: s.createdAt,
        expires_at: s.expiresAt,
        last_activity_at: s.lastActivityAt,
        seen_at: s.seenAt,
        ended_at: s.endedAt,
        credits_billed: s.creditsBilled,
        end_reason: s.endReason
      }))),

    get: (teamId, id) =>
      Effect.flatMap(
        execute(query.selectFrom("browser_sessions").selectAll().where("team_id", "=", teamId).where("id", "=", id)),
        decodeSession
      ),

    list: (teamId, status) => {
      const base = query.selectFrom("browser_sessions").selectAll().where("team_id", "=", teamId)
      const filtered = status === undefined ? base : base.where("status", "=", status)
      return Effect.flatMap(execute(filtered.orderBy("created_at", "desc").orderBy("id", "desc")), decodeSessions)
    },

    countActive: (teamId) =>
      Effect.map(
        Effect.flatMap(
          execute(query.selectFrom("browser_sessions").select((eb) => eb.fn.countAll().as("n"))
            .where("team_id", "=", teamId).where("status", "=", "active")),
          decodeCount
        ),
        (row) => (row._tag === "Some" ? row.value.n : 0)
      ),

    touch: (id, lastActivityAt) =>
      Effect.asVoid(execute(query.updateTable("browser_sessions")
        .set({ last_activity_at: lastActivityAt, seen_at: lastActivityAt })
        .where("id", "=", id).where("status", "=", "active"))),

    seen: (ids, now) =>
      ids.length === 0
        ? Effect.void
        : Effect.asVoid(execute(query.updateTable("browser_sessions").set({ seen_at: now })
          .where("id", "in", [...ids]).where("status", "=", "active"))),

    end: (id, ending) =>
      Effect.map(
        execute(query.updateTable("browser_sessions")
          .set({ status: "destroyed", ended_at: ending.endedAt, credits_billed: ending.creditsBilled, end_reason: ending.reason })
          .where("id", "=", id).where("status", "=", "active").returning("id")),
        (rows) => rows.length > 0
      ),

    orphaned: (before) =>
      Effect.flatMap(
        execute(query.selectFrom("browser_sessions").selectAll().where("status", "=", "active").where("seen_at", "<", before).orderBy("created_at")),
        decodeSessions
      )
  }
}
