/**
 * Team concurrency on synchronous scrapes (API.md §7): a team on the free plan (2 concurrent
 * scrapes) that sends three slow scrapes at once gets all three answered; the third waits for a
 * slot and says so in `metadata.concurrencyLimited` and `concurrencyQueueDurationMs`, and
 * `/v2/concurrency-check` counts the running ones. A scrape whose deadline passes while it waits
 * is a 408 `SCRAPE_TIMEOUT`, and the slot it never got stays free for the next request.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { Effect, Layer } from "effect"
import { appLayer, BootstrapKey, bootstrapKey, baseUrl, call, envelope } from "./support.js"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 1 })
})
afterAll(() => site.close())

const env = bootstrapKey.pipe(Layer.provideMerge(appLayer({ allowedNetworks: ["127.0.0.0/8"], defaultPlan: "free" })))

const sdk = Effect.gen(function*() {
  const { key } = yield* BootstrapKey
  return new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
})

layer(env, { excludeTestServices: true, timeout: 60_000 })("team concurrency of synchronous scrapes", (it) => {
  it.effect("a third scrape beyond the plan's two waits for a slot and reports the wait", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { key } = yield* BootstrapKey
      const scrapes = [1, 2, 3].map((n) => firecrawl.scrape(`${site.url}/slow?ms=1200&n=${n}`, { formats: ["markdown"] }))
      yield* Effect.sleep("500 millis")
      const during = yield* call("GET", "/v2/concurrency-check", { key })
      const docs = yield* Effect.promise(() => Promise.all(scrapes))

      assert.deepInclude(during.body, { success: true, concurrency: 2, maxConcurrency: 2 })
      for (const doc of docs) assert.include(doc.markdown ?? "", "Answered after 1200 ms")
      const limited = docs.filter((d) => d.metadata?.concurrencyLimited === true)
      assert.strictEqual(limited.length, 1)
      assert.isAbove(Number(limited[0]?.metadata?.["concurrencyQueueDurationMs"]), 500)
      for (const doc of docs.filter((d) => d.metadata?.concurrencyLimited !== true)) {
        assert.isUndefined(doc.metadata?.["concurrencyQueueDurationMs"])
      }
      const after = yield* call("GET", "/v2/concurrency-check", { key })
      assert.deepInclude(after.body, { concurrency: 0 })
    }))

  it.effect("a scrape whose timeout passes while it waits is a 408, and its slot is not lost", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const hold = (n: number) => call("POST", "/v2/scrape", { key, json: { url: `${site.url}/slow?ms=2500&hold=${n}` } })
      const [first, second, waiting] = yield* Effect.all([
        hold(1),
        hold(2),
        Effect.sleep("300 millis").pipe(
          Effect.zipRight(call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, timeout: 1000 } }))
        )
      ], { concurrency: "unbounded" })
      assert.deepStrictEqual([first.status, second.status], [200, 200])
      assert.strictEqual(waiting.status, 408)
      const error = envelope(waiting)
      assert.strictEqual(error.code, "SCRAPE_TIMEOUT")
      assert.match(error.error, /waiting for one of the team's 2 concurrent scrapes/)

      const next = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, timeout: 5000 } })
      assert.strictEqual(next.status, 200)
      assert.deepInclude((next.body as { data: { metadata: object } }).data.metadata, { concurrencyLimited: false })
    }))
})
