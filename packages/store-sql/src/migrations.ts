/**
 * The schema, as numbered migrations run by @effect/sql's Migrator (applied ids are kept in
 * `effect_sql_migrations`). One DDL text serves both dialects; only the epoch-ms type differs
 * (BIGINT on Postgres, INTEGER on SQLite). Flags are INTEGER 0/1 and JSON is TEXT on both, so
 * rows read back alike. Add a change as a new entry ("0002_…"); never edit an applied one.
 */
import { Migrator, SqlClient } from "@effect/sql"
import { Effect } from "effect"

const foundation = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))

  yield* sql`CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    plan TEXT NOT NULL,
    max_concurrency INTEGER NOT NULL,
    created_at ${ms} NOT NULL
  )`

  yield* sql`CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    name TEXT NOT NULL,
    display_prefix TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at ${ms} NOT NULL,
    revoked_at ${ms}
  )`
  yield* sql`CREATE INDEX api_keys_team_idx ON api_keys (team_id)`

  yield* sql`CREATE TABLE ledger (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    api_key_id TEXT,
    operation TEXT NOT NULL,
    job_id TEXT,
    credits ${ms} NOT NULL,
    period_start ${ms} NOT NULL,
    created_at ${ms} NOT NULL,
    idempotency_key TEXT UNIQUE
  )`
  yield* sql`CREATE INDEX ledger_team_period_idx ON ledger (team_id, period_start)`

  yield* sql`CREATE TABLE rate_limits (
    "key" TEXT NOT NULL,
    window_start ${ms} NOT NULL,
    "count" INTEGER NOT NULL,
    PRIMARY KEY ("key", window_start)
  )`
  yield* sql`CREATE INDEX rate_limits_window_idx ON rate_limits (window_start)`

  yield* sql`CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
    priority INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    run_at ${ms} NOT NULL,
    worker_id TEXT,
    lease_expires_at ${ms},
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    error TEXT,
    created_at ${ms} NOT NULL,
    updated_at ${ms} NOT NULL,
    started_at ${ms},
    finished_at ${ms}
  )`
  // Claiming scans runnable jobs by status and time; concurrency checks count a team's running jobs.
  yield* sql`CREATE INDEX jobs_claim_idx ON jobs (status, run_at, priority)`
  yield* sql`CREATE INDEX jobs_team_status_idx ON jobs (team_id, status)`
})

/** Scrape results, the page cache and change-tracking snapshots. */
const scrape = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))

  yield* sql`CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    source_url TEXT NOT NULL,
    document TEXT NOT NULL,
    audit_metadata TEXT,
    created_at ${ms} NOT NULL,
    expires_at ${ms} NOT NULL
  )`
  yield* sql`CREATE INDEX documents_expires_idx ON documents (expires_at)`

  // base64 text keeps one column type for bytes on both dialects
  yield* sql`CREATE TABLE page_cache (
    team_id TEXT NOT NULL REFERENCES teams (id),
    cache_key TEXT NOT NULL,
    url TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    content_type TEXT,
    body TEXT NOT NULL,
    fetched_at ${ms} NOT NULL,
    PRIMARY KEY (team_id, cache_key)
  )`

  yield* sql`CREATE TABLE page_snapshots (
    team_id TEXT NOT NULL REFERENCES teams (id),
    url TEXT NOT NULL,
    tag TEXT NOT NULL,
    markdown TEXT NOT NULL,
    json TEXT,
    scraped_at ${ms} NOT NULL,
    PRIMARY KEY (team_id, url, tag)
  )`
})

/** The pages of crawls and batch scrapes: frontier entries, then results. */
const jobPages = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))

  yield* sql`CREATE TABLE job_pages (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    team_id TEXT NOT NULL,
    page_key TEXT NOT NULL,
    url TEXT NOT NULL,
    depth INTEGER NOT NULL,
    status TEXT NOT NULL,
    document TEXT,
    error TEXT,
    created_at ${ms} NOT NULL,
    finished_at ${ms},
    PRIMARY KEY (job_id, page_key)
  )`
  yield* sql`CREATE INDEX job_pages_status_idx ON job_pages (job_id, status, depth, created_at)`
  yield* sql`CREATE INDEX job_pages_finished_idx ON job_pages (job_id, status, finished_at)`
  yield* sql`CREATE INDEX jobs_created_idx ON jobs (created_at)`
})

