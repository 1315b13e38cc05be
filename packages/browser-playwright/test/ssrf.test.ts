import { assert, describe, layer } from "@effect/vitest"
import { errorStatus, type GleanerError } from "@gleaner/core"
import { Effect, Layer } from "effect"
import { browserWith, Internal, InternalLive, render, Site, SiteLive, skipWithoutChromium, TestBrowser, textOf } from "./harness.js"

const skip = skipWithoutChromium("ssrf.test.ts")

const assertUnsafe = (error: GleanerError, ...words: ReadonlyArray<string>) => {
  assert.strictEqual(error._tag, "UnsafeAddressError", error.message)
  assert.strictEqual(error.code, "UNSAFE_ADDRESS")
  assert.strictEqual(errorStatus(error.code), 403)
  assert.include(error.message, "GLEANER_ALLOWED_NETWORKS")
  for (const word of words) assert.include(error.message, word)
}

const launches = Effect.flatMap(TestBrowser, ({ pool }) => Effect.map(pool.stats, (s) => s.launches))

describe.skipIf(skip)("SSRF guard in the browser", () => {
  layer(Layer.mergeAll(SiteLive, browserWith({ allowedNetworks: [] })), { excludeTestServices: true })("default networks", (it) => {
    it.effect("a private first URL is refused before any browser starts", () =>
      Effect.gen(function*() {
        const site = yield* Site
        assertUnsafe(yield* Effect.flip(render("/")), "127.0.0.1 is a loopback address")
        assertUnsafe(yield* Effect.flip(render(site.url.replace("127.0.0.1", "localhost"))), "Blocked localhost", "loopback")
        assertUnsafe(yield* Effect.flip(render("http://169.254.169.254/latest/meta-data")), "cloud metadata")
        assertUnsafe(yield* Effect.flip(render("http://[::ffff:10.0.0.1]/")), "private")
        assert.strictEqual(yield* launches, 0)
      }))

    it.effect("other schemes are bad requests, also before launching: chrome://crash, file:, javascript:", () =>
      Effect.gen(function*() {
        for (const url of ["chrome://crash", "file:///etc/passwd", "javascript:alert(1)", "http://user:pw@example.com/"]) {
          const error = yield* Effect.flip(render(url))
          assert.strictEqual(error._tag, "BadRequestError", url)
        }
        assert.strictEqual(yield* launches, 0)
      }))
  })

  layer(Layer.mergeAll(SiteLive, browserWith({ allowedNetworks: ["127.0.0.0/8"] })), { excludeTestServices: true })(
    "loopback allowed (127.0.0.0/8)",
    (it) => {
      it.effect("the page renders while its fetches to metadata and private addresses are refused", () =>
        Effect.gen(function*() {
          const targets = ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/"]
          const page = yield* render(`/probe?${targets.map((u) => `u=${encodeURIComponent(u)}`).join("&")}`, { waitForMs: 300 })
          const text = textOf(page.html)
          assert.include(text, "Probe page text")
          for (const target of targets) assert.include(text, `${target} :: refused TypeError`)
          assert.deepStrictEqual(page.blockedRequests?.map((b) => b.url).sort(), [...targets].sort())
          assert.include(page.blockedRequests?.find((b) => b.url.includes("169.254"))?.reason, "cloud metadata")
          assert.include(page.blockedRequests?.find((b) => b.url.includes("10.0.0.1"))?.reason, "private")
        }))
    }
  )

  // Only 127.0.0.1 is allowed; the "internal" server on 127.0.0.2 must receive no connection at all.
  layer(Layer.mergeAll(SiteLive, InternalLive, browserWith({ allowedNetworks: ["127.0.0.1/32"] })), { excludeTestServices: true })(
    "redirects, sub-resources and sockets toward a refused address",
    (it) => {
      it.effect("a redirect of the main document to a refused address fails with UNSAFE_ADDRESS", () =>
        Effect.gen(function*() {
          const internal = yield* Internal
          const error = yield* Effect.flip(render(`/redirect-to?to=${encodeURIComponent(`${internal.url}/secret`)}`))
          assertUnsafe(error, "127.0.0.2", "loopback")
          const https = yield* Effect.flip(render(`/redirect-to?to=${encodeURIComponent(`https://127.0.0.2:${internal.port}/secret`)}`))
          assertUnsafe(https, "127.0.0.2")
          assert.strictEqual(internal.connections(), 0)
        }))

      it.effect("a fetch that redirects to a refused address gets nothing from it", () =>
        Effect.gen(function*() {
          const internal = yield* Internal
          const hop = `/redirect-to?to=${encodeURIComponent(`${internal.url}/secret`)}`
          const page = yield* render(`/probe?u=${encodeURIComponent(hop)}`, { waitForMs: 300 })
          const text = textOf(page.html)
          assert.include(text, "Probe page text")
          assert.notInclude(text, "INTERNAL SECRET")
          assert.include(text, `${hop} ::`)
          assert.strictEqual(internal.connections(), 0)
        }))

      it.effect("images, frames and WebSockets toward a refused address never connect", () =>
        Effect.gen(function*() {
          const internal = yield* Internal
          const embed = yield* render(`/embed?src=${encodeURIComponent(`${internal.url}/pixel`)}`)
          assert.include(textOf(embed.html), "Embed page text")
          assert.isTrue((embed.blockedRequests?.length ?? 0) >= 1)
          const socket = yield* render(`/socket?to=${encodeURIComponent(`ws://${internal.host}:${internal.port}/`)}`, { waitForMs: 300 })
          assert.include(textOf(socket.html), "Socket page text")
          assert.notInclude(textOf(socket.html), "open")
          assert.strictEqual(internal.connections(), 0)
        }))
    }
  )
})
