/**
 * The webhook half of the Store contract: the outbox (enqueue, claim with a lease, settle,
 * retry, purge) and the teams' signing secrets. The outbox is shared by every team, so each test
 * settles the deliveries it made before it ends, and reads only its own team's rows.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Store, type StoreService, type WebhookDelivery } from "@gleaner/core"
import { Array as Arr, Effect, Option } from "effect"
import { makeTeam, T0, uid } from "./contract-fixtures.js"

const LEASE = 60_000

const enqueueFor = (store: StoreService, teamId: string, createdAt: number, event = "crawl.page") =>
  store.webhooks.enqueue({
    id: uid(),
    teamId,
    url: "https://hooks.example.test/in",
    headers: { "X-Token": "abc", "x-other": "1" },
    body: `{"success":true,"type":"${event}","data":["é"]}`,
    event,
    createdAt
  })

/** Claims everything due at `now` and keeps only `teamId`'s deliveries. */
const dueFor = (store: StoreService, teamId: string, now: number, limit = 1000) =>
  Effect.map(store.webhooks.due(now, limit, LEASE), (rows) => rows.filter((d) => d.teamId === teamId))

/** Leaves no pending row behind for the next test to claim. */
const settleAll = (store: StoreService, deliveries: ReadonlyArray<WebhookDelivery>) =>
  Effect.forEach(deliveries, (d) => store.webhooks.markFailed(d.id, { error: "test over", retryAt: null }), { discard: true })

