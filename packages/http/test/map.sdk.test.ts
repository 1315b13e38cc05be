/**
 * `POST /v2/map` with the official SDK (and raw requests for the fields the SDK does not send)
 * against a real server and a 600-page fixture site on 127.0.0.1: the sitemap as a source, the
 * link walk with titles, search ranking, `limit`, include/exclude patterns, robots.txt, the
 * path filter and its warning, `timeout`, credits, and the SSRF guard.
 */
import { afterAll, assert, beforeAll, describe, layer } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { Billing } from "@gleaner/core"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { Effect, Layer, Schema } from "effect"
import { appLayer, BootstrapKey, bootstrapKey, baseUrl, call, envelope } from "./support.js"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 600 })
})
afterAll(() => site.close())

const env = (allowedNetworks: ReadonlyArray<string>) => bootstrapKey.pipe(Layer.provideMerge(appLayer({ allowedNetworks })))

const sdk = Effect.gen(function*() {
  const { key } = yield* BootstrapKey
  return new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
})

const sdkError = (promise: Promise<unknown>) =>
  Effect.promise(() =>
    promise.then(() => ({ status: 0, code: "", message: "no error" }), (e: { status: number; code: string; message: string }) => e))

/** The body of a successful raw `POST /v2/map`. */
const MapBody = Schema.Struct({
  success: Schema.Literal(true),
  id: Schema.String,
  links: Schema.Array(Schema.Struct({ url: Schema.String, title: Schema.optional(Schema.String), description: Schema.optional(Schema.String) })),
  warning: Schema.optional(Schema.String)
})

const rawMap = (json: Record<string, unknown>) =>
  Effect.gen(function*() {
    const { key } = yield* BootstrapKey
    const reply = yield* call("POST", "/v2/map", { key, json })
    assert.strictEqual(reply.status, 200, reply.text)
    return Schema.decodeUnknownSync(MapBody)(reply.body)
  })

const pathOf = (url: string) => new URL(url).pathname
const sitePages = (n: number) => Array.from({ length: n }, (_, i) => `/site/${i}`)
const usedCredits = Effect.gen(function*() {
  const { teamId } = yield* BootstrapKey
  return (yield* Effect.flatMap(Billing, (b) => b.balance(teamId))).usedCredits
})

