/**
 * The Store contract for what scraping keeps: documents per team until they expire, the page
 * cache (bytes intact, replaced per key), change-tracking snapshots per URL and tag.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Store } from "@gleaner/core"
import { Effect, Option } from "effect"
import { makeTeam, T0, uid } from "./contract-fixtures.js"

export const pagesContract = (it: Vitest.MethodsNonLive<Store, true>) =>
  describe("scrape records", () => {
    it.effect("documents are per team and expire", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const other = yield* makeTeam(store)
        const doc = { id: uid(), teamId: team.id, sourceUrl: "https://example.com", document: "{\"markdown\":\"# Hi\"}", auditMetadata: null, replay: null, createdAt: T0, expiresAt: T0 + 1000 }
        yield* store.documents.put(doc)
        assert.deepStrictEqual(yield* store.documents.get(team.id, doc.id, T0 + 10), Option.some(doc))
        // the replay context of scrape-interact comes back as written
        const replayed = { ...doc, id: uid(), replay: "{\"url\":\"https://example.com/\",\"actions\":[{\"type\":\"click\",\"selector\":\"#go\"}]}" }
        yield* store.documents.put(replayed)
        assert.deepStrictEqual(yield* store.documents.get(team.id, replayed.id, T0 + 10), Option.some(replayed))
        assert.isTrue(Option.isNone(yield* store.documents.get(other.id, doc.id, T0 + 10)))
        assert.isTrue(Option.isNone(yield* store.documents.get(team.id, doc.id, T0 + 1000)))
        assert.isAtLeast(yield* store.documents.purgeExpired(T0 + 2000), 1)
        assert.isTrue(Option.isNone(yield* store.documents.get(team.id, doc.id, T0)))
      }))

    it.effect("the page cache keeps bytes intact and replaces by key", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const body = new Uint8Array([0, 1, 2, 250, 255, 37, 80, 68, 70])
        const page = { teamId: team.id, key: `k-${uid()}`, url: "https://example.com/a.pdf", statusCode: 200, contentType: "application/pdf", body, fetchedAt: T0 }
        yield* store.pageCache.put(page)
        const read = Option.getOrThrow(yield* store.pageCache.get(team.id, page.key))
        assert.deepStrictEqual([...read.body], [...body])
        assert.deepStrictEqual({ ...read, body: undefined }, { ...page, body: undefined })
        yield* store.pageCache.put({ ...page, statusCode: 404, fetchedAt: T0 + 5 })
        assert.strictEqual(Option.getOrThrow(yield* store.pageCache.get(team.id, page.key)).statusCode, 404)
        assert.isTrue(Option.isNone(yield* store.pageCache.get((yield* makeTeam(store)).id, page.key)))
      }))

    it.effect("snapshots are per URL and tag, the latest wins", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* makeTeam(store)
        const snap = { teamId: team.id, url: "https://example.com", tag: "", markdown: "v1", json: null, scrapedAt: T0 }
        yield* store.snapshots.put(snap)
        yield* store.snapshots.put({ ...snap, markdown: "v2", scrapedAt: T0 + 1 })
        yield* store.snapshots.put({ ...snap, tag: "prod", markdown: "p1" })
        assert.strictEqual(Option.getOrThrow(yield* store.snapshots.latest(team.id, snap.url, "")).markdown, "v2")
        assert.strictEqual(Option.getOrThrow(yield* store.snapshots.latest(team.id, snap.url, "prod")).markdown, "p1")
        assert.isTrue(Option.isNone(yield* store.snapshots.latest(team.id, "https://other.example", "")))
      }))
  })
