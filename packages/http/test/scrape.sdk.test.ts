/**
 * `POST /v2/scrape` with the official SDK against a real server and our own fixture site on
 * 127.0.0.1: every format that needs no browser, the errors the SDK surfaces (envelope `error`
 * and `code`), stored scrapes by id, the cache, change tracking, credits, and the SSRF guard
 * refusing loopback by default and a redirect to the metadata address even when the first hop
 * was allowed.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { Billing } from "@gleaner/core"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { Effect, Layer } from "effect"
import { appLayer, BootstrapKey, bootstrapKey, baseUrl, call, envelope } from "./support.js"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 20, bombMegabytes: 64 })
})
afterAll(() => site.close())

const env = (allowedNetworks: ReadonlyArray<string>) =>
  bootstrapKey.pipe(Layer.provideMerge(appLayer({ allowedNetworks, defaultPlan: "hobby" })))

const sdk = Effect.gen(function*() {
  const { key } = yield* BootstrapKey
  return new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
})

const sdkError = (promise: Promise<unknown>) =>
  Effect.promise(() => promise.then(() => ({ status: 0, code: "", message: "no error" }), (e: { status: number; code: string; message: string }) => e))

layer(env(["127.0.0.0/8"]), { excludeTestServices: true, timeout: 60_000 })("scrape through the official SDK", (it) => {
  it.effect("markdown, html, rawHtml, links, images, summary, json and attributes of one page", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const doc = yield* Effect.promise(() =>
        firecrawl.scrape(`${site.url}/article`, {
          formats: [
            "markdown", "html", "rawHtml", "links", "images", "summary",
            { type: "json", schema: { type: "object", properties: { headline: { type: "string" }, author: { type: "string" } } } },
            { type: "attributes", selectors: [{ selector: "a", attribute: "href" }] }
          ]
        }))
      assert.match(doc.markdown ?? "", /^# /m)
      assert.include(doc.markdown ?? "", "```")
      assert.notInclude(doc.markdown ?? "", "<script")
      assert.include(doc.html ?? "", "<")
      assert.include(doc.rawHtml ?? "", "<html")
      assert.isTrue((doc.links ?? []).every((l) => /^https?:\/\//.test(l)))
      assert.isAbove((doc.links ?? []).length, 0)
      assert.isAbove((doc.images ?? []).length, 0)
      assert.isAbove((doc.summary ?? "").length, 20)
      assert.isObject(doc.json)
      assert.isAbove(doc.attributes?.[0]?.values.length ?? 0, 0)
      const metadata = doc.metadata ?? {}
      assert.strictEqual(metadata.statusCode, 200)
      assert.strictEqual(metadata.sourceURL, `${site.url}/article`)
      assert.strictEqual(metadata.creditsUsed, 5)
      assert.strictEqual(metadata.cacheState, "miss")
      assert.isString(metadata.title)
      assert.match(String(doc.warning), /extractive/)

      // stored and readable by id; the same URL again is a cache hit
      const { key } = yield* BootstrapKey
      const stored = yield* call("GET", `/v2/scrape/${String(metadata.scrapeId)}`, { key })
      assert.strictEqual(stored.status, 200)
      const again = yield* Effect.promise(() => firecrawl.scrape(`${site.url}/article`, { formats: ["markdown"] }))
      assert.deepStrictEqual([again.metadata?.cacheState, again.metadata?.creditsUsed], ["hit", 1])
      assert.strictEqual(again.markdown, doc.markdown)
      const balance = yield* (yield* Billing).balance((yield* BootstrapKey).teamId)
      assert.strictEqual(balance.usedCredits, 6)
    }))

  it.effect("redirects end at the final URL; upstream 404s are successful scrapes with the status", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const redirected = yield* Effect.promise(() => firecrawl.scrape(`${site.url}/redirect/3`, { formats: ["markdown"] }))
      assert.notStrictEqual(redirected.metadata?.url, redirected.metadata?.sourceURL)
      const missing = yield* Effect.promise(() => firecrawl.scrape(`${site.url}/status/404`, { formats: ["markdown"] }))
      assert.deepStrictEqual([missing.metadata?.statusCode, missing.metadata?.error], [404, "Not Found"])
    }))

  it.effect("PDFs become markdown with numPages and per-page credits", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const pdf = yield* Effect.promise(() => firecrawl.scrape(`${site.url}/pdf`, { formats: ["markdown"], maxAge: 0 }))
      const pages = Number(pdf.metadata?.numPages)
      assert.isAbove(pages, 1)
      assert.strictEqual(pdf.metadata?.creditsUsed, pages)
      assert.isAbove((pdf.markdown ?? "").length, 20)
    }))

  it.effect("change tracking: new, then same", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const options = { formats: ["markdown" as const, { type: "changeTracking" as const, modes: ["git-diff" as const] }], maxAge: 0 }
      const first = yield* Effect.promise(() => firecrawl.scrape(`${site.url}/site/3`, options))
      const second = yield* Effect.promise(() => firecrawl.scrape(`${site.url}/site/3`, options))
      assert.deepStrictEqual([first.changeTracking?.changeStatus, second.changeTracking?.changeStatus], ["new", "same"])
    }))

  it.effect("errors reach the SDK with the envelope's message and code", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const unsupported = yield* sdkError(firecrawl.scrape(`${site.url}/docx`))
      assert.deepStrictEqual([unsupported.status, unsupported.code], [500, "SCRAPE_UNSUPPORTED_FILE_ERROR"])
      assert.match(unsupported.message, /file type/)
      const timeout = yield* sdkError(firecrawl.scrape(`${site.url}/slow?ms=5000`, { timeout: 1000 }))
      assert.deepStrictEqual([timeout.status, timeout.code], [408, "SCRAPE_TIMEOUT"])
      const noCache = yield* sdkError(firecrawl.scrape(`${site.url}/site/7`, { minAge: 1 }))
      assert.deepStrictEqual([noCache.status, noCache.code], [404, "SCRAPE_NO_CACHED_DATA"])
      const browser = yield* sdkError(firecrawl.scrape(`${site.url}/article`, { formats: [{ type: "screenshot" }] }))
      assert.deepStrictEqual([browser.status, browser.code], [400, "SCRAPE_ACTIONS_NOT_SUPPORTED"])
      assert.include(browser.message, "apt-get install -y chromium-headless-shell")
    }))

  it.effect("without a browser, waitFor fetches the page and the warning says how to install Chromium", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const doc = yield* Effect.promise(() => firecrawl.scrape(`${site.url}/article`, { formats: ["markdown"], waitFor: 500, maxAge: 0 }))
      assert.match(doc.markdown ?? "", /^# /m)
      assert.strictEqual(doc.metadata?.["engine"], "fetch")
      assert.include(doc.warning ?? "", "waitFor needs a browser")
      assert.include(doc.warning ?? "", "apt-get install -y chromium-headless-shell")
    }))

  it.effect("bad bodies: v1 fields name their replacement, waitFor over half the timeout is refused", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const v1 = envelope(yield* call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, parsePDF: true } }))
      assert.strictEqual(v1.code, "BAD_REQUEST")
      assert.include(JSON.stringify(v1), "parsers")
      const wait = envelope(yield* call("POST", "/v2/scrape", { key, json: { url: `${site.url}/article`, timeout: 2000, waitFor: 1500 } }))
      assert.include(JSON.stringify(wait), "waitFor must not exceed half of timeout")
      const scheme = envelope(yield* call("POST", "/v2/scrape", { key, json: { url: "ftp://example.com/x" } }))
      assert.strictEqual(scheme.error, "URL uses unsupported protocol")
    }))
})

layer(env([]), { excludeTestServices: true, timeout: 60_000 })("the SSRF guard by default", (it) => {
  it.effect("a loopback page is refused with 403", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const refused = yield* sdkError(firecrawl.scrape(`${site.url}/article`))
      assert.deepStrictEqual([refused.status, refused.code], [403, "UNSAFE_ADDRESS"])
    }))
})

layer(env(["127.0.0.1/32"]), { excludeTestServices: true, timeout: 60_000 })("the SSRF guard on redirects", (it) => {
  it.effect("a redirect to the cloud metadata address is refused even after an allowed first hop", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const target = encodeURIComponent("http://169.254.169.254/latest/meta-data/")
      const refused = yield* sdkError(firecrawl.scrape(`${site.url}/redirect-to?url=${target}`))
      assert.deepStrictEqual([refused.status, refused.code], [403, "UNSAFE_ADDRESS"])
    }))
})