layer(env(["127.0.0.0/8"]), { excludeTestServices: true, timeout: 60_000 })("map through the official SDK", (it) => {
  it.effect("the sitemap gives every page of the site; sitemap: only gives exactly those", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const all = yield* Effect.promise(() => firecrawl.map(`${site.url}/site`))
      const paths = all.links.map((l) => pathOf(l.url))
      assert.isString(all.id)
      assert.strictEqual(new Set(paths).size, paths.length)
      for (const page of sitePages(600)) assert.include(paths, page)
      assert.isTrue(paths.every((p) => p === "/site" || p.startsWith("/site/")))

      const only = yield* Effect.promise(() => firecrawl.map(`${site.url}/site`, { sitemap: "only" }))
      assert.sameMembers(only.links.map((l) => pathOf(l.url)), sitePages(600))
    }))

  it.effect("sitemap: skip finds pages by their links, with the titles of the pages read", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const result = yield* Effect.promise(() => firecrawl.map(`${site.url}/site`, { sitemap: "skip", limit: 60 }))
      assert.strictEqual(result.links.length, 60)
      const byPath = new Map(result.links.map((l) => [pathOf(l.url), l]))
      assert.strictEqual(byPath.get("/site")?.title, "Site index")
      assert.strictEqual(byPath.get("/site/0")?.title, "Site page 0")
      for (const link of result.links) {
        assert.match(pathOf(link.url), /^\/site(\/\d+)?$/)
        const number = /^\/site\/(\d+)$/.exec(pathOf(link.url))?.[1]
        if (link.title !== undefined && number !== undefined) assert.strictEqual(link.title, `Site page ${number}`)
      }
      assert.isFalse(result.links.some((l) => l.url.includes("external.example.com")))
    }))

  it.effect("search puts the best match first; limit cuts the list", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const ranked = yield* Effect.promise(() => firecrawl.map(`${site.url}/site`, { search: "page 42", limit: 5 }))
      assert.strictEqual(ranked.links.length, 5)
      assert.strictEqual(pathOf(ranked.links[0]?.url ?? ""), "/site/42")

      const ten = yield* Effect.promise(() => firecrawl.map(`${site.url}/site`, { limit: 10 }))
      assert.strictEqual(ten.links.length, 10)
    }))

  it.effect("includePaths and excludePaths filter the list; a bad pattern is a 400 naming it", () =>
    Effect.gen(function*() {
      const teens = yield* rawMap({ url: `${site.url}/site`, includePaths: ["^/site/1\\d$"] })
      assert.sameMembers(teens.links.map((l) => pathOf(l.url)), Array.from({ length: 10 }, (_, i) => `/site/1${i}`))

      const odd = yield* rawMap({ url: `${site.url}/site`, excludePaths: ["[02468]$"] })
      const oddPaths = odd.links.map((l) => pathOf(l.url))
      assert.strictEqual(oddPaths.filter((p) => p.startsWith("/site/")).length, 300)
      assert.isFalse(oddPaths.some((p) => /[02468]$/.test(p)))

      const { key } = yield* BootstrapKey
      const bad = yield* call("POST", "/v2/map", { key, json: { url: `${site.url}/site`, includePaths: ["(unclosed"] } })
      assert.strictEqual(bad.status, 400)
      assert.include(envelope(bad).error, "includePaths[0]")
    }))

  it.effect("robots.txt: disallowed URLs are left out, unless ignoreRobotsTxt", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const polite = yield* Effect.promise(() => firecrawl.map(`${site.url}/site`, { sitemap: "skip", limit: 1000 }))
      assert.isAbove(polite.links.length, 100)
      assert.isFalse(polite.links.some((l) => pathOf(l.url).startsWith("/site/members")))

      const rude = yield* rawMap({ url: `${site.url}/site`, sitemap: "skip", limit: 1000, ignoreRobotsTxt: true })
      assert.include(rude.links.map((l) => pathOf(l.url)), "/site/members/0")
    }))

  it.effect("a sub-path lists what is below it, with a warning when that is next to nothing", () =>
    Effect.gen(function*() {
      const narrow = yield* rawMap({ url: `${site.url}/site/5`, sitemap: "skip" })
      assert.deepStrictEqual(narrow.links.map((l) => pathOf(l.url)), ["/site/5"])
      assert.strictEqual(narrow.warning, `Only 1 result(s) found. For broader coverage, try mapping the base domain: ${site.url}`)

      const wide = yield* rawMap({ url: `${site.url}/site/5`, sitemap: "skip", filterByPath: false, limit: 20 })
      assert.strictEqual(wide.links.length, 20)
      assert.include(wide.links.map((l) => pathOf(l.url)), "/site/6")
      assert.isUndefined(wide.warning)
    }))

  it.effect("timeout: a map that cannot finish in time fails with MAP_TIMEOUT (408) and costs nothing", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const before = yield* usedCredits
      // the page answers after one second
      const error = yield* sdkError(firecrawl.map(`${site.url}/slow`, { timeout: 300 }))
      assert.strictEqual(error.status, 408)
      assert.strictEqual(error.code, "MAP_TIMEOUT")
      assert.match(error.message, /timeout of 300 ms/)
      assert.strictEqual(yield* usedCredits, before)
    }))

  it.effect("credits: one per map, however many links", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const before = yield* usedCredits
      yield* Effect.promise(() => firecrawl.map(`${site.url}/site`))
      assert.strictEqual(yield* usedCredits, before + 1)
      yield* Effect.promise(() => firecrawl.map(`${site.url}/site`, { sitemap: "skip", limit: 5 }))
      assert.strictEqual(yield* usedCredits, before + 2)
    }))
})

describe("map and the SSRF guard", () => {
  layer(env([]), { excludeTestServices: true, timeout: 30_000 })("without allowed networks", (it) => {
    it.effect("a loopback site is refused with UNSAFE_ADDRESS (403), not answered with an empty list", () =>
      Effect.gen(function*() {
        const firecrawl = yield* sdk
        const error = yield* sdkError(firecrawl.map(`${site.url}/site`))
        assert.strictEqual(error.status, 403)
        assert.strictEqual(error.code, "UNSAFE_ADDRESS")
      }))
  })
})
