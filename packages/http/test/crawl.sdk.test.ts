/**
 * Crawling with the official SDK against a real server (with job workers) and a 600-page
 * fixture site on 127.0.0.1: `crawl()` polling to the end, `startCrawl` + `getCrawlStatus` with
 * auto-pagination, robots.txt-blocked URLs in `getCrawlErrors`, `getActiveCrawls`,
 * `cancelCrawl`, per-page credits, and the 400s a bad request earns.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { Billing } from "@gleaner/core"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { Effect, Layer } from "effect"
import { appWithWorkersLayer, BootstrapKey, bootstrapKey, baseUrl, call, envelope } from "./support.js"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 600 })
})
afterAll(() => site.close())

const env = bootstrapKey.pipe(Layer.provideMerge(appWithWorkersLayer({ allowedNetworks: ["127.0.0.0/8"] })))

const sdk = Effect.gen(function*() {
  const { key } = yield* BootstrapKey
  return new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
})

const pathOf = (url: string | undefined) => (url === undefined ? "" : new URL(url).pathname)

layer(env, { excludeTestServices: true, timeout: 120_000 })("crawl through the official SDK", (it) => {
  it.effect("crawl() polls to the end: every page once, markdown of each, one credit per page", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const job = yield* Effect.promise(() =>
        firecrawl.crawl(`${site.url}/site`, { limit: 40, sitemap: "skip", scrapeOptions: { formats: ["markdown"] }, pollInterval: 1 }))
      assert.strictEqual(job.status, "completed")
      assert.strictEqual(job.data.length, 40)
      assert.deepInclude(job, { completed: 40, total: 40 })
      const paths = job.data.map((d) => pathOf(d.metadata?.sourceURL))
      assert.strictEqual(new Set(paths).size, 40)
      assert.include(paths, "/site")
      for (const doc of job.data) {
        assert.match(doc.markdown ?? "", /Site (page \d+|index)/)
        assert.isUndefined(doc.links)
      }
      assert.strictEqual(job.creditsUsed, 40)
      const { teamId } = yield* BootstrapKey
      const ledger = yield* Effect.flatMap(Billing, (b) => b.balance(teamId))
      assert.isAtLeast(ledger.usedCredits, 40)
    }))

  it.effect("startCrawl + getCrawlStatus: sitemap seeds, pages of 100 with next, auto-pagination to all", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { key } = yield* BootstrapKey
      const started = yield* Effect.promise(() => firecrawl.startCrawl(`${site.url}/site`, { limit: 250 }))
      assert.match(started.url, new RegExp(`/v2/crawl/${started.id}$`))
      let status = yield* Effect.promise(() => firecrawl.getCrawlStatus(started.id, { autoPaginate: false }))
      while (status.status === "scraping") {
        yield* Effect.sleep("300 millis")
        status = yield* Effect.promise(() => firecrawl.getCrawlStatus(started.id, { autoPaginate: false }))
      }
      assert.strictEqual(status.status, "completed")
      assert.strictEqual(status.total, 250)
      assert.strictEqual(status.data.length, 100)
      assert.match(status.next ?? "", /skip=100/)

      const all = yield* Effect.promise(() => firecrawl.getCrawlStatus(started.id))
      assert.strictEqual(all.data.length, 250)
      assert.strictEqual(new Set(all.data.map((d) => d.metadata?.sourceURL)).size, 250)

      const last = yield* call("GET", `/v2/crawl/${started.id}?skip=200&limit=100`, { key })
      const body = last.body as { data: Array<unknown>; next?: string }
      assert.strictEqual(body.data.length, 50)
      assert.isUndefined(body.next)
      const bad = yield* call("GET", `/v2/crawl/${started.id}?limit=5000`, { key })
      assert.strictEqual(bad.status, 400)
      assert.match(envelope(bad).error, /limit/)
    }))

  it.effect("robots.txt: disallowed URLs are not fetched and are listed by getCrawlErrors", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const job = yield* Effect.promise(() => firecrawl.crawl(`${site.url}/site`, { limit: 60, sitemap: "skip", pollInterval: 1 }))
      assert.strictEqual(job.status, "completed")
      assert.isFalse(job.data.some((d) => pathOf(d.metadata?.sourceURL).startsWith("/site/members")))
      const errors = yield* Effect.promise(() => firecrawl.getCrawlErrors(job.id))
      assert.include(errors.robotsBlocked, `${site.url}/site/members/0`)
      assert.deepStrictEqual(errors.errors, [])
    }))

  it.effect("getActiveCrawls lists a running crawl; cancelCrawl stops it; a finished crawl cannot be cancelled", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { key } = yield* BootstrapKey
      const started = yield* Effect.promise(() => firecrawl.startCrawl(`${site.url}/site`, { limit: 600, delay: 0.2, sitemap: "skip" }))
      yield* Effect.sleep("500 millis")
      const active = yield* Effect.promise(() => firecrawl.getActiveCrawls())
      const mine = active.crawls.find((c) => c.id === started.id)
      assert.strictEqual(mine?.url, `${site.url}/site`)
      assert.isTrue(yield* Effect.promise(() => firecrawl.cancelCrawl(started.id)))
      let status = yield* Effect.promise(() => firecrawl.getCrawlStatus(started.id, { autoPaginate: false }))
      for (let i = 0; i < 50 && status.status === "scraping"; i++) {
        yield* Effect.sleep("100 millis")
        status = yield* Effect.promise(() => firecrawl.getCrawlStatus(started.id, { autoPaginate: false }))
      }
      assert.strictEqual(status.status, "cancelled")
      assert.isBelow(status.completed, 600)
      const after = yield* Effect.promise(() => firecrawl.getActiveCrawls())
      assert.isFalse(after.crawls.some((c) => c.id === started.id))

      const done = yield* Effect.promise(() => firecrawl.crawl(`${site.url}/site`, { limit: 2, sitemap: "skip", pollInterval: 1 }))
      const again = yield* call("DELETE", `/v2/crawl/${done.id}`, { key })
      assert.strictEqual(again.status, 409)
      assert.strictEqual(envelope(again).error, "Crawl is already completed")
    }))

  it.effect("x-idempotency-key: a key starts one crawl; used again, or not a UUID, it is a 409", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const idempotencyKey = "0190d6a4-1111-7000-8000-000000000001"
      const body = { url: `${site.url}/site`, limit: 1, sitemap: "skip" }
      const first = yield* call("POST", "/v2/crawl", { key, json: body, headers: { "x-idempotency-key": idempotencyKey } })
      assert.strictEqual(first.status, 200)
      const again = yield* call("POST", "/v2/crawl", { key, json: body, headers: { "x-idempotency-key": idempotencyKey } })
      assert.deepStrictEqual([again.status, envelope(again).error], [409, "Idempotency key already used"])
      const notUuid = yield* call("POST", "/v2/crawl", { key, json: body, headers: { "x-idempotency-key": "abc" } })
      assert.strictEqual(notUuid.status, 409)
    }))

  it.effect("bad requests: an invalid regex, a v1 field, a browser format, an unknown crawl", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const regex = yield* call("POST", "/v2/crawl", { key, json: { url: `${site.url}/site/0`, excludePaths: ["(unclosed"] } })
      assert.strictEqual(regex.status, 400)
      assert.match(envelope(regex).error, /excludePaths\[0\]/)
      const v1 = yield* call("POST", "/v2/crawl", { key, json: { url: `${site.url}/site/0`, maxDepth: 2 } })
      assert.strictEqual(v1.status, 400)
      assert.match(v1.text, /maxDiscoveryDepth/)
      const browser = yield* call("POST", "/v2/crawl", { key, json: { url: `${site.url}/site/0`, scrapeOptions: { formats: ["screenshot"] } } })
      assert.strictEqual(browser.status, 400)
      const unknown = yield* call("GET", "/v2/crawl/0190d6a4-0000-7000-8000-000000000000", { key })
      assert.strictEqual(unknown.status, 404)
    }))
})