/** The webhook outbox and each team's signing secret. */
const webhooks = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))

  yield* sql`CREATE TABLE webhook_outbox (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    url TEXT NOT NULL,
    headers TEXT NOT NULL,
    body TEXT NOT NULL,
    event TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at ${ms} NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    last_error TEXT,
    created_at ${ms} NOT NULL,
    delivered_at ${ms}
  )`
  // Senders look for pending rows by due time; purging looks for old settled ones.
  yield* sql`CREATE INDEX webhook_outbox_due_idx ON webhook_outbox (status, next_attempt_at)`
  yield* sql`CREATE INDEX webhook_outbox_created_idx ON webhook_outbox (created_at)`
  yield* sql`ALTER TABLE teams ADD COLUMN webhook_secret TEXT`
})

/** Idempotency keys a team has used (`x-idempotency-key` on `POST /v2/crawl`); the ledger by job. */
const idempotency = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))
  yield* sql`CREATE TABLE idempotency_keys (
    team_id TEXT NOT NULL REFERENCES teams (id),
    idempotency_key TEXT NOT NULL,
    created_at ${ms} NOT NULL,
    PRIMARY KEY (team_id, idempotency_key)
  )`
  // a job's credits (crawl and batch status) are summed by job
  yield* sql`CREATE INDEX ledger_team_job_idx ON ledger (team_id, job_id)`
})

/**
 * A team's credits per billing period, kept beside the ledger and updated in the same transaction
 * as each entry, so a balance check reads one row instead of summing the period's entries (which
 * grows with every page a team scrapes). Filled from the entries already there.
 */
const creditTotals = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))
  yield* sql`CREATE TABLE credit_totals (
    team_id TEXT NOT NULL REFERENCES teams (id),
    period_start ${ms} NOT NULL,
    credits ${ms} NOT NULL,
    PRIMARY KEY (team_id, period_start)
  )`
  yield* sql`INSERT INTO credit_totals (team_id, period_start, credits)
    SELECT team_id, period_start, SUM(credits) FROM ledger GROUP BY team_id, period_start`
})

/**
 * Browser sessions: one row per session, kept after it ends (listed as `destroyed`). The owner is
 * the process serving it; `seen_at` is its heartbeat, so another process can tell an orphan.
 */
const browserSessions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))
  yield* sql`CREATE TABLE browser_sessions (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    api_key_id TEXT,
    owner_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'destroyed')),
    token_hash TEXT NOT NULL,
    stream_web_view INTEGER NOT NULL,
    ttl_seconds INTEGER NOT NULL,
    activity_ttl_seconds INTEGER NOT NULL,
    created_at ${ms} NOT NULL,
    expires_at ${ms} NOT NULL,
    last_activity_at ${ms} NOT NULL,
    seen_at ${ms} NOT NULL,
    ended_at ${ms},
    credits_billed INTEGER,
    end_reason TEXT
  )`
  yield* sql`CREATE INDEX browser_sessions_team_idx ON browser_sessions (team_id, status, created_at)`
  yield* sql`CREATE INDEX browser_sessions_active_idx ON browser_sessions (status, seen_at)`
})

/** Browser profiles: a team's named browser state and its write lock (holder, expiry). */
const browserProfiles = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))
  yield* sql`CREATE TABLE browser_profiles (
    team_id TEXT NOT NULL REFERENCES teams (id),
    name TEXT NOT NULL,
    state TEXT,
    updated_at ${ms} NOT NULL,
    lock_holder TEXT,
    locked_until ${ms},
    PRIMARY KEY (team_id, name)
  )`
})

