/**
 * The Store contract on SQLite, in memory and in a real file, plus what only a file shows:
 * the pragmas, the parent directory being created, and data surviving a restart.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Store } from "@gleaner/core"
import { Effect, Layer, Option } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { migrate, SqliteStore, storeLayerFromUrl } from "../src/index.js"
import { migrations } from "../src/migrations.js"
import { storeContract } from "./store-contract.js"
import { workersContract } from "./workers-contract.js"

const directory = mkdtempSync(join(tmpdir(), "gleaner-store-sql-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

storeContract("SqliteStore :memory:", () => SqliteStore.layer({ filename: ":memory:" }))
workersContract("SqliteStore :memory:", () => SqliteStore.layer({ filename: ":memory:" }))
// A parent directory that does not exist yet: the layer creates it.
storeContract("SqliteStore file", () => SqliteStore.layer({ filename: join(directory, "contract", "nested", "gleaner.db") }))
workersContract("SqliteStore file", () => SqliteStore.layer({ filename: join(directory, "workers.db") }))

describe("SqliteStore file database", () => {
  it.live("sets WAL, busy_timeout and foreign_keys", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [journal] = yield* sql<{ journal_mode: string }>`PRAGMA journal_mode`
      const [busy] = yield* sql<{ timeout: number }>`PRAGMA busy_timeout`
      const [foreignKeys] = yield* sql<{ foreign_keys: number }>`PRAGMA foreign_keys`
      assert.deepStrictEqual([journal?.journal_mode, busy?.timeout, foreignKeys?.foreign_keys], ["wal", 5000, 1])
    }).pipe(Effect.provide(SqliteStore.layer({ filename: join(directory, "pragmas.db") }))))

  it.live("keeps data across restarts; migrations apply once", () =>
    Effect.gen(function*() {
      const filename = join(directory, "restart", "gleaner.db")
      assert.deepStrictEqual(yield* migrate(filename), Object.keys(migrations))
      assert.deepStrictEqual(yield* migrate(filename), [])
      const team = { id: "t1", name: "restart", plan: "free", maxConcurrency: 2, createdAt: 1 }
      yield* Effect.flatMap(Store, (store) => store.teams.create(team)).pipe(
        Effect.provide(SqliteStore.layer({ filename }))
      )
      const found = yield* Effect.flatMap(Store, (store) => store.teams.findByName("restart")).pipe(
        Effect.provide(storeLayerFromUrl(filename))
      )
      assert.deepStrictEqual(found, Option.some(team))
      assert.deepStrictEqual(yield* migrate(filename), [])
    }))

  it.live("storeLayerFromUrl opens :memory:", () =>
    Effect.gen(function*() {
      const store = yield* Store
      assert.deepStrictEqual(yield* store.teams.list(), [])
    }).pipe(Effect.provide(Layer.fresh(storeLayerFromUrl(":memory:")))))
})