export const webhooksContract = (it: Vitest.MethodsNonLive<Store, true>) =>
  describe("webhooks", () => {
    it.effect("enqueue and get; another team's id is absent", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const other = yield* makeTeam(store)
        const delivery = yield* enqueueFor(store, team.id, T0)
        assert.deepStrictEqual(delivery, {
          id: delivery.id, teamId: team.id, url: "https://hooks.example.test/in", headers: { "X-Token": "abc", "x-other": "1" },
          body: `{"success":true,"type":"crawl.page","data":["é"]}`, event: "crawl.page", attempts: 0, nextAttemptAt: T0,
          status: "pending", lastError: null, createdAt: T0, deliveredAt: null
        })
        assert.deepStrictEqual(yield* store.webhooks.get(team.id, delivery.id), Option.some(delivery))
        assert.isTrue(Option.isNone(yield* store.webhooks.get(other.id, delivery.id)))
        yield* settleAll(store, [delivery])
      }))

    it.effect("due claims what is due, oldest first, counting the attempt and leasing it", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const now = T0 + 1_000_000
        const second = yield* enqueueFor(store, team.id, now - 10)
        const first = yield* enqueueFor(store, team.id, now - 20)
        const later = yield* enqueueFor(store, team.id, now + 5_000)
        assert.deepStrictEqual(yield* store.webhooks.due(now, 0, LEASE), [])

        const claimed = yield* dueFor(store, team.id, now)
        assert.deepStrictEqual(claimed.map((d) => d.id), [first.id, second.id])
        assert.deepStrictEqual(claimed.map((d) => [d.attempts, d.nextAttemptAt, d.status]), [[1, now + LEASE, "pending"], [1, now + LEASE, "pending"]])
        // leased: nobody else gets them until the lease ends; the later one comes when due
        assert.deepStrictEqual((yield* dueFor(store, team.id, now + 5_000)).map((d) => d.id), [later.id])
        const reclaimed = yield* dueFor(store, team.id, now + LEASE)
        assert.deepStrictEqual(reclaimed.map((d) => [d.id, d.attempts]), [[first.id, 2], [second.id, 2]])
        yield* settleAll(store, [first, second, later])
      }))

    it.effect("delivered and failed are final; a failure with retryAt is due again then", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const now = T0 + 2_000_000
        const ok = yield* enqueueFor(store, team.id, now)
        const retried = yield* enqueueFor(store, team.id, now)
        const failed = yield* enqueueFor(store, team.id, now)
        assert.lengthOf(yield* dueFor(store, team.id, now), 3)

        assert.isTrue(yield* store.webhooks.markDelivered(ok.id, now + 1))
        assert.isTrue(yield* store.webhooks.markFailed(retried.id, { error: "HTTP 500", retryAt: now + 100 }))
        assert.isTrue(yield* store.webhooks.markFailed(failed.id, { error: "refused", retryAt: null }))
        assert.isFalse(yield* store.webhooks.markDelivered(failed.id, now + 2))
        assert.isFalse(yield* store.webhooks.markFailed(ok.id, { error: "late", retryAt: null }))

        const get = (id: string) => Effect.map(store.webhooks.get(team.id, id), Option.getOrThrow)
        assert.deepStrictEqual(
          [yield* get(ok.id), yield* get(retried.id), yield* get(failed.id)].map((d) => [d.status, d.lastError, d.deliveredAt, d.attempts]),
          [["delivered", null, now + 1, 1], ["pending", "HTTP 500", null, 1], ["failed", "refused", null, 1]]
        )
        assert.deepStrictEqual(yield* dueFor(store, team.id, now + 99), [])
        const again = yield* dueFor(store, team.id, now + 100)
        assert.deepStrictEqual(again.map((d) => [d.id, d.attempts, d.lastError]), [[retried.id, 2, "HTTP 500"]])
        assert.isTrue(yield* store.webhooks.markDelivered(retried.id, now + 101))
        assert.strictEqual((yield* get(retried.id)).lastError, null)
      }))

    it.effect("concurrent claimers never get the same delivery", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const now = T0 + 3_000_000
        const ids = yield* Effect.forEach(Arr.range(1, 30), (i) => Effect.map(enqueueFor(store, team.id, now - i), (d) => d.id))
        const claimed = yield* Effect.all(
          Arr.makeBy(8, () => Effect.gen(function*() {
            const mine: Array<WebhookDelivery> = []
            for (;;) {
              const batch = yield* store.webhooks.due(now, 3, LEASE)
              if (batch.length === 0) return mine
              mine.push(...batch)
            }
          })),
          { concurrency: "unbounded" }
        )
        const own = claimed.flat().filter((d) => d.teamId === team.id)
        assert.deepStrictEqual(own.map((d) => d.id).sort(), [...ids].sort())
        yield* settleAll(store, own)
      }))

    it.effect("purgeSettled deletes old delivered and failed deliveries only", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const old = T0 + 4_000_000
        const delivered = yield* enqueueFor(store, team.id, old)
        const failed = yield* enqueueFor(store, team.id, old)
        const pending = yield* enqueueFor(store, team.id, old + 10_000_000)
        const recent = yield* enqueueFor(store, team.id, old + 10)
        yield* store.webhooks.markDelivered(delivered.id, old)
        yield* store.webhooks.markFailed(failed.id, { error: "x", retryAt: null })
        yield* store.webhooks.markDelivered(recent.id, old + 10)
        assert.isAtLeast(yield* store.webhooks.purgeSettled(old + 5), 2)
        const exists = (id: string) => Effect.map(store.webhooks.get(team.id, id), Option.isSome)
        assert.deepStrictEqual(
          [yield* exists(delivered.id), yield* exists(failed.id), yield* exists(pending.id), yield* exists(recent.id)],
          [false, false, true, true]
        )
        yield* settleAll(store, [pending])
      }))

    it.effect("a team's secret is made once, kept, and replaced on rotation", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        assert.deepStrictEqual(yield* store.webhooks.teamSecret(team.id, "first"), Option.some("first"))
        assert.deepStrictEqual(yield* store.webhooks.teamSecret(team.id, "second"), Option.some("first"))
        // concurrent first uses agree on one secret
        const fresh = yield* makeTeam(store)
        const seen = yield* Effect.all(Arr.makeBy(6, (i) => store.webhooks.teamSecret(fresh.id, `s${i}`)), { concurrency: "unbounded" })
        assert.strictEqual(new Set(seen.map(Option.getOrThrow)).size, 1)
        assert.isTrue(yield* store.webhooks.setTeamSecret(team.id, "rotated"))
        assert.deepStrictEqual(yield* store.webhooks.teamSecret(team.id, "third"), Option.some("rotated"))
        assert.isFalse(yield* store.webhooks.setTeamSecret(uid(), "x"))
        assert.isTrue(Option.isNone(yield* store.webhooks.teamSecret(uid(), "x")))
        // the team itself reads as before
        assert.deepStrictEqual(yield* store.teams.get(team.id), Option.some(team))
      }))
  })