/** What a stored scrape replays for scrape-interact (JSON, null for rows stored before). */
const documentReplay = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE documents ADD COLUMN replay TEXT`
})

/**
 * Scheduled runs: one row per (schedule, due instant) a process claimed, so of several processes
 * watching one schedule exactly one fires each run (insert-or-ignore on the primary key).
 */
const scheduledRuns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))
  yield* sql`CREATE TABLE scheduled_runs (
    schedule_key TEXT NOT NULL,
    run_at ${ms} NOT NULL,
    claimer TEXT NOT NULL,
    claimed_at ${ms} NOT NULL,
    PRIMARY KEY (schedule_key, run_at)
  )`
  yield* sql`CREATE INDEX scheduled_runs_run_at_idx ON scheduled_runs (run_at)`
})

/**
 * Monitors, their checks, each check's pages and the snapshots checks compare with. JSON columns
 * (spec, summaries, diffs) are TEXT, decoded by core; deleting a monitor deletes the rest.
 */
const monitors = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ms = sql.literal(sql.onDialectOrElse({ pg: () => "BIGINT", orElse: () => "INTEGER" }))
  yield* sql`CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    api_key_id TEXT,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
    cron TEXT NOT NULL,
    timezone TEXT NOT NULL,
    spec TEXT NOT NULL,
    retention_days INTEGER NOT NULL,
    next_run_at ${ms},
    last_run_at ${ms},
    current_check_id TEXT,
    last_check_summary TEXT,
    created_at ${ms} NOT NULL,
    updated_at ${ms} NOT NULL
  )`
  yield* sql`CREATE INDEX monitors_team_idx ON monitors (team_id, created_at)`
  yield* sql`CREATE INDEX monitors_status_idx ON monitors (status)`

  yield* sql`CREATE TABLE monitor_checks (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
    team_id TEXT NOT NULL,
    status TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    scheduled_for ${ms},
    started_at ${ms},
    finished_at ${ms},
    estimated_credits INTEGER,
    reserved_credits INTEGER,
    actual_credits INTEGER,
    billing_status TEXT NOT NULL,
    summary TEXT NOT NULL,
    target_results TEXT NOT NULL,
    notification_status TEXT,
    error TEXT,
    created_at ${ms} NOT NULL,
    updated_at ${ms} NOT NULL
  )`
  yield* sql`CREATE INDEX monitor_checks_monitor_idx ON monitor_checks (monitor_id, created_at)`

  yield* sql`CREATE TABLE monitor_check_pages (
    id TEXT PRIMARY KEY,
    check_id TEXT NOT NULL REFERENCES monitor_checks (id) ON DELETE CASCADE,
    monitor_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    url TEXT NOT NULL,
    status TEXT NOT NULL,
    previous_scrape_id TEXT,
    current_scrape_id TEXT,
    status_code INTEGER,
    error TEXT,
    metadata TEXT,
    judgment TEXT,
    diff TEXT,
    snapshot TEXT,
    created_at ${ms} NOT NULL,
    UNIQUE (check_id, url)
  )`
  yield* sql`CREATE INDEX monitor_check_pages_order_idx ON monitor_check_pages (check_id, created_at, id)`

  yield* sql`CREATE TABLE monitor_snapshots (
    monitor_id TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    team_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    markdown TEXT NOT NULL,
    json TEXT,
    scrape_id TEXT NOT NULL,
    scraped_at ${ms} NOT NULL,
    PRIMARY KEY (monitor_id, url)
  )`
  yield* sql`CREATE INDEX monitor_snapshots_target_idx ON monitor_snapshots (monitor_id, target_id)`
})

/** Every migration, keyed `NNNN_name`; the number is the id the Migrator records. */
export const migrations = {
  "0001_foundation": foundation,
  "0002_scrape": scrape,
  "0003_job_pages": jobPages,
  "0004_webhooks": webhooks,
  "0005_idempotency": idempotency,
  "0006_credit_totals": creditTotals,
  "0007_browser_sessions": browserSessions,
  "0008_document_replay": documentReplay,
  "0009_browser_profiles": browserProfiles,
  "0010_scheduled_runs": scheduledRuns,
  "0011_monitors": monitors
} as const

export const migrationsLoader: Migrator.Loader = Migrator.fromRecord(migrations)

/** `[1, "foundation"]` → `"0001_foundation"`, the key it was declared under. */
export const migrationName = ([id, name]: readonly [id: number, name: string]): string =>
  `${String(id).padStart(4, "0")}_${name}`
