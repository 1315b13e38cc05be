/**
 * The credit ledger: an append-only list of entries (usage, refunds, grants) per team and billing
 * period. Idempotency is the unique `idempotency_key` plus ON CONFLICT DO NOTHING, so a retried
 * operation is recorded once even when two retries race. Each entry written also adds its credits
 * to `credit_totals` in the same transaction, so the period total is one row; other totals are
 * SUMs over the entries.
 */
import type { LedgerEntry, StoreService } from "@gleaner/core"
import { Effect, Option, Schema } from "effect"
import { column, type Db, DbNumber, decodeFirst, decodeRows } from "./database.js"

export const LedgerEntryFromRow = Schema.Struct({
  id: Schema.String,
  teamId: column("team_id", Schema.String),
  apiKeyId: column("api_key_id", Schema.NullOr(Schema.String)),
  operation: Schema.String,
  jobId: column("job_id", Schema.NullOr(Schema.String)),
  credits: DbNumber,
  periodStart: column("period_start", DbNumber),
  createdAt: column("created_at", DbNumber),
  idempotencyKey: column("idempotency_key", Schema.NullOr(Schema.String))
})

const PeriodUsageFromRow = Schema.Struct({
  periodStart: column("period_start", DbNumber),
  apiKeyId: column("api_key_id", Schema.NullOr(Schema.String)),
  credits: DbNumber
})

const TotalFromRow = Schema.Struct({ total: DbNumber })

const decodeEntries = decodeRows(LedgerEntryFromRow)
const decodeUsage = decodeRows(PeriodUsageFromRow)
const decodeTotal = decodeFirst(TotalFromRow)

export const makeLedger = (db: Db): StoreService["ledger"] => {
  const { execute, query, transaction } = db

  const usageByPeriod = (teamId: string, byApiKey: boolean) => {
    const ofTeam = query.selectFrom("ledger").where("team_id", "=", teamId)
    return byApiKey
      ? ofTeam
        .select((eb) => ["period_start", "api_key_id", eb.fn.sum("credits").as("credits")])
        .groupBy(["period_start", "api_key_id"])
        .orderBy("period_start")
        // Postgres sorts NULL last and SQLite first unless told; say it so both agree.
        .orderBy("api_key_id", (ob) => ob.asc().nullsFirst())
      : ofTeam
        .select((eb) => ["period_start", eb.lit(null).as("api_key_id"), eb.fn.sum("credits").as("credits")])
        .groupBy("period_start")
        .orderBy("period_start")
  }

  return {
    append: Effect.fnUntraced(function*(entry: LedgerEntry) {
      return yield* transaction(Effect.gen(function*() {
        const rows = yield* execute(
          query
            .insertInto("ledger")
            .values({
              id: entry.id,
              team_id: entry.teamId,
              api_key_id: entry.apiKeyId,
              operation: entry.operation,
              job_id: entry.jobId,
              credits: entry.credits,
              period_start: entry.periodStart,
              created_at: entry.createdAt,
              idempotency_key: entry.idempotencyKey
            })
            .onConflict((oc) => oc.column("idempotency_key").doNothing())
            .returning("id")
        )
        if (rows.length === 0) return false
        yield* execute(
          query
            .insertInto("credit_totals")
            .values({ team_id: entry.teamId, period_start: entry.periodStart, credits: entry.credits })
            .onConflict((oc) =>
              oc.columns(["team_id", "period_start"]).doUpdateSet((eb) => ({ credits: eb("credit_totals.credits", "+", eb.ref("excluded.credits")) }))
            )
        )
        return true
      }))
    }),

    periodTotal: Effect.fnUntraced(function*(teamId: string, periodStart: number) {
      const rows = yield* execute(
        query
          .selectFrom("credit_totals")
          .select("credits as total")
          .where("team_id", "=", teamId)
          .where("period_start", "=", periodStart)
      )
      return Option.match(yield* decodeTotal(rows), { onNone: () => 0, onSome: (row) => row.total })
    }),

    jobTotal: Effect.fnUntraced(function*(teamId: string, jobId: string) {
      const rows = yield* execute(
        query
          .selectFrom("ledger")
          .select((eb) => eb.fn.coalesce(eb.fn.sum("credits"), eb.lit(0)).as("total"))
          .where("team_id", "=", teamId)
          .where("job_id", "=", jobId)
      )
      return Option.match(yield* decodeTotal(rows), { onNone: () => 0, onSome: (row) => row.total })
    }),

    usageByPeriod: Effect.fnUntraced(function*(
      teamId: string,
      options: { readonly byApiKey: boolean }
    ) {
      return yield* decodeUsage(yield* execute(usageByPeriod(teamId, options.byApiKey)))
    }),

    list: Effect.fnUntraced(function*(teamId: string, options: { readonly jobId?: string }) {
      const ofTeam = query.selectFrom("ledger").selectAll().where("team_id", "=", teamId)
      const rows = yield* execute(
        (options.jobId === undefined ? ofTeam : ofTeam.where("job_id", "=", options.jobId))
          .orderBy("created_at")
          .orderBy("id")
      )
      return yield* decodeEntries(rows)
    })
  }
}
