/**
 * The job-queue half of the Store contract: ordering, leases, settling, cancellation and, above
 * all, claiming under concurrency (no job twice, no team over its limit). Called by
 * `storeContract` inside its layer, so it runs against every Store layer.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { InternalError, Store } from "@gleaner/core"
import { Array as Arr, Effect, Option, Schema } from "effect"
import { abandonedJobError } from "../src/index.js"
import { claimAt, enqueue, LEASE_MS, makeTeam, T0, uid } from "./contract-fixtures.js"

export const jobsContract = (it: Vitest.MethodsNonLive<Store, true>) =>
  describe("jobs", () => {
    it.effect("enqueue and get; another team's id is absent", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const other = yield* makeTeam(store)
        const job = yield* enqueue(store, team.id, "scrape", { runAt: T0 + 5 })
        assert.deepStrictEqual(job, {
          id: job.id, teamId: team.id, kind: "scrape", payload: `{"n":1}`, status: "queued", priority: 0,
          attempts: 0, maxAttempts: 3, runAt: T0 + 5, workerId: null, leaseExpiresAt: null,
          cancelRequested: false, result: null, error: null, createdAt: T0, updatedAt: T0, startedAt: null,
          finishedAt: null
        })
        assert.deepStrictEqual(yield* store.jobs.get(team.id, job.id), Option.some(job))
        assert.isTrue(Option.isNone(yield* store.jobs.get(other.id, job.id)))
        assert.isTrue(Option.isNone(yield* store.jobs.get(team.id, uid())))
      }))

    it.effect("claims by priority, then runAt, then age; not before runAt; only the asked kinds", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const kind = `k-${uid()}`
        const low = yield* enqueue(store, team.id, kind, { priority: 0, runAt: T0 })
        const highLate = yield* enqueue(store, team.id, kind, { priority: 5, runAt: T0 + 10, createdAt: T0 - 10 })
        const highEarly = yield* enqueue(store, team.id, kind, { priority: 5, runAt: T0, createdAt: T0 + 1 })
        const highEarlyOlder = yield* enqueue(store, team.id, kind, { priority: 5, runAt: T0, createdAt: T0 })
        const future = yield* enqueue(store, team.id, kind, { priority: 9, runAt: T0 + 60_000 })
        yield* enqueue(store, team.id, `${kind}-other`, { priority: 9 })

        assert.deepStrictEqual(yield* store.jobs.claim({ workerId: "w", now: T0 + 100, leaseMs: 1, limit: 0 }), [])
        assert.deepStrictEqual(yield* store.jobs.claim({ workerId: "w", now: T0 + 100, leaseMs: 1, limit: 5, kinds: [] }), [])
        const claimed = yield* claimAt(store, kind, T0 + 100, { workerId: "w1" })
        assert.deepStrictEqual(claimed.map((j) => j.id), [highEarlyOlder.id, highEarly.id, highLate.id, low.id])
        const first = claimed[0]!
        assert.strictEqual(first.status, "running")
        assert.strictEqual(first.workerId, "w1")
        assert.strictEqual(first.attempts, 1)
        assert.strictEqual(first.leaseExpiresAt, T0 + 100 + LEASE_MS)
        assert.strictEqual(first.startedAt, T0 + 100)
        assert.strictEqual(first.updatedAt, T0 + 100)
        assert.deepStrictEqual(yield* claimAt(store, kind, T0 + 200), [])
        const [due] = yield* claimAt(store, kind, T0 + 60_000)
        assert.strictEqual(due?.id, future.id)
      }))

    it.effect("a team gets no more running jobs than its maxConcurrency; other teams fill the batch", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const busy = yield* makeTeam(store, { maxConcurrency: 2 })
        const quiet = yield* makeTeam(store, { maxConcurrency: 5 })
        const kind = `k-${uid()}`
        yield* Effect.forEach(Arr.range(1, 6), () => enqueue(store, busy.id, kind, { priority: 10 }))
        yield* Effect.forEach(Arr.range(1, 3), () => enqueue(store, quiet.id, kind))
        const claimed = yield* claimAt(store, kind, T0, { limit: 4 })
        assert.deepStrictEqual(claimed.map((j) => j.teamId), [busy.id, busy.id, quiet.id, quiet.id])
        const more = yield* claimAt(store, kind, T0, { limit: 10 })
        assert.deepStrictEqual(more.map((j) => j.teamId), [quiet.id])
        assert.deepStrictEqual(yield* store.jobs.counts(busy.id), { queued: 4, running: 2 })
        // A slot frees up when a job settles.
        assert.isTrue(yield* store.jobs.complete(claimed[0]!.id, "w1", "{}", T0 + 1))
        assert.deepStrictEqual((yield* claimAt(store, kind, T0 + 1)).map((j) => j.teamId), [busy.id])
      }))

    it.effect("8 concurrent claimers over 200 jobs: each job claimed and completed exactly once", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const teams = yield* Effect.forEach(Arr.range(1, 4), () => makeTeam(store, { maxConcurrency: 1000 }))
        const kind = `k-${uid()}`
        const jobs = yield* Effect.forEach(
          Arr.range(0, 199),
          (i) => enqueue(store, teams[i % 4]!.id, kind, { priority: i % 3, createdAt: T0 + i }),
          { concurrency: 8 }
        )
        const claims = new Map<string, number>()
        const completions = new Map<string, number>()
        let settled = 0
        const claimer = (workerId: string) =>
          Effect.gen(function*() {
            while (settled < jobs.length) {
              const batch = yield* claimAt(store, kind, T0 + 1000, { workerId, limit: 3 })
              if (batch.length === 0) yield* Effect.sleep("1 millis")
              for (const job of batch) {
                claims.set(job.id, (claims.get(job.id) ?? 0) + 1)
                if (yield* store.jobs.complete(job.id, workerId, `{"by":"${workerId}"}`, T0 + 2000)) {
                  completions.set(job.id, (completions.get(job.id) ?? 0) + 1)
                }
                settled++
              }
            }
          })
        yield* Effect.all(Arr.makeBy(8, (w) => claimer(`w${w}`)), { concurrency: "unbounded", discard: true })
        assert.strictEqual(settled, jobs.length)
        for (const job of jobs) {
          assert.strictEqual(claims.get(job.id), 1, `job ${job.id} claims`)
          assert.strictEqual(completions.get(job.id), 1, `job ${job.id} completions`)
          assert.strictEqual(Option.getOrThrow(yield* store.jobs.get(job.teamId, job.id)).status, "completed")
        }
      }))

    it.effect("per-team concurrency holds under concurrent claimers", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const limits = [1, 2, 3]
        const teams = yield* Effect.forEach(limits, (maxConcurrency) => makeTeam(store, { maxConcurrency }))
        const kind = `k-${uid()}`
        const total = teams.length * 15
        yield* Effect.forEach(Arr.range(0, total - 1), (i) => enqueue(store, teams[i % 3]!.id, kind), {
          concurrency: 8
        })
        const inFlight = new Map<string, number>()
        const peak = new Map<string, number>()
        let done = 0
        let overLimitSeen = 0
        const claimer = (workerId: string) =>
          Effect.gen(function*() {
            while (done < total) {
              const batch = yield* claimAt(store, kind, T0, { workerId, limit: 2 })
              // Count before anything settles: this can only under-count the database.
              for (const job of batch) {
                const n = (inFlight.get(job.teamId) ?? 0) + 1
                inFlight.set(job.teamId, n)
                peak.set(job.teamId, Math.max(peak.get(job.teamId) ?? 0, n))
              }
              for (const team of teams) {
                const { running } = yield* store.jobs.counts(team.id)
                if (running > team.maxConcurrency) overLimitSeen++
              }
              yield* Effect.sleep(batch.length === 0 ? "1 millis" : "3 millis")
              for (const job of batch) {
                inFlight.set(job.teamId, (inFlight.get(job.teamId) ?? 0) - 1)
                assert.isTrue(yield* store.jobs.complete(job.id, workerId, "{}", T0))
                done++
              }
            }
          })
        yield* Effect.all(Arr.makeBy(8, (w) => claimer(`w${w}`)), { concurrency: "unbounded", discard: true })
        assert.strictEqual(overLimitSeen, 0)
        for (const team of teams) {
          assert.isAtMost(peak.get(team.id) ?? 0, team.maxConcurrency, `team with limit ${team.maxConcurrency}`)
          assert.isAtLeast(peak.get(team.id) ?? 0, 1)
        }
      }))

    it.effect("an expired lease goes to another worker; the first can no longer settle it", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const kind = `k-${uid()}`
        const job = yield* enqueue(store, team.id, kind)
        assert.strictEqual((yield* claimAt(store, kind, T0, { workerId: "w1" })).length, 1)
        // Renewed in time: still w1's after the first lease would have ended.
        assert.deepStrictEqual(yield* store.jobs.heartbeat(job.id, "w1", T0 + LEASE_MS - 1, LEASE_MS), {
          owned: true, cancelRequested: false
        })
        assert.deepStrictEqual(yield* claimAt(store, kind, T0 + LEASE_MS + 1, { workerId: "w2" }), [])
        const expiry = T0 + 2 * LEASE_MS
        const [taken] = yield* claimAt(store, kind, expiry, { workerId: "w2" })
        assert.strictEqual(taken?.id, job.id)
        assert.strictEqual(taken?.workerId, "w2")
        assert.strictEqual(taken?.attempts, 2)
        assert.strictEqual(taken?.startedAt, T0)
        assert.isFalse(yield* store.jobs.complete(job.id, "w1", "{}", expiry + 1))
        assert.deepStrictEqual(yield* store.jobs.heartbeat(job.id, "w1", expiry + 1, LEASE_MS), {
          owned: false, cancelRequested: false
        })
        assert.isFalse(yield* store.jobs.fail(job.id, "w1", { error: "{}", retryAt: null }, expiry + 1))
        assert.isTrue(yield* store.jobs.complete(job.id, "w2", `{"ok":true}`, expiry + 2))
        assert.isFalse(yield* store.jobs.complete(job.id, "w2", `{"ok":true}`, expiry + 3))
        const done = Option.getOrThrow(yield* store.jobs.get(team.id, job.id))
        assert.strictEqual(done.status, "completed")
        assert.strictEqual(done.result, `{"ok":true}`)
        assert.strictEqual(done.finishedAt, expiry + 2)
        assert.strictEqual(done.leaseExpiresAt, null)
      }))

    it.effect("a job whose worker died too often fails instead of being handed out", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const kind = `k-${uid()}`
        const job = yield* enqueue(store, team.id, kind, { maxAttempts: 2 })
        yield* claimAt(store, kind, T0, { workerId: "w1" })
        yield* claimAt(store, kind, T0 + LEASE_MS + 1, { workerId: "w2" })
        const later = T0 + 3 * LEASE_MS
        assert.deepStrictEqual(yield* claimAt(store, kind, later, { workerId: "w3" }), [])
        const failed = Option.getOrThrow(yield* store.jobs.get(team.id, job.id))
        assert.strictEqual(failed.status, "failed")
        assert.strictEqual(failed.attempts, 2)
        assert.strictEqual(failed.finishedAt, later)
        assert.strictEqual(failed.error, abandonedJobError)
        assert.strictEqual(
          failed.error,
          `{"_tag":"InternalError","code":"UNKNOWN_ERROR","message":"The job's worker stopped responding too many times"}`
        )
        const decoded = Schema.decodeUnknownSync(Schema.parseJson(InternalError))(failed.error)
        assert.strictEqual(decoded.code, "UNKNOWN_ERROR")
        assert.isFalse(yield* store.jobs.complete(job.id, "w2", "{}", later))
      }))

    it.effect("a cancelled job whose worker died is cancelled, not run again", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const kind = `k-${uid()}`
        const job = yield* enqueue(store, team.id, kind)
        yield* claimAt(store, kind, T0)
        yield* store.jobs.cancel(team.id, job.id, T0 + 1)
        assert.deepStrictEqual(yield* claimAt(store, kind, T0 + LEASE_MS + 1, { workerId: "w2" }), [])
        const cancelled = Option.getOrThrow(yield* store.jobs.get(team.id, job.id))
        assert.strictEqual(cancelled.status, "cancelled")
        assert.strictEqual(cancelled.finishedAt, T0 + LEASE_MS + 1)
      }))

    it.effect("fail with retryAt re-queues at that time; without, fails for good", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const kind = `k-${uid()}`
        const job = yield* enqueue(store, team.id, kind)
        yield* claimAt(store, kind, T0)
        const retryAt = T0 + 5_000
        assert.isTrue(yield* store.jobs.fail(job.id, "w1", { error: `{"e":1}`, retryAt }, T0 + 10))
        const queued = Option.getOrThrow(yield* store.jobs.get(team.id, job.id))
        assert.deepStrictEqual(
          [queued.status, queued.runAt, queued.workerId, queued.leaseExpiresAt, queued.error, queued.attempts],
          ["queued", retryAt, null, null, `{"e":1}`, 1]
        )
        assert.isFalse(yield* store.jobs.complete(job.id, "w1", "{}", T0 + 11))
        assert.deepStrictEqual(yield* claimAt(store, kind, retryAt - 1), [])
        const [again] = yield* claimAt(store, kind, retryAt, { workerId: "w2" })
        assert.strictEqual(again?.attempts, 2)
        assert.isTrue(yield* store.jobs.fail(job.id, "w2", { error: `{"e":2}`, retryAt: null }, retryAt + 1))
        const failed = Option.getOrThrow(yield* store.jobs.get(team.id, job.id))
        assert.deepStrictEqual([failed.status, failed.error, failed.finishedAt], ["failed", `{"e":2}`, retryAt + 1])
        assert.deepStrictEqual(yield* claimAt(store, kind, retryAt + 10_000_000), [])
      }))

    it.effect("release gives the job back without counting the attempt", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const kind = `k-${uid()}`
        const job = yield* enqueue(store, team.id, kind)
        yield* claimAt(store, kind, T0)
        assert.isFalse(yield* store.jobs.release(job.id, "w2", T0 + 1))
        assert.isTrue(yield* store.jobs.release(job.id, "w1", T0 + 1))
        const released = Option.getOrThrow(yield* store.jobs.get(team.id, job.id))
        assert.deepStrictEqual(
          [released.status, released.attempts, released.workerId, released.leaseExpiresAt, released.updatedAt],
          ["queued", 0, null, null, T0 + 1]
        )
        assert.isFalse(yield* store.jobs.release(job.id, "w1", T0 + 2))
        const [again] = yield* claimAt(store, kind, T0 + 2, { workerId: "w2" })
        assert.strictEqual(again?.attempts, 1)
      }))

    it.effect("cancel: queued at once, running on request, terminal unchanged, other team absent", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const other = yield* makeTeam(store)
        const kind = `k-${uid()}`
        const queued = yield* enqueue(store, team.id, kind, { runAt: T0 + 10 })
        const running = yield* enqueue(store, team.id, kind)
        yield* claimAt(store, kind, T0)

        assert.isTrue(Option.isNone(yield* store.jobs.cancel(other.id, queued.id, T0 + 1)))
        const cancelled = Option.getOrThrow(yield* store.jobs.cancel(team.id, queued.id, T0 + 1))
        assert.deepStrictEqual([cancelled.status, cancelled.finishedAt], ["cancelled", T0 + 1])
        assert.deepStrictEqual(yield* claimAt(store, kind, T0 + 10), [])

        const requested = Option.getOrThrow(yield* store.jobs.cancel(team.id, running.id, T0 + 2))
        assert.deepStrictEqual([requested.status, requested.cancelRequested], ["running", true])
        assert.deepStrictEqual(yield* store.jobs.heartbeat(running.id, "w1", T0 + 3, LEASE_MS), {
          owned: true, cancelRequested: true
        })
        assert.isTrue(yield* store.jobs.markCancelled(running.id, "w1", T0 + 4))
        assert.isFalse(yield* store.jobs.markCancelled(running.id, "w1", T0 + 5))
        const stopped = Option.getOrThrow(yield* store.jobs.get(team.id, running.id))
        assert.deepStrictEqual([stopped.status, stopped.finishedAt], ["cancelled", T0 + 4])

        assert.deepStrictEqual(yield* store.jobs.cancel(team.id, running.id, T0 + 6), Option.some(stopped))
        assert.isTrue(Option.isNone(yield* store.jobs.cancel(team.id, uid(), T0 + 6)))
      }))

    it.effect("counts and lastCompletedAt", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const kind = `k-${uid()}`
        assert.deepStrictEqual(yield* store.jobs.counts(team.id), { queued: 0, running: 0 })
        assert.isTrue(Option.isNone(yield* store.jobs.lastCompletedAt(team.id)))
        const jobs = yield* Effect.forEach(Arr.range(1, 5), (i) => enqueue(store, team.id, kind, { createdAt: T0 + i }))
        const [a, b, c] = yield* claimAt(store, kind, T0, { limit: 3 })
        assert.deepStrictEqual(yield* store.jobs.counts(team.id), { queued: 2, running: 3 })
        yield* store.jobs.complete(a!.id, "w1", "{}", T0 + 100)
        yield* store.jobs.complete(b!.id, "w1", "{}", T0 + 300)
        yield* store.jobs.fail(c!.id, "w1", { error: "{}", retryAt: null }, T0 + 900)
        assert.deepStrictEqual(yield* store.jobs.counts(team.id), { queued: 2, running: 0 })
        assert.deepStrictEqual(yield* store.jobs.lastCompletedAt(team.id), Option.some(T0 + 300))
        assert.strictEqual(jobs.length, 5)
      }))
  })
