/**
 * The stealth proxy path end to end: a real forward proxy on 127.0.0.1 (with credentials) as
 * `GLEANER_STEALTH_PROXY_URL`. `proxy: "stealth"` goes through it; `"auto"` goes direct and
 * retries through it when the site answers 401/403/429; `"basic"` never uses it; the target is
 * still checked by the SSRF guard; `metadata.proxyUsed` says which way the page came. Without a
 * configured proxy, `"stealth"` goes direct with a warning.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import { type FixtureSite, type ForwardProxy, startFixtureSite, startForwardProxy } from "@gleaner/fixture-site"
import { Effect, Layer, Option, Redacted } from "effect"
import { appLayer, BootstrapKey, bootstrapKey, call, envelope } from "./support.js"

let site: FixtureSite
let proxy: ForwardProxy
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 1 })
  proxy = await startForwardProxy({ credentials: { user: "gleaner", password: "s3cret" } })
})
afterAll(async () => {
  await site.close()
  await proxy.close()
})

interface Scraped {
  readonly status: number
  readonly markdown: string
  readonly proxyUsed: unknown
  readonly statusCode: unknown
  readonly warning: unknown
}

const scrape = (json: Record<string, unknown>) =>
  Effect.gen(function*() {
    const { key } = yield* BootstrapKey
    const reply = yield* call("POST", "/v2/scrape", { key, json: { maxAge: 0, ...json } })
    const data = (reply.body as { data?: { markdown?: string; warning?: string; metadata?: Record<string, unknown> } }).data
    return {
      status: reply.status,
      markdown: data?.markdown ?? "",
      proxyUsed: data?.metadata?.["proxyUsed"],
      statusCode: data?.metadata?.["statusCode"],
      warning: data?.warning
    } satisfies Scraped
  })

/** Proxy hits made while `effect` ran. */
const hitsDuring = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const before = proxy.hits.length
    const result = yield* effect
    return [result, proxy.hits.slice(before)] as const
  })

const withProxy = Layer.suspend(() =>
  bootstrapKey.pipe(Layer.provideMerge(appLayer({
    allowedNetworks: ["127.0.0.0/8"],
    stealthProxyUrl: Option.some(Redacted.make(proxy.url))
  }))))

layer(withProxy, { excludeTestServices: true, timeout: 30_000 })("with GLEANER_STEALTH_PROXY_URL", (it) => {
  it.effect("stealth goes through the proxy with its credentials", () =>
    Effect.gen(function*() {
      const [doc, hits] = yield* hitsDuring(scrape({ url: `${site.url}/article`, proxy: "stealth" }))
      assert.strictEqual(doc.status, 200)
      assert.include(doc.markdown, "#")
      assert.strictEqual(doc.proxyUsed, "stealth")
      const through = hits.find((h) => h.target === `GET ${site.url}/article`)
      assert.strictEqual(through?.proxyAuthorization, `Basic ${Buffer.from("gleaner:s3cret").toString("base64")}`)
    }))

  it.effect("auto goes direct, and retries through the proxy only when the site refuses", () =>
    Effect.gen(function*() {
      const [open, openHits] = yield* hitsDuring(scrape({ url: `${site.url}/article`, proxy: "auto" }))
      assert.deepStrictEqual([open.status, open.proxyUsed, openHits.length], [200, "basic", 0])
      const [refused, refusedHits] = yield* hitsDuring(scrape({ url: `${site.url}/status/403`, proxy: "auto" }))
      assert.deepStrictEqual([refused.status, refused.statusCode, refused.proxyUsed], [200, 403, "stealth"])
      assert.deepStrictEqual(refusedHits.map((h) => h.target).filter((t) => t.startsWith("GET")), [`GET ${site.url}/status/403`])
    }))

  it.effect("basic never uses the proxy; the SSRF guard still checks a proxied target", () =>
    Effect.gen(function*() {
      const [basic, basicHits] = yield* hitsDuring(scrape({ url: `${site.url}/status/403`, proxy: "basic" }))
      assert.deepStrictEqual([basic.statusCode, basic.proxyUsed, basicHits.length], [403, "basic", 0])
      const { key } = yield* BootstrapKey
      const [metadata, metadataHits] = yield* hitsDuring(
        call("POST", "/v2/scrape", { key, json: { url: "http://169.254.169.254/latest/meta-data/", proxy: "stealth" } })
      )
      assert.strictEqual(metadata.status, 403)
      assert.strictEqual(envelope(metadata).code, "UNSAFE_ADDRESS")
      assert.lengthOf(metadataHits, 0)
    }))
})

const withoutProxy = bootstrapKey.pipe(Layer.provideMerge(appLayer({ allowedNetworks: ["127.0.0.0/8"] })))

layer(withoutProxy, { excludeTestServices: true, timeout: 30_000 })("without a stealth proxy", (it) => {
  it.effect("stealth goes direct and says so", () =>
    Effect.gen(function*() {
      const doc = yield* scrape({ url: `${site.url}/article`, proxy: "stealth" })
      assert.deepStrictEqual([doc.status, doc.proxyUsed], [200, "basic"])
      assert.match(String(doc.warning), /No stealth proxy is configured/)
    }))
})
