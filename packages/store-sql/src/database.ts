/**
 * The database as the query code sees it: the tables' types, a "cold" Kysely per dialect that only
 * compiles queries (its driver is a DummyDriver and never runs anything), and `Db`, the handle each
 * resource module receives. `Db.execute` runs a compiled query through @effect/sql, so it joins
 * the fiber's transaction (`Db.transaction`) and gets @effect/sql's spans. So the resource
 * modules use `Effect.fnUntraced`, not `Effect.fn`: a traced function captures a stack trace on
 * every call (~20 µs), which a crawl pays several times per page for spans that add nothing.
 *
 * Rows are decoded with Schema at this boundary because the dialects disagree on types: Postgres
 * returns BIGINT (our epoch-ms columns), COUNT and SUM as strings, SQLite returns numbers. The
 * decoders accept both, so the Store answers the same values on either database.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import {
  type ColumnType,
  type Compilable,
  DummyDriver,
  type Dialect as KyselyDialect,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler
} from "kysely"
import type {
  JobPageStatus,
  JobStatus,
  MonitorCheckRecord,
  MonitorCheckStatus,
  MonitorPageStatus,
  WebhookDeliveryStatus
} from "@gleaner/core"

/** Epoch milliseconds: BIGINT on Postgres (read back as a string), INTEGER on SQLite. */
type Millis = ColumnType<number | string, number, number>
type NullableMillis = ColumnType<number | string | null, number | null, number | null>

export interface TeamsTable {
  readonly id: string
  readonly name: string
  readonly plan: string
  readonly max_concurrency: number
  readonly created_at: Millis
  /** Set on first use by the webhook sender (migration 0004). */
  readonly webhook_secret: string | null
}

export interface ApiKeysTable {
  readonly id: string
  readonly team_id: string
  readonly name: string
  readonly display_prefix: string
  readonly hash: string
  readonly created_at: Millis
  readonly revoked_at: NullableMillis
}

export interface LedgerTable {
  readonly id: string
  readonly team_id: string
  readonly api_key_id: string | null
  readonly operation: string
  readonly job_id: string | null
  readonly credits: Millis
  readonly period_start: Millis
  readonly created_at: Millis
  readonly idempotency_key: string | null
}

export interface RateLimitsTable {
  readonly key: string
  readonly window_start: Millis
  readonly count: number
}

export interface JobsTable {
  readonly id: string
  readonly team_id: string
  readonly kind: string
  readonly payload: string
  readonly status: JobStatus
  readonly priority: number
  readonly attempts: number
  readonly max_attempts: number
  readonly run_at: Millis
  readonly worker_id: string | null
  readonly lease_expires_at: NullableMillis
  /** 0 or 1 on both dialects. */
  readonly cancel_requested: number
  readonly result: string | null
  readonly error: string | null
  readonly created_at: Millis
  readonly updated_at: Millis
  readonly started_at: NullableMillis
  readonly finished_at: NullableMillis
}

export interface DocumentsTable {
  readonly id: string
  readonly team_id: string
  readonly source_url: string
  readonly document: string
  readonly audit_metadata: string | null
  readonly replay: string | null
  readonly created_at: Millis
  readonly expires_at: Millis
}

export interface PageCacheTable {
  readonly team_id: string
  readonly cache_key: string
  readonly url: string
  readonly status_code: number
  readonly content_type: string | null
  /** base64 */
  readonly body: string
  readonly fetched_at: Millis
}

export interface PageSnapshotsTable {
  readonly team_id: string
  readonly url: string
  readonly tag: string
  readonly markdown: string
  readonly json: string | null
  readonly scraped_at: Millis
}

export interface JobPagesTable {
  readonly job_id: string
  readonly team_id: string
  readonly page_key: string
  readonly url: string
  readonly depth: number
  readonly status: JobPageStatus
  readonly document: string | null
  readonly error: string | null
  readonly created_at: Millis
  readonly finished_at: NullableMillis
}

export interface WebhookOutboxTable {
  readonly id: string
  readonly team_id: string
  readonly url: string
  /** JSON object of header names to values. */
  readonly headers: string
  readonly body: string
  readonly event: string
  readonly attempts: number
  readonly next_attempt_at: Millis
  readonly status: WebhookDeliveryStatus
  readonly last_error: string | null
  readonly created_at: Millis
  readonly delivered_at: NullableMillis
}

export interface IdempotencyKeysTable {
  readonly team_id: string
  readonly idempotency_key: string
  readonly created_at: Millis
}

export interface CreditTotalsTable {
  readonly team_id: string
  readonly period_start: Millis
  readonly credits: Millis
}

export interface BrowserSessionsTable {
  readonly id: string
  readonly team_id: string
  readonly api_key_id: string | null
  readonly owner_id: string
  readonly status: "active" | "destroyed"
  readonly token_hash: string
  /** 0 or 1 */
  readonly stream_web_view: number
  readonly ttl_seconds: number
  readonly activity_ttl_seconds: number
  readonly created_at: Millis
  readonly expires_at: Millis
  readonly last_activity_at: Millis
  readonly seen_at: Millis
  readonly ended_at: NullableMillis
  readonly credits_billed: number | null
  readonly end_reason: string | null
}

export interface BrowserProfilesTable {
  readonly team_id: string
  readonly name: string
  readonly state: string | null
  readonly updated_at: Millis
  readonly lock_holder: string | null
  readonly locked_until: NullableMillis
}

