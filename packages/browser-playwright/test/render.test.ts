import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { browserWith, render, Site, SiteLive, skipWithoutChromium, TestBrowser, textOf } from "./harness.js"

const skip = skipWithoutChromium("render.test.ts")

describe.skipIf(skip)("rendering", () => {
  layer(Layer.merge(SiteLive, browserWith()), { excludeTestServices: true })("real Chromium", (it) => {
    it.effect("content a script adds on load is in the HTML", () =>
      Effect.gen(function*() {
        const page = yield* render("/js-load")
        assert.include(textOf(page.html), "Static heading")
        assert.include(textOf(page.html), "Rendered by script after load")
        assert.strictEqual(page.status, 200)
      }))

    it.effect("waitForMs lets later scripts run; without it their content is missing", () =>
      Effect.gen(function*() {
        const early = yield* render("/js-later")
        assert.notInclude(textOf(early.html), "Arrived 300 ms later")
        const late = yield* render("/js-later", { waitForMs: 800 })
        assert.include(textOf(late.html), "Arrived 300 ms later")
      }))

    it.effect("the final URL after a redirect, and the final status", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const page = yield* render("/redirect")
        assert.strictEqual(page.url, `${site.url}/final`)
        assert.strictEqual(page.status, 200)
        assert.include(textOf(page.html), "Final page")
        const missing = yield* render("/missing")
        assert.strictEqual(missing.status, 404)
        assert.include(textOf(missing.html), "Not here")
      }))

    it.effect("a page that navigates itself by script is read where it ended up", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const page = yield* render("/js-redirect", { waitForMs: 400 })
        assert.strictEqual(page.url, `${site.url}/final`)
        assert.include(textOf(page.html), "Final page")
      }))

    it.effect("desktop: an ordinary Chrome user agent, not HeadlessChrome", () =>
      Effect.gen(function*() {
        const page = yield* render("/device")
        const text = textOf(page.html)
        assert.match(text, /UA=Mozilla\/5\.0 \(X11; Linux x86_64\) .* Chrome\/\d+\.0\.0\.0 Safari\/537\.36/)
        assert.notInclude(text, "Headless")
        assert.include(text, "WIDTH=1280")
      }))

    it.effect("mobile: phone viewport, touch and a mobile Chrome user agent", () =>
      Effect.gen(function*() {
        const page = yield* render("/device", { mobile: true })
        const text = textOf(page.html)
        assert.match(text, /UA=Mozilla\/5\.0 \(Linux; Android 10; K\) .* Chrome\/\d+\.0\.0\.0 Mobile Safari\/537\.36/)
        assert.include(text, "WIDTH=390")
        assert.notInclude(text, "TOUCH=0")
      }))

    it.effect("headers reach the server, a User-Agent header too", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const page = yield* render("/headers", { headers: { "X-Gleaner-Test": "yes please", "User-Agent": "GleanerTest/1.0" } })
        const seen = site.requests.filter((r) => r.path === "/headers").at(-1)
        assert.strictEqual(seen?.headers["x-gleaner-test"], "yes please")
        assert.strictEqual(seen?.headers["user-agent"], "GleanerTest/1.0")
        assert.include(page.html, "yes please")
      }))

    it.effect("renders run concurrently up to maxContexts and all succeed", () =>
      Effect.gen(function*() {
        const pages = yield* Effect.forEach(Array.from({ length: 12 }, (_, i) => i), (i) => render(`/page/${i}`), { concurrency: 8 })
        pages.forEach((page, i) => assert.include(textOf(page.html), `script ran on ${i}`))
        const { pool } = yield* TestBrowser
        const stats = yield* pool.stats
        assert.strictEqual(stats.launches, 1)
      }))
  })
})
