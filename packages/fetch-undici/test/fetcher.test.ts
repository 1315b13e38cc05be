import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { articleHtml, articleTitle, encodedPages, fixturePdf } from "@gleaner/fixture-site"
import { defaultUserAgent } from "../src/index.js"
import { fetchPath, Site, TestLive, text } from "./harness.js"

const echo = (body: Uint8Array): { method: string; headers: Record<string, string> } => JSON.parse(text(body))

layer(TestLive, { excludeTestServices: true })("UndiciFetcher", (it) => {
  describe("responses", () => {
    it.effect("fetches a page with its status, headers and bytes", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const res = yield* fetchPath("/article")
        assert.strictEqual(res.status, 200)
        assert.strictEqual(res.url, `${site.url}/article`)
        assert.strictEqual(res.headers["content-type"], "text/html; charset=utf-8")
        assert.include(text(res.body), `<h1>${articleTitle}</h1>`)
      }))

    it.effect("returns upstream 4xx and 5xx as responses, not errors", () =>
      Effect.gen(function*() {
        for (const code of [403, 404, 500]) {
          const res = yield* fetchPath(`/status/${code}`)
          assert.strictEqual(res.status, code)
          assert.include(text(res.body), `<h1>${code}`)
        }
      }))

    it.effect("passes bytes through untouched: charset decoding is the caller's", () =>
      Effect.gen(function*() {
        const sjis = yield* fetchPath("/encodings/shift-jis")
        assert.deepStrictEqual(sjis.body, encodedPages["shift-jis"]?.bytes)
        assert.deepStrictEqual((yield* fetchPath("/pdf")).body, fixturePdf())
        assert.strictEqual((yield* fetchPath("/no-content-type")).headers["content-type"], undefined)
        assert.include((yield* fetchPath("/json")).headers["content-type"], "application/json")
      }))

    it.effect("sends HEAD and POST", () =>
      Effect.gen(function*() {
        const head = yield* fetchPath("/article", { method: "HEAD" })
        assert.strictEqual(head.status, 200)
        assert.strictEqual(head.body.length, 0)
        const post = yield* fetchPath("/headers", { method: "POST", body: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } })
        assert.strictEqual(echo(post.body).method, "POST")
      }))
  })

  describe("headers", () => {
    it.effect("look like a desktop Chrome by default", () =>
      Effect.gen(function*() {
        const { headers } = echo((yield* fetchPath("/headers")).body)
        assert.strictEqual(headers["user-agent"], defaultUserAgent)
        assert.include(headers["user-agent"], "Chrome/")
        assert.include(headers["accept"], "text/html")
        assert.strictEqual(headers["accept-language"], "en-US,en;q=0.9")
        assert.strictEqual(headers["accept-encoding"], "gzip, deflate, br")
      }))

    it.effect("carry the caller's headers, but not transport headers", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const given = { "User-Agent": "Mobile Safari probe", "Accept-Language": "de-CH", "X-Probe": "1", Host: "evil.example", "Accept-Encoding": "zstd" }
        const { headers } = echo((yield* fetchPath("/headers", { headers: given })).body)
        assert.strictEqual(headers["user-agent"], "Mobile Safari probe")
        assert.strictEqual(headers["accept-language"], "de-CH")
        assert.strictEqual(headers["x-probe"], "1")
        assert.strictEqual(headers["host"], new URL(site.url).host)
        assert.strictEqual(headers["accept-encoding"], "gzip, deflate, br")
      }))
  })

  describe("redirects", () => {
    it.effect("are followed, and the response carries the final URL", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const res = yield* fetchPath("/redirect/5")
        assert.strictEqual(res.status, 200)
        assert.strictEqual(res.url, `${site.url}/redirect/0`)
        assert.include(text(res.body), "Redirect chain end")
        assert.strictEqual((yield* fetchPath("/redirect/10")).status, 200)
      }))

    it.effect("stop after maxRedirects with a clear error", () =>
      Effect.gen(function*() {
        const tooMany = yield* Effect.flip(fetchPath("/redirect/11"))
        assert.strictEqual(tooMany._tag, "ScrapeSiteError")
        assert.strictEqual(tooMany.message, "Too many redirects (more than 10)")
        const custom = yield* Effect.flip(fetchPath("/redirect/3", { maxRedirects: 2 }))
        assert.strictEqual(custom.message, "Too many redirects (more than 2)")
        const loop = yield* Effect.flip(fetchPath("/redirect-loop"))
        assert.deepStrictEqual([loop._tag, loop.message], ["ScrapeSiteError", "Too many redirects (more than 10)"])
      }))

    it.effect("turn POST into GET on 303, keep it on 307", () =>
      Effect.gen(function*() {
        const post = { method: "POST", body: "x=1", headers: { "content-type": "text/plain" } } as const
        const after303 = echo((yield* fetchPath(`/redirect-to?status=303&url=${encodeURIComponent("/headers")}`, post)).body)
        assert.strictEqual(after303.method, "GET")
        assert.strictEqual(after303.headers["content-type"], undefined)
        const after307 = echo((yield* fetchPath(`/redirect-to?status=307&url=${encodeURIComponent("/headers")}`, post)).body)
        assert.strictEqual(after307.method, "POST")
      }))

    it.effect("refuse non-http targets", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(fetchPath(`/redirect-to?url=${encodeURIComponent("file:///etc/passwd")}`))
        assert.strictEqual(error._tag, "ScrapeSiteError")
        assert.include(error.message, "unsupported protocol (file:)")
        const first = yield* Effect.flip(fetchPath("ftp://example.com/"))
        assert.strictEqual(first._tag, "BadRequestError")
      }))

    it.effect("carry cookies set along the chain", () =>
      Effect.gen(function*() {
        const res = yield* fetchPath("/cookies/set?flavour=rye", { headers: { cookie: "mine=1" } })
        assert.deepStrictEqual(JSON.parse(text(res.body)), { cookies: { mine: "1", flavour: "rye" } })
      }))

    it.effect("drop the caller's credentials when leaving the site", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const elsewhere = site.url.replace("127.0.0.1", "localhost") + "/headers"
        const auth = { headers: { authorization: "Bearer secret", cookie: "sid=1", "x-keep": "yes" } }
        const { headers } = echo((yield* fetchPath(`/redirect-to?url=${encodeURIComponent(elsewhere)}`, auth)).body)
        assert.strictEqual(headers["authorization"], undefined)
        assert.strictEqual(headers["cookie"], undefined)
        assert.strictEqual(headers["x-keep"], "yes")
        const same = echo((yield* fetchPath(`/redirect-to?url=${encodeURIComponent("/headers")}`, auth)).body)
        assert.strictEqual(same.headers["authorization"], "Bearer secret")
      }))
  })

  describe("deadline", () => {
    it.effect("covers waiting for headers", () =>
      Effect.gen(function*() {
        const started = Date.now()
        const error = yield* Effect.flip(fetchPath("/slow?ms=5000", { timeoutMs: 300 }))
        assert.deepStrictEqual([error._tag, error.message], ["ScrapeTimeoutError", "Request timed out after 300 ms"])
        assert.isBelow(Date.now() - started, 2000)
      }))

    it.effect("covers the body and the whole redirect chain", () =>
      Effect.gen(function*() {
        const body = yield* Effect.flip(fetchPath("/slow?ms=5000&phase=body", { timeoutMs: 300 }))
        assert.strictEqual(body._tag, "ScrapeTimeoutError")
        const slowHop = encodeURIComponent("/slow?ms=250")
        const chain = yield* Effect.flip(fetchPath(`/redirect-to?url=${encodeURIComponent(`/redirect-to?url=${slowHop}`)}`, { timeoutMs: 200 }))
        assert.strictEqual(chain._tag, "ScrapeTimeoutError")
        assert.strictEqual((yield* fetchPath("/slow?ms=50", { timeoutMs: 2000 })).status, 200)
      }))
  })

  describe("bodies", () => {
    it.effect("are decompressed (gzip, deflate, raw deflate, brotli)", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const expected = articleHtml(site.url)
        for (const encoding of ["gzip", "deflate", "deflate-raw", "br"]) {
          const res = yield* fetchPath(`/compressed/${encoding}`)
          assert.strictEqual(text(res.body), expected, encoding)
          assert.strictEqual(res.headers["content-encoding"], undefined)
          assert.strictEqual(res.headers["content-length"], undefined)
        }
      }))

    it.effect("refuse decompression bombs at the cap", () =>
      Effect.gen(function*() {
        for (const path of ["/gzip-bomb", "/deflate-bomb", "/brotli-bomb"]) {
          const started = Date.now()
          const error = yield* Effect.flip(fetchPath(path, { maxBodyBytes: 5 * 1024 * 1024 }))
          assert.strictEqual(error._tag, "ScrapeSiteError", path)
          assert.strictEqual(error.message, "Response body is larger than the limit of 5242880 bytes once decompressed (maxBodyBytes)")
          assert.isBelow(Date.now() - started, 3000)
        }
      }))

    it.effect("refuse huge bodies, streamed or announced", () =>
      Effect.gen(function*() {
        const streamed = yield* Effect.flip(fetchPath("/huge?mb=512", { maxBodyBytes: 2 * 1024 * 1024 }))
        assert.strictEqual(streamed.message, "Response body is larger than the limit of 2097152 bytes (maxBodyBytes)")
        const announced = yield* Effect.flip(fetchPath("/huge?mb=512&length=1", { maxBodyBytes: 2 * 1024 * 1024 }))
        assert.strictEqual(announced._tag, "ScrapeSiteError")
        assert.strictEqual((yield* fetchPath("/huge?mb=2", { maxBodyBytes: 2 * 1024 * 1024 })).body.length, 2 * 1024 * 1024)
      }))
  })

  describe("transport failures", () => {
    it.effect("a refused connection is a site error naming the code", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(fetchPath("http://127.0.0.1:9/"))
        assert.strictEqual(error._tag, "ScrapeSiteError")
        assert.include(error.message, "ECONNREFUSED")
      }))

    it.effect("an unknown host is a DNS error", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(fetchPath("http://does-not-exist.invalid/"))
        assert.deepStrictEqual([error._tag, error.code, error.message], [
          "ScrapeDnsError",
          "SCRAPE_DNS_RESOLUTION_ERROR",
          "DNS resolution failed for hostname does-not-exist.invalid"
        ])
      }))
  })
})