export interface ScheduledRunsTable {
  readonly schedule_key: string
  readonly run_at: Millis
  readonly claimer: string
  readonly claimed_at: Millis
}

export interface MonitorsTable {
  readonly id: string
  readonly team_id: string
  readonly api_key_id: string | null
  readonly name: string
  readonly status: "active" | "paused"
  readonly cron: string
  readonly timezone: string
  readonly spec: string
  readonly retention_days: number
  readonly next_run_at: NullableMillis
  readonly last_run_at: NullableMillis
  readonly current_check_id: string | null
  readonly last_check_summary: string | null
  readonly created_at: Millis
  readonly updated_at: Millis
}

export interface MonitorChecksTable {
  readonly id: string
  readonly monitor_id: string
  readonly team_id: string
  readonly status: MonitorCheckStatus
  readonly trigger: "scheduled" | "manual"
  readonly scheduled_for: NullableMillis
  readonly started_at: NullableMillis
  readonly finished_at: NullableMillis
  readonly estimated_credits: number | null
  readonly reserved_credits: number | null
  readonly actual_credits: number | null
  readonly billing_status: MonitorCheckRecord["billingStatus"]
  readonly summary: string
  readonly target_results: string
  readonly notification_status: string | null
  readonly error: string | null
  readonly created_at: Millis
  readonly updated_at: Millis
}

export interface MonitorCheckPagesTable {
  readonly id: string
  readonly check_id: string
  readonly monitor_id: string
  readonly team_id: string
  readonly target_id: string
  readonly url: string
  readonly status: MonitorPageStatus
  readonly previous_scrape_id: string | null
  readonly current_scrape_id: string | null
  readonly status_code: number | null
  readonly error: string | null
  readonly metadata: string | null
  readonly judgment: string | null
  readonly diff: string | null
  readonly snapshot: string | null
  readonly created_at: Millis
}

export interface MonitorSnapshotsTable {
  readonly monitor_id: string
  readonly url: string
  readonly team_id: string
  readonly target_id: string
  readonly markdown: string
  readonly json: string | null
  readonly scrape_id: string
  readonly scraped_at: Millis
}

export interface Database {
  readonly browser_profiles: BrowserProfilesTable
  readonly browser_sessions: BrowserSessionsTable
  readonly credit_totals: CreditTotalsTable
  readonly idempotency_keys: IdempotencyKeysTable
  readonly job_pages: JobPagesTable
  readonly documents: DocumentsTable
  readonly page_cache: PageCacheTable
  readonly page_snapshots: PageSnapshotsTable
  readonly teams: TeamsTable
  readonly api_keys: ApiKeysTable
  readonly ledger: LedgerTable
  readonly rate_limits: RateLimitsTable
  readonly scheduled_runs: ScheduledRunsTable
  readonly jobs: JobsTable
  readonly monitors: MonitorsTable
  readonly monitor_checks: MonitorChecksTable
  readonly monitor_check_pages: MonitorCheckPagesTable
  readonly monitor_snapshots: MonitorSnapshotsTable
  readonly webhook_outbox: WebhookOutboxTable
}

export type Dialect = "sqlite" | "pg"

const dialects: Record<Dialect, KyselyDialect> = {
  pg: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler()
  },
  sqlite: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler()
  }
}

/** What every resource module gets: the query builder and a way to run what it builds. */
export interface Db {
  readonly dialect: Dialect
  /** Builds and compiles queries only; run them with `execute`. */
  readonly query: Kysely<Database>
  /** Runs a compiled query on the ambient connection; an SQL failure is a defect. */
  readonly execute: <O extends object>(query: Compilable<O>) => Effect.Effect<ReadonlyArray<O>>
  /** Runs `effect` in a transaction (a savepoint when nested). */
  readonly transaction: <A>(effect: Effect.Effect<A>) => Effect.Effect<A>
}

export const makeDb = (dialect: Dialect): Effect.Effect<Db, never, SqlClient.SqlClient> =>
  Effect.map(SqlClient.SqlClient, (sql) => ({
    dialect,
    query: new Kysely<Database>({ dialect: dialects[dialect] }),
    execute: <O extends object>(query: Compilable<O>) => {
      const compiled = query.compile()
      return Effect.orDie(sql.unsafe<O>(compiled.sql, compiled.parameters))
    },
    transaction: (effect) => Effect.orDie(sql.withTransaction(effect))
  }))

/** An integer column: a number (SQLite, PG INTEGER) or a numeric string (PG BIGINT, COUNT, SUM). */
export const DbNumber = Schema.Union(Schema.Number, Schema.NumberFromString)

/** A 0/1 flag column (or a PG boolean, should one appear). */
export const DbBoolean = Schema.transform(Schema.Union(Schema.Number, Schema.Boolean), Schema.Boolean, {
  strict: true,
  decode: (value) => value === true || value === 1,
  encode: (value) => value
})

/** A field of the port's type read from a snake_case column. */
export const column = <K extends string, A, I>(key: K, schema: Schema.Schema<A, I>) =>
  Schema.propertySignature(schema).pipe(Schema.fromKey(key))

/** Decodes result rows; a row that does not match is a bug (a defect), not an expected failure. */
export const decodeRows = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>> => Effect.orDie(decode(rows))
}

/** Decodes the first row, if any. */
export const decodeFirst = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = decodeRows(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<A>> =>
    Effect.map(decode(rows.slice(0, 1)), (decoded) => Option.fromNullable(decoded[0]))
}
