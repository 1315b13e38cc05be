/**
 * @gleaner/store-sql — the Store port on SQL: SQLite (embedded, the default) and Postgres from one
 * query code base. @effect/sql owns connections, transactions and migrations; Kysely only types and
 * compiles the queries. Pick a layer with `storeLayerFromUrl`, or use `SqliteStore` /
 * `PostgresStore` directly.
 */
export {
  migrate,
  PostgresStore,
  type PostgresStoreOptions,
  SqliteStore,
  type SqliteStoreOptions,
  type StoreLayerError,
  storeLayerFromUrl
} from "./layers.js"
export { DEFAULT_MAX_ATTEMPTS } from "./jobs.js"
export { abandonedJobError } from "./job-claim.js"
