/**
 * The webhook outbox and the teams' signing secrets. A delivery is written once (`enqueue`) and
 * sent later by whichever process claims it: `due` is one UPDATE … RETURNING that counts the
 * attempt and moves `next_attempt_at` past a lease, so the row is invisible to other senders
 * while it is in flight and reappears if its sender dies. On Postgres the candidate rows are
 * picked `FOR UPDATE SKIP LOCKED`, so concurrent senders pass over each other's rows; SQLite has
 * one writer, which makes the single statement atomic.
 */
import type { NewWebhookDelivery, StoreService } from "@gleaner/core"
import { Effect, Option, Schema } from "effect"
import type { UpdateObject } from "kysely"
import { column, type Database, type Db, DbNumber, decodeFirst, decodeRows } from "./database.js"

const WebhookDeliveryFromRow = Schema.Struct({
  id: Schema.String,
  teamId: column("team_id", Schema.String),
  url: Schema.String,
  headers: Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String })),
  body: Schema.String,
  event: Schema.String,
  attempts: DbNumber,
  nextAttemptAt: column("next_attempt_at", DbNumber),
  status: Schema.Literal("pending", "delivered", "failed"),
  lastError: column("last_error", Schema.NullOr(Schema.String)),
  createdAt: column("created_at", DbNumber),
  deliveredAt: column("delivered_at", Schema.NullOr(DbNumber))
})

const decodeDeliveries = decodeRows(WebhookDeliveryFromRow)
const decodeDelivery = decodeFirst(WebhookDeliveryFromRow)
const decodeSecret = decodeFirst(Schema.Struct({ webhook_secret: Schema.String }))

export const makeWebhooks = (db: Db): StoreService["webhooks"] => {
  const { execute, query } = db

  /** Moves a pending delivery; true when it was still pending. */
  const settlePending = (id: string, set: UpdateObject<Database, "webhook_outbox">) =>
    Effect.map(
      execute(query.updateTable("webhook_outbox").set(set).where("id", "=", id).where("status", "=", "pending").returning("id")),
      (rows) => rows.length > 0
    )

  return {
    enqueue: Effect.fnUntraced(function*(delivery: NewWebhookDelivery) {
      const rows = yield* execute(
        query
          .insertInto("webhook_outbox")
          .values({
            id: delivery.id,
            team_id: delivery.teamId,
            url: delivery.url,
            headers: JSON.stringify(delivery.headers),
            body: delivery.body,
            event: delivery.event,
            attempts: 0,
            next_attempt_at: delivery.createdAt,
            status: "pending",
            last_error: null,
            created_at: delivery.createdAt,
            delivered_at: null
          })
          .returningAll()
      )
      return Option.getOrThrow(yield* decodeDelivery(rows))
    }),

    due: Effect.fnUntraced(function*(now: number, limit: number, leaseMs: number) {
      if (limit <= 0) return []
      const pick = query
        .selectFrom("webhook_outbox")
        .select("id")
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(limit)
      const rows = yield* execute(
        query
          .updateTable("webhook_outbox")
          .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: now + leaseMs }))
          .where("id", "in", db.dialect === "pg" ? pick.forUpdate().skipLocked() : pick)
          .where("status", "=", "pending")
          .returningAll()
      )
      // RETURNING follows no ORDER BY; creation order is what callers expect.
      const deliveries = yield* decodeDeliveries(rows)
      return [...deliveries].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    }),

    markDelivered: Effect.fnUntraced(function*(id: string, now: number) {
      return yield* settlePending(id, { status: "delivered", delivered_at: now, last_error: null })
    }),

    markFailed: Effect.fnUntraced(function*(
      id: string,
      failure: { readonly error: string; readonly retryAt: number | null }
    ) {
      return yield* settlePending(
        id,
        failure.retryAt === null
          ? { status: "failed", last_error: failure.error }
          : { next_attempt_at: failure.retryAt, last_error: failure.error }
      )
    }),

    get: Effect.fnUntraced(function*(teamId: string, id: string) {
      return yield* decodeDelivery(
        yield* execute(query.selectFrom("webhook_outbox").selectAll().where("id", "=", id).where("team_id", "=", teamId))
      )
    }),

    purgeSettled: Effect.fnUntraced(function*(before: number) {
      const rows = yield* execute(
        query
          .deleteFrom("webhook_outbox")
          .where("created_at", "<", before)
          .where("status", "in", ["delivered", "failed"])
          .returning("id")
      )
      return rows.length
    }),

    teamSecret: Effect.fnUntraced(function*(teamId: string, ifMissing: string) {
      const row = yield* decodeSecret(
        yield* execute(
          query
            .updateTable("teams")
            .set((eb) => ({ webhook_secret: eb.fn.coalesce("webhook_secret", eb.val(ifMissing)) }))
            .where("id", "=", teamId)
            .returning("webhook_secret")
        )
      )
      return Option.map(row, (r) => r.webhook_secret)
    }),

    setTeamSecret: Effect.fnUntraced(function*(teamId: string, secret: string) {
      const rows = yield* execute(query.updateTable("teams").set({ webhook_secret: secret }).where("id", "=", teamId).returning("id"))
      return rows.length > 0
    })
  }
}
