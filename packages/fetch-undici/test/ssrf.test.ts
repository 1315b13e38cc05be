import { assert, layer } from "@effect/vitest"
import { errorStatus, type GleanerError } from "@gleaner/core"
import { Effect, Layer } from "effect"
import { fetchPath, fetcherWith, Site, SiteLive, text } from "./harness.js"

const assertUnsafe = (error: GleanerError, ...words: ReadonlyArray<string>) => {
  assert.strictEqual(error._tag, "UnsafeAddressError")
  assert.strictEqual(error.code, "UNSAFE_ADDRESS")
  assert.strictEqual(errorStatus(error.code), 403)
  assert.include(error.message, "GLEANER_ALLOWED_NETWORKS")
  for (const word of words) assert.include(error.message, word)
}

/** The site's URL with another host in place of 127.0.0.1. */
const withHost = (siteUrl: string, host: string, path = "/article") => `${siteUrl.replace("127.0.0.1", host)}${path}`

layer(Layer.merge(SiteLive, fetcherWith([])), { excludeTestServices: true })("SSRF guard, default configuration", (it) => {
  it.effect("refuses loopback by address", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fetchPath("/article"))
      assertUnsafe(error, "127.0.0.1 is a loopback address")
    }))

  it.effect("refuses loopback by name: localhost resolves to it", () =>
    Effect.gen(function*() {
      const site = yield* Site
      const error = yield* Effect.flip(fetchPath(withHost(site.url, "localhost")))
      assertUnsafe(error, "Blocked localhost", "loopback")
    }))

  it.effect("refuses IPv6 and numeric spellings of loopback", () =>
    Effect.gen(function*() {
      const site = yield* Site
      for (const host of ["[::1]", "0x7f000001", "2130706433", "127.1", "0177.0.0.1", "[::ffff:127.0.0.1]"]) {
        const error = yield* Effect.flip(fetchPath(withHost(site.url, host)))
        assertUnsafe(error, "loopback")
      }
    }))

  it.effect("refuses private, link-local and metadata addresses without connecting", () =>
    Effect.gen(function*() {
      for (const [url, words] of [
        ["http://169.254.169.254/latest/meta-data", "cloud metadata"],
        ["http://[fd00:ec2::254]/", "cloud metadata"],
        ["http://10.0.0.1/", "private"],
        ["http://192.168.1.1/", "private"],
        ["http://[fe80::1]/", "link-local"],
        ["http://0.0.0.0/", "unspecified"]
      ] as const) {
        const started = Date.now()
        assertUnsafe(yield* Effect.flip(fetchPath(url)), words)
        assert.isBelow(Date.now() - started, 1000)
      }
    }))

  it.effect("checks the target before using a proxy", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fetchPath("http://169.254.169.254/", { proxyUrl: "http://127.0.0.1:9" }))
      assertUnsafe(error, "cloud metadata")
    }))
})

layer(Layer.merge(SiteLive, fetcherWith(["127.0.0.1/32"])), { excludeTestServices: true })("SSRF guard, one allowed host", (it) => {
  it.effect("lets the allowed range through", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* fetchPath("/article")).status, 200)
    }))

  it.effect("re-checks every redirect hop", () =>
    Effect.gen(function*() {
      const site = yield* Site
      for (const [target, words] of [
        ["http://169.254.169.254/latest/meta-data", "169.254.169.254 is a cloud metadata address"],
        ["http://[::1]/", "loopback"],
        [withHost(site.url, "127.0.0.2"), "127.0.0.2 is a loopback address"]
      ] as const) {
        const error = yield* Effect.flip(fetchPath(`/redirect-to?url=${encodeURIComponent(target)}`))
        assertUnsafe(error, words)
      }
    }))
})

layer(Layer.merge(SiteLive, fetcherWith(["127.0.0.0/8", "::1/128"])), { excludeTestServices: true })("SSRF guard, loopback allowed", (it) => {
  it.effect("resolves names and connects to the checked address", () =>
    Effect.gen(function*() {
      const site = yield* Site
      const res = yield* fetchPath(withHost(site.url, "localhost", "/headers"))
      assert.strictEqual(res.status, 200)
      assert.include(text(res.body), `"host":"localhost:${site.port}"`)
    }))
})
