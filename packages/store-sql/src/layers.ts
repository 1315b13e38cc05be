/**
 * The Store layers: connect (@effect/sql owns the connection or pool), apply migrations, then
 * provide the Store built on that connection. `storeLayerFromUrl` picks the dialect from the URL;
 * `migrate` applies migrations alone, for `gleaner migrate`. Each call builds a new layer (and a
 * new connection), so build one per process and reuse it.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { FileSystem, Path } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { type Migrator, SqlClient, SqlError } from "@effect/sql"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-node"
import { Store } from "@gleaner/core"
import { Context, Effect, Layer, Redacted } from "effect"
import { makeApiKeys } from "./api-keys.js"
import { makeBrowserSessions } from "./browser-sessions.js"
import { type Dialect, makeDb } from "./database.js"
import { makeIdempotencyKeys } from "./idempotency.js"
import { makeBrowserProfiles } from "./browser-profiles.js"
import { makeJobPages } from "./job-pages.js"
import { makeJobs } from "./jobs.js"
import { makeLedger } from "./ledger.js"
import { makeMonitorChecks, makeMonitors, makeMonitorSnapshots } from "./monitors.js"
import { makeDocuments, makePageCache, makeSnapshots } from "./pages.js"
import { migrationName, migrationsLoader } from "./migrations.js"
import { makeRateLimits } from "./rate-limits.js"
import { makeScheduledRuns } from "./scheduled-runs.js"
import { makeTeams } from "./teams.js"
import { makeWebhooks } from "./webhooks.js"

/** Why a Store layer could not start: the database is unreachable or a migration failed. */
export type StoreLayerError = SqlError.SqlError | Migrator.MigrationError

const storeOn = (dialect: Dialect): Layer.Layer<Store, never, SqlClient.SqlClient> =>
  Layer.effect(
    Store,
    Effect.map(makeDb(dialect), (db) =>
      Store.of({
        teams: makeTeams(db),
        apiKeys: makeApiKeys(db),
        ledger: makeLedger(db),
        rateLimits: makeRateLimits(db),
        jobs: makeJobs(db),
        jobPages: makeJobPages(db),
        idempotencyKeys: makeIdempotencyKeys(db),
        browserProfiles: makeBrowserProfiles(db),
        scheduledRuns: makeScheduledRuns(db),
        monitors: makeMonitors(db),
        monitorChecks: makeMonitorChecks(db),
        monitorSnapshots: makeMonitorSnapshots(db),
        documents: makeDocuments(db),
        pageCache: makePageCache(db),
        snapshots: makeSnapshots(db),
        webhooks: makeWebhooks(db),
        browserSessions: makeBrowserSessions(db)
      }))
  )

// --- SQLite ---------------------------------------------------------------------------------

const isFile = (filename: string) => filename !== ":memory:" && filename !== ""

const ensureParentDirectory = (filename: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const directory = path.dirname(path.resolve(filename))
    yield* Effect.mapError(
      fs.makeDirectory(directory, { recursive: true }),
      (cause) => new SqlError.SqlError({ cause, message: `Cannot create the directory ${directory} for the SQLite database` })
    )
  })

const sqliteClient = (filename: string) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      if (isFile(filename)) yield* ensureParentDirectory(filename)
      // SqliteClient switches file databases to WAL itself.
      const client = yield* SqliteClient.make({ filename })
      // Other processes may hold the write lock for a moment: wait rather than fail.
      yield* client`PRAGMA busy_timeout = 5000`
      yield* client`PRAGMA foreign_keys = ON`
      // In WAL mode NORMAL syncs at checkpoints, not on every commit: a killed process loses
      // nothing (the WAL is intact), a power cut may lose the last commits; FULL's fsync per
      // commit would cap a crawl at the disk's sync rate.
      yield* client`PRAGMA synchronous = NORMAL`
      return Context.make(SqliteClient.SqliteClient, client).pipe(Context.add(SqlClient.SqlClient, client))
    })
  ).pipe(Layer.provide(Reactivity.layer))

const sqliteMigrations = SqliteMigrator.run({ loader: migrationsLoader })

export interface SqliteStoreOptions {
  /** Path of the database file (its directory is created if missing), or `:memory:`. */
  readonly filename: string
}

export const SqliteStore = {
  layer: (options: SqliteStoreOptions): Layer.Layer<Store | SqlClient.SqlClient, StoreLayerError> =>
    storeOn("sqlite").pipe(
      Layer.provide(Layer.effectDiscard(sqliteMigrations)),
      Layer.provideMerge(sqliteClient(options.filename)),
      Layer.provide(NodeContext.layer)
    )
} as const

// --- Postgres -------------------------------------------------------------------------------

const pgClient = (url: string) =>
  Layer.scopedContext(
    Effect.map(
      PgClient.make({ url: Redacted.make(url), applicationName: "gleaner" }),
      (client) => Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClient.SqlClient, client))
    )
  ).pipe(Layer.provide(Reactivity.layer))

/**
 * The Migrator locks its table while it runs, but creates that table first, outside its
 * transaction: two processes booting on an empty database would both try to create it, and one
 * would fail. So the whole run takes a transaction-scoped advisory lock, and the table is created
 * (IF NOT EXISTS, with the Migrator's own definition) under that lock.
 */
const pgMigrations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('gleaner.migrations'))`
      yield* sql`CREATE TABLE IF NOT EXISTS effect_sql_migrations (
        migration_id integer primary key,
        created_at timestamp with time zone not null default now(),
        name text not null
      )`
      return yield* PgMigrator.run({ loader: migrationsLoader })
    })
  )
})

export interface PostgresStoreOptions {
  /** A `postgres://` or `postgresql://` connection URL (it may carry the password). */
  readonly url: string
}

export const PostgresStore = {
  layer: (options: PostgresStoreOptions): Layer.Layer<Store | SqlClient.SqlClient, StoreLayerError> =>
    storeOn("pg").pipe(
      Layer.provide(Layer.effectDiscard(pgMigrations)),
      Layer.provideMerge(pgClient(options.url)),
      Layer.provide(NodeContext.layer)
    )
} as const

// --- By URL ---------------------------------------------------------------------------------

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url)

/** `postgres://…` or `postgresql://…` → Postgres; anything else is a SQLite file path or `:memory:`. */
export const storeLayerFromUrl = (url: string): Layer.Layer<Store | SqlClient.SqlClient, StoreLayerError> =>
  isPostgresUrl(url) ? PostgresStore.layer({ url }) : SqliteStore.layer({ filename: url })

/** Applies pending migrations to the database at `url`; the names of those applied (`0001_foundation`). */
export const migrate = (url: string): Effect.Effect<ReadonlyArray<string>, StoreLayerError> => {
  const applied = isPostgresUrl(url)
    ? Effect.provide(pgMigrations, pgClient(url))
    : Effect.provide(sqliteMigrations, sqliteClient(url))
  return applied.pipe(
    Effect.map((migrations) => migrations.map(migrationName)),
    Effect.provide(NodeContext.layer)
  )
}
