/**
 * The Store contract for the pages of crawls and batch scrapes: a URL found twice is one row,
 * a page settles once, pending pages come shallowest first, results come in completion order,
 * failures and robots-blocked URLs are listed per team, and purging settled jobs takes their
 * pages with them. Also the job listing by kind and status that `/v2/crawl/active` reads.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Store } from "@gleaner/core"
import { Effect } from "effect"
import { makeTeam, T0, uid } from "./contract-fixtures.js"

export const jobPagesContract = (it: Vitest.MethodsNonLive<Store, true>) =>
  describe("job pages", () => {
    const crawlJob = (teamId: string, createdAt = T0) =>
      Effect.flatMap(Store, (store) =>
        store.jobs.enqueue({ id: uid(), teamId, kind: "crawl", payload: "{}", runAt: createdAt, createdAt }))

    it.effect("a URL found twice is one row; a page settles once", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const job = yield* crawlJob(team.id)
        const first = yield* store.jobPages.add(job.id, team.id, [
          { key: "a", url: "https://x.test/a", depth: 0 },
          { key: "b", url: "https://x.test/b", depth: 1 }
        ], T0)
        assert.deepStrictEqual([...first].sort(), ["a", "b"])
        const again = yield* store.jobPages.add(job.id, team.id, [
          { key: "b", url: "https://x.test/b", depth: 1 },
          { key: "c", url: "https://x.test/c", depth: 1 },
          { key: "r", url: "https://x.test/r", depth: 1, status: "blocked", error: "Blocked by robots.txt" }
        ], T0 + 1)
        assert.deepStrictEqual([...again].sort(), ["c", "r"])
        assert.deepStrictEqual([...(yield* store.jobPages.keys(job.id))].sort(), ["a", "b", "c", "r"])

        assert.isTrue(yield* store.jobPages.settle(job.id, "a", { status: "done", document: "{\"n\":1}" }, T0 + 2))
        assert.isFalse(yield* store.jobPages.settle(job.id, "a", { status: "done", document: "{\"n\":2}" }, T0 + 3))
        assert.isTrue(yield* store.jobPages.settle(job.id, "c", { status: "failed", error: "{\"code\":\"SCRAPE_TIMEOUT\",\"error\":\"slow\"}" }, T0 + 4))
        assert.deepStrictEqual(yield* store.jobPages.counts(job.id), { pending: 1, done: 1, failed: 1, blocked: 1 })
        const [done] = yield* store.jobPages.results(job.id, team.id, { offset: 0, limit: 10 })
        assert.strictEqual(done?.document, "{\"n\":1}")
        assert.deepStrictEqual((yield* store.jobPages.problems(job.id, team.id)).map((p) => [p.key, p.status]).sort(), [["c", "failed"], ["r", "blocked"]])
        assert.lengthOf(yield* store.jobPages.results(job.id, (yield* makeTeam(store)).id, { offset: 0, limit: 10 }), 0)
      }))

    it.effect("pending pages come shallowest first; results in completion order, paged", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const job = yield* crawlJob(team.id)
        yield* store.jobPages.add(job.id, team.id, [{ key: "deep", url: "https://x.test/d", depth: 3 }], T0)
        yield* store.jobPages.add(job.id, team.id, [{ key: "top", url: "https://x.test/t", depth: 0 }], T0 + 1)
        yield* store.jobPages.add(job.id, team.id, Array.from({ length: 1200 }, (_, i) => ({ key: `p${i}`, url: `https://x.test/${i}`, depth: 1 })), T0 + 2)
        const pending = yield* store.jobPages.pending(job.id, 3)
        assert.deepStrictEqual(pending.map((p) => p.key), ["top", "p0", "p1"])
        for (const [i, key] of ["p5", "p2", "p9"].entries()) {
          yield* store.jobPages.settle(job.id, key, { status: "done", document: key }, T0 + 10 + i)
        }
        const page = yield* store.jobPages.results(job.id, team.id, { offset: 1, limit: 5 })
        assert.deepStrictEqual(page.map((p) => p.document), ["p2", "p9"])
      }))

    it.effect("an idempotency key is claimed once per team", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const other = yield* makeTeam(store)
        const key = uid()
        const claims = yield* Effect.all(Array.from({ length: 5 }, () => store.idempotencyKeys.claim(team.id, key, T0)), { concurrency: "unbounded" })
        assert.strictEqual(claims.filter(Boolean).length, 1)
        assert.isTrue(yield* store.idempotencyKeys.claim(other.id, key, T0))
      }))

    it.effect("jobs are listed by kind and status; purging settled jobs takes their pages", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const old = yield* crawlJob(team.id, T0)
        const running = yield* crawlJob(team.id, T0 + 5)
        yield* store.jobPages.add(old.id, team.id, [{ key: "a", url: "https://x.test/a", depth: 0 }], T0)
        assert.deepStrictEqual((yield* store.jobs.list(team.id, { kind: "crawl", statuses: ["queued"] })).map((j) => j.id), [old.id, running.id])
        assert.lengthOf(yield* store.jobs.list(team.id, { kind: "batch_scrape", statuses: ["queued"] }), 0)
        yield* store.jobs.cancel(team.id, old.id, T0 + 1)
        const purged = yield* store.jobs.purgeSettled(T0 + 3)
        assert.include(purged, old.id)
        assert.notInclude(purged, running.id)
        assert.lengthOf(yield* store.jobPages.keys(old.id), 0)
        assert.deepStrictEqual((yield* store.jobs.list(team.id, { kind: "crawl", statuses: ["queued", "cancelled"] })).map((j) => j.id), [running.id])
      }))
  })
