/**
 * Batch scrape with the official SDK against a real server (with job workers) and the fixture
 * site: `batchScrape()` to the end with invalid URLs dropped and listed, failures in
 * `getBatchScrapeErrors`, `appendToId` adding pages to a running batch, `cancelBatchScrape`,
 * per-page credits, and the 400s of bad requests.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { Effect, Layer } from "effect"
import { appWithWorkersLayer, BootstrapKey, bootstrapKey, baseUrl, call, envelope } from "./support.js"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 50 })
})
afterAll(() => site.close())

const env = bootstrapKey.pipe(Layer.provideMerge(appWithWorkersLayer({ allowedNetworks: ["127.0.0.0/8"] })))

const sdk = Effect.gen(function*() {
  const { key } = yield* BootstrapKey
  return new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
})

const waitFor = (firecrawl: Firecrawl, id: string) =>
  Effect.gen(function*() {
    let status = yield* Effect.promise(() => firecrawl.getBatchScrapeStatus(id))
    for (let i = 0; i < 300 && status.status === "scraping"; i++) {
      yield* Effect.sleep("100 millis")
      status = yield* Effect.promise(() => firecrawl.getBatchScrapeStatus(id))
    }
    return status
  })

layer(env, { excludeTestServices: true, timeout: 60_000 })("batch scrape through the official SDK", (it) => {
  it.effect("batchScrape(): every valid URL scraped once, invalid ones listed, failures in the errors", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const urls = Array.from({ length: 20 }, (_, i) => `${site.url}/site/${i}`)
      const started = yield* Effect.promise(() =>
        firecrawl.startBatchScrape([...urls, "not a url at all", "http://10.0.0.1/private"], { options: { formats: ["markdown", "links"] } }))
      assert.deepStrictEqual(started.invalidURLs, ["not a url at all"])
      assert.match(started.url, new RegExp(`/v2/batch/scrape/${started.id}$`))
      const job = yield* waitFor(firecrawl, started.id)
      assert.strictEqual(job.status, "completed")
      assert.deepInclude(job, { completed: 21, total: 21, creditsUsed: 20 })
      assert.strictEqual(job.data.length, 20)
      assert.deepStrictEqual(new Set(job.data.map((d) => d.metadata?.sourceURL)), new Set(urls))
      for (const doc of job.data) {
        assert.match(doc.markdown ?? "", /Site page \d+/)
        assert.isAbove((doc.links ?? []).length, 0)
      }
      const errors = yield* Effect.promise(() => firecrawl.getBatchScrapeErrors(started.id))
      assert.strictEqual(errors.errors.length, 1)
      assert.deepInclude(errors.errors[0] ?? {}, { url: "http://10.0.0.1/private", code: "UNSAFE_ADDRESS" })

      const polled = yield* Effect.promise(() => firecrawl.batchScrape([`${site.url}/article`], { options: { formats: ["markdown"] }, pollInterval: 1 }))
      assert.strictEqual(polled.status, "completed")
      assert.include(polled.data[0]?.markdown ?? "", "#")
    }))

  it.effect("appendToId adds pages to a running batch; cancel stops one", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const slow = Array.from({ length: 8 }, (_, i) => `${site.url}/slow?ms=250&n=${i}`)
      const started = yield* Effect.promise(() => firecrawl.startBatchScrape(slow, { maxConcurrency: 1 }))
      const appended = yield* Effect.promise(() =>
        firecrawl.startBatchScrape([`${site.url}/site/1`, `${site.url}/site/2`], { appendToId: started.id }))
      assert.strictEqual(appended.id, started.id)
      const job = yield* waitFor(firecrawl, started.id)
      assert.deepInclude(job, { status: "completed", total: 10, completed: 10 })
      assert.strictEqual(job.data.length, 10)

      const { key } = yield* BootstrapKey
      const late = yield* call("POST", "/v2/batch/scrape", { key, json: { urls: [`${site.url}/site/3`], appendToId: started.id } })
      assert.strictEqual(late.status, 409)

      const long = yield* Effect.promise(() =>
        firecrawl.startBatchScrape(Array.from({ length: 40 }, (_, i) => `${site.url}/slow?ms=200&c=${i}`), { maxConcurrency: 1 }))
      yield* Effect.sleep("400 millis")
      assert.isTrue(yield* Effect.promise(() => firecrawl.cancelBatchScrape(long.id)))
      const cancelled = yield* waitFor(firecrawl, long.id)
      assert.strictEqual(cancelled.status, "cancelled")
      assert.isBelow(cancelled.completed, 40)
    }))

  it.effect("bad requests: no valid URL, an invalid URL without ignoreInvalidURLs, an unknown batch", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const none = yield* call("POST", "/v2/batch/scrape", { key, json: { urls: ["nope"] } })
      assert.deepStrictEqual([none.status, envelope(none).error], [400, "No valid URLs provided"])
      const strict = yield* call("POST", "/v2/batch/scrape", { key, json: { urls: [`${site.url}/site/1`, "nope"], ignoreInvalidURLs: false } })
      assert.strictEqual(strict.status, 400)
      assert.match(envelope(strict).error, /nope/)
      const empty = yield* call("POST", "/v2/batch/scrape", { key, json: { urls: [] } })
      assert.strictEqual(empty.status, 400)
      const unknown = yield* call("GET", "/v2/batch/scrape/0190d6a4-0000-7000-8000-000000000000", { key })
      assert.strictEqual(unknown.status, 404)
    }))
})
