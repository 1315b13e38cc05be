/**
 * The Store contract: what every Store layer must do, run once per layer (SQLite in memory, a
 * SQLite file, Postgres). Tests share one database per layer, so each one makes its own teams
 * and claims only its own job kind; times are explicit `now` values, so nothing waits on a clock.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Store, type StoreService } from "@gleaner/core"
import { Array as Arr, Effect, type Layer, Option } from "effect"
import { browserSessionsContract } from "./browser-sessions-contract.js"
import { browserProfilesContract } from "./browser-profiles-contract.js"
import { makeTeam, T0, uid } from "./contract-fixtures.js"
import { jobsContract } from "./job-contract.js"
import { jobPagesContract } from "./job-pages-contract.js"
import { pagesContract } from "./pages-contract.js"
import { monitorsContract } from "./monitors-contract.js"
import { scheduledRunsContract } from "./scheduled-runs-contract.js"
import { webhooksContract } from "./webhooks-contract.js"

export const storeContract = (name: string, makeLayer: () => Layer.Layer<Store, unknown>) =>
  layer(makeLayer(), { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    describe("teams", () => {
      it.effect("create, get, findByName, list, update", () =>
        Effect.gen(function*() {
          const store = yield* Store
          const team = yield* makeTeam(store, { maxConcurrency: 2, createdAt: T0 + 5 })
          assert.deepStrictEqual(yield* store.teams.get(team.id), Option.some(team))
          assert.deepStrictEqual(yield* store.teams.findByName(team.name), Option.some(team))
          assert.isTrue((yield* store.teams.list()).some((t) => t.id === team.id))
          const updated = yield* store.teams.update(team.id, { plan: "pro", maxConcurrency: 50 })
          assert.deepStrictEqual(updated, Option.some({ ...team, plan: "pro", maxConcurrency: 50 }))
          assert.deepStrictEqual(yield* store.teams.update(team.id, {}), updated)
          assert.deepStrictEqual(yield* store.teams.get(team.id), updated)
          assert.isTrue(Option.isNone(yield* store.teams.get(uid())))
          assert.isTrue(Option.isNone(yield* store.teams.findByName(`missing-${uid()}`)))
          assert.isTrue(Option.isNone(yield* store.teams.update(uid(), { plan: "pro" })))
        }))

      it.effect("a taken name is a ConflictError", () =>
        Effect.gen(function*() {
          const store = yield* Store
          const team = yield* makeTeam(store)
          const error = yield* Effect.flip(makeTeam(store, { name: team.name }))
          assert.strictEqual(error._tag, "ConflictError")
          assert.strictEqual(error.code, "CONFLICT")
          assert.include(error.message, team.name)
        }))
    })

    describe("api keys", () => {
      it.effect("insert, find by hash, list per team, revoke", () =>
        Effect.gen(function*() {
          const store = yield* Store
          const team = yield* makeTeam(store)
          const other = yield* makeTeam(store)
          const hash = uid()
          const key = yield* store.apiKeys.insert({
            id: uid(), teamId: team.id, name: "default", displayPrefix: "fc-3d47", hash, createdAt: T0
          })
          assert.deepStrictEqual(key, {
            id: key.id, teamId: team.id, name: "default", displayPrefix: "fc-3d47", createdAt: T0, revokedAt: null
          })
          const otherKey = yield* store.apiKeys.insert({
            id: uid(), teamId: other.id, name: "ci", displayPrefix: "fc-0000", hash: uid(), createdAt: T0 + 1
          })
          assert.deepStrictEqual(yield* store.apiKeys.findActiveByHash(hash), Option.some({ key, team }))
          assert.isTrue(Option.isNone(yield* store.apiKeys.findActiveByHash(uid())))
          assert.deepStrictEqual(yield* store.apiKeys.list(team.id), [key])
          const all = yield* store.apiKeys.list()
          assert.isTrue(all.some((k) => k.id === key.id) && all.some((k) => k.id === otherKey.id))

          assert.isTrue(yield* store.apiKeys.revoke(key.id, T0 + 10))
          assert.isFalse(yield* store.apiKeys.revoke(key.id, T0 + 20))
          assert.isTrue(Option.isNone(yield* store.apiKeys.findActiveByHash(hash)))
          assert.deepStrictEqual(yield* store.apiKeys.list(team.id), [{ ...key, revokedAt: T0 + 10 }])
        }))
    })

    describe("ledger", () => {
      const entry = (teamId: string, overrides: Partial<Parameters<StoreService["ledger"]["append"]>[0]> = {}) => ({
        id: uid(), teamId, apiKeyId: null, operation: "scrape", jobId: null, credits: 1,
        periodStart: T0, createdAt: T0, idempotencyKey: null, ...overrides
      })

      it.effect("concurrent debits all count in the period total, retried ones once", () =>
        Effect.gen(function*() {
          const store = yield* Store
          const team = yield* makeTeam(store)
          const keys = Array.from({ length: 20 }, () => `idem-${uid()}`)
          yield* Effect.all([...keys, ...keys].map((idempotencyKey) => store.ledger.append(entry(team.id, { credits: 1, idempotencyKey }))), { concurrency: "unbounded" })
          assert.strictEqual(yield* store.ledger.periodTotal(team.id, T0), 20)
        }))

      it.effect("append, idempotency, periodTotal, list", () =>
        Effect.gen(function*() {
          const store = yield* Store
          const team = yield* makeTeam(store)
          assert.strictEqual(yield* store.ledger.periodTotal(team.id, T0), 0)
          const first = entry(team.id, { credits: 5, idempotencyKey: `idem-${uid()}`, jobId: "job-1" })
          assert.isTrue(yield* store.ledger.append(first))
          assert.isFalse(yield* store.ledger.append({ ...entry(team.id, { credits: 99 }), idempotencyKey: first.idempotencyKey }))
          assert.isTrue(yield* store.ledger.append(entry(team.id, { credits: 3, createdAt: T0 + 1 })))
          assert.isTrue(yield* store.ledger.append(entry(team.id, { credits: -2, operation: "grant", createdAt: T0 + 2 })))
          assert.isTrue(yield* store.ledger.append(entry(team.id, { credits: 7, periodStart: T0 + 1000, createdAt: T0 + 3 })))
          assert.strictEqual(yield* store.ledger.periodTotal(team.id, T0), 6)
          assert.strictEqual(yield* store.ledger.periodTotal(team.id, T0 + 1000), 7)

          const listed = yield* store.ledger.list(team.id, {})
          assert.strictEqual(listed.length, 4)
          assert.deepStrictEqual(listed[0], first)
          assert.deepStrictEqual(yield* store.ledger.list(team.id, { jobId: "job-1" }), [first])
          assert.strictEqual(yield* store.ledger.jobTotal(team.id, "job-1"), 5)
          assert.strictEqual(yield* store.ledger.jobTotal((yield* makeTeam(store)).id, "job-1"), 0)
        }))

      it.effect("usageByPeriod, per API key or not, oldest period first", () =>
        Effect.gen(function*() {
          const store = yield* Store
          const team = yield* makeTeam(store)
          const later = T0 + 86_400_000
          yield* Effect.forEach([
            entry(team.id, { periodStart: later, apiKeyId: "key-b", credits: 4 }),
            entry(team.id, { periodStart: T0, apiKeyId: "key-a", credits: 1 }),
            entry(team.id, { periodStart: T0, apiKeyId: "key-a", credits: 2 }),
            entry(team.id, { periodStart: T0, apiKeyId: "key-b", credits: 10 }),
            entry(team.id, { periodStart: T0, apiKeyId: null, credits: -5 })
          ], store.ledger.append)
          assert.deepStrictEqual(yield* store.ledger.usageByPeriod(team.id, { byApiKey: false }), [
            { periodStart: T0, apiKeyId: null, credits: 8 },
            { periodStart: later, apiKeyId: null, credits: 4 }
          ])
          assert.deepStrictEqual(yield* store.ledger.usageByPeriod(team.id, { byApiKey: true }), [
            { periodStart: T0, apiKeyId: null, credits: -5 },
            { periodStart: T0, apiKeyId: "key-a", credits: 3 },
            { periodStart: T0, apiKeyId: "key-b", credits: 10 },
            { periodStart: later, apiKeyId: "key-b", credits: 4 }
          ])
          assert.deepStrictEqual(yield* store.ledger.usageByPeriod(uid(), { byApiKey: true }), [])
        }))
    })

    describe("rate limits", () => {
      it.effect("counts hits per key and window; purge drops old windows", () =>
        Effect.gen(function*() {
          const store = yield* Store
          const key = `rl-${uid()}`
          assert.deepStrictEqual(yield* Effect.forEach([1, 2, 3], () => store.rateLimits.hit(key, T0)), [1, 2, 3])
          assert.strictEqual(yield* store.rateLimits.hit(key, T0 + 60_000), 1)
          assert.strictEqual(yield* store.rateLimits.hit(`${key}-other`, T0), 1)
          const concurrent = yield* Effect.all(Arr.makeBy(10, () => store.rateLimits.hit(key, T0 + 60_000)), {
            concurrency: "unbounded"
          })
          assert.deepStrictEqual([...concurrent].sort((a, b) => a - b), Arr.range(2, 11))
          yield* store.rateLimits.purge(T0 + 60_000)
          assert.strictEqual(yield* store.rateLimits.hit(key, T0), 1)
          assert.strictEqual(yield* store.rateLimits.hit(key, T0 + 60_000), 12)
        }))
    })

    jobsContract(it)
    pagesContract(it)
    jobPagesContract(it)
    webhooksContract(it)
    browserSessionsContract(it)
    browserProfilesContract(it)
    scheduledRunsContract(it)
    monitorsContract(it)
  })
