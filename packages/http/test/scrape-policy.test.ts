/**
 * The enterprise switches are plan settings (API.md Part A 9): a team whose plan does not allow
 * `zeroDataRetention` or `threatProtection` gets upstream's 403 and nothing is fetched or billed;
 * a plan from the operator's plans file that allows them gets them honoured — a zero-retention
 * scrape is neither kept (`GET /v2/scrape/:id` → 404) nor cached, and threat protection blocks a
 * blacklisted host with 403 `unsafe_domain_blocked`.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import { Billing } from "@gleaner/core"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { Effect, Layer, Option } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { appLayer, BootstrapKey, bootstrapKey, call, envelope } from "./support.js"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 1 })
})
afterAll(() => site.close())

const plansFile = join(mkdtempSync(join(tmpdir(), "gleaner-policy-")), "plans.json")
writeFileSync(plansFile, JSON.stringify([{
  name: "vetted",
  base: "hobby",
  creditsPerPeriod: 1000,
  concurrency: 2,
  features: { zeroDataRetention: true, threatProtection: true }
}]))

const env = (defaultPlan: string) =>
  bootstrapKey.pipe(Layer.provideMerge(appLayer({ allowedNetworks: ["127.0.0.0/8"], defaultPlan, plansFile: Option.some(plansFile) })))

const usedCredits = Effect.gen(function*() {
  return (yield* (yield* Billing).balance((yield* BootstrapKey).teamId)).usedCredits
})

layer(env("hobby"), { excludeTestServices: true, timeout: 30_000 })("a plan without the enterprise switches", (it) => {
  it.effect("refuses zeroDataRetention and threatProtection with upstream's 403, billing nothing", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const zdr = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, zeroDataRetention: true } })
      assert.strictEqual(zdr.status, 403)
      assert.match(envelope(zdr).error, /^Zero Data Retention \(ZDR\) is not enabled for your team/)
      const threats = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, threatProtection: { blacklist: ["evil.example"] } } })
      assert.strictEqual(threats.status, 403)
      assert.match(envelope(threats).error, /enterprise feature/)
      assert.strictEqual(yield* usedCredits, 0)

      const off = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, threatProtection: { mode: "off" } } })
      assert.strictEqual(off.status, 200)
    }))
})

layer(env("vetted"), { excludeTestServices: true, timeout: 30_000 })("a plan from the plans file that allows them", (it) => {
  it.effect("a zero-retention scrape is answered but neither kept nor cached", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const scrape = () => call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, zeroDataRetention: true } })
      const first = yield* scrape()
      assert.strictEqual(first.status, 200)
      const { data } = first.body as { data: { markdown: string; metadata: { scrapeId: string; cacheState: string } } }
      assert.include(data.markdown, "#")
      const stored = yield* call("GET", `/v2/scrape/${data.metadata.scrapeId}`, { key })
      assert.strictEqual(stored.status, 404)
      const second = yield* scrape()
      assert.strictEqual((second.body as { data: { metadata: { cacheState: string } } }).data.metadata.cacheState, "miss")
    }))

  it.effect("threat protection blocks a blacklisted host and lets others through", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const blocked = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, threatProtection: { blacklist: ["127.0.0.1"] } } })
      assert.strictEqual(blocked.status, 403)
      assert.strictEqual(envelope(blocked).code, "unsafe_domain_blocked")
      const allowed = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, threatProtection: { blacklist: ["evil.example"] } } })
      assert.strictEqual(allowed.status, 200)
    }))
})
