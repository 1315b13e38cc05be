/**
 * The Store contract on Postgres. Each run creates a fresh, uniquely named database through an
 * admin connection to GLEANER_TEST_POSTGRES_URL, runs the suite against it and drops it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Store } from "@gleaner/core"
import { Array as Arr, Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { migrate, PostgresStore } from "../src/index.js"
import { freshPostgresStore, scopedDatabase } from "./postgres-fixtures.js"
import { migrations } from "../src/migrations.js"
import { storeContract } from "./store-contract.js"
import { workersContract } from "./workers-contract.js"

const url = process.env["GLEANER_TEST_POSTGRES_URL"]

if (!url && process.env["CI"]) {
  throw new Error("CI must run the Postgres suites: set GLEANER_TEST_POSTGRES_URL (.ci/run does)")
}
if (!url) {
  console.warn(
    "\n*** Postgres Store suite SKIPPED: GLEANER_TEST_POSTGRES_URL is not set. ***\n" +
      "*** Run it with e.g. GLEANER_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres ***\n" +
      "*** (a role allowed to CREATE DATABASE; each run uses and drops its own database). ***\n"
  )
}

// Without a server to talk to, the suite cannot run; SQLite's run still covers the contract.
describe.skipIf(!url)("PostgresStore", () => {
  const adminUrl = url ?? ""

  storeContract("PostgresStore", () => freshPostgresStore(adminUrl))
  workersContract("PostgresStore", () => freshPostgresStore(adminUrl))

  it.live("processes starting together apply each migration once", () =>
    Effect.scoped(Effect.gen(function*() {
      const db = yield* scopedDatabase(adminUrl)
      const runs = yield* Effect.all(Arr.makeBy(4, () => migrate(db.url)), { concurrency: "unbounded" })
      assert.deepStrictEqual([...runs].map((applied) => applied.join(",")).sort(), ["", "", "", Object.keys(migrations).join(",")])
    })), 30_000)

  it.live("two processes starting together on one database never claim a job twice", () =>
    Effect.scoped(Effect.gen(function*() {
      const db = yield* scopedDatabase(adminUrl)
      const stores = yield* Effect.all(
        [1, 2].map(() => Effect.map(Layer.build(PostgresStore.layer({ url: db.url })), Context.get(Store))),
        { concurrency: "unbounded" }
      )
      const [first] = stores
      const team = { id: randomUUID(), name: "shared", plan: "free", maxConcurrency: 100, createdAt: 0 }
      yield* first!.teams.create(team)
      const ids = yield* Effect.forEach(Arr.range(1, 60), (i) =>
        Effect.map(first!.jobs.enqueue({ id: randomUUID(), teamId: team.id, kind: "k", payload: "{}", runAt: 0, createdAt: i }), (j) => j.id))
      const claimed = yield* Effect.all(
        Arr.makeBy(8, (w) => Effect.gen(function*() {
          const store = stores[w % 2]!
          const mine: Array<string> = []
          for (;;) {
            const batch = yield* store.jobs.claim({ workerId: `w${w}`, now: 1, leaseMs: 60_000, limit: 2, kinds: ["k"] })
            if (batch.length === 0 && (yield* store.jobs.counts(team.id)).queued === 0) return mine
            mine.push(...batch.map((job) => job.id))
          }
        })),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(claimed.flat().sort(), [...ids].sort())
    })), 30_000)
})
