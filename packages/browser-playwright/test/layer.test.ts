import { assert, describe, it } from "@effect/vitest"
import { Browser, GleanerConfig } from "@gleaner/core"
import { Effect, Layer } from "effect"
import { BrowserOptionsError, PlaywrightBrowser, ChromiumPathError } from "../src/index.js"
import { chromiumPath, ourChromiumProcesses, skipWithoutChromium, startTestSiteScoped, textOf } from "./harness.js"

const skip = skipWithoutChromium("layer.test.ts")

const buildError = (layer: Layer.Layer<Browser, ChromiumPathError | BrowserOptionsError>) => Effect.flip(Effect.scoped(Layer.build(layer)))

describe("PlaywrightBrowser.layer", () => {
  it.effect("an explicit chromiumPath that does not exist fails the layer with a clear message", () =>
    Effect.gen(function*() {
      const error = yield* buildError(PlaywrightBrowser.layer({ chromiumPath: "/nonexistent/chromium" }))
      assert.strictEqual(error._tag, "ChromiumPathError")
      assert.include(error.message, "chromiumPath=/nonexistent/chromium does not exist")
    }))

  it.effect("invalid options fail the layer", () =>
    Effect.gen(function*() {
      const error = yield* buildError(PlaywrightBrowser.layer({ maxContexts: 0 }))
      assert.strictEqual(error._tag, "BrowserOptionsError")
      assert.include(error.message, "maxContexts")
    }))

  it.effect.skipIf(skip)("bad allowedNetworks fail the layer", () =>
    Effect.gen(function*() {
      const error = yield* buildError(PlaywrightBrowser.layer({ chromiumPath: chromiumPath ?? "", allowedNetworks: ["10.0.0.0/33"] }))
      assert.strictEqual(error._tag, "BrowserOptionsError")
      assert.include(error.message, "10.0.0.0/33")
    }))

  it.live.skipIf(skip)("with Chromium: available, renders, and launches nothing until the first render", () =>
    Effect.gen(function*() {
      const site = yield* startTestSiteScoped
      const browser = yield* Browser
      assert.isTrue(browser.available)
      assert.deepStrictEqual(ourChromiumProcesses(), [])
      const page = yield* browser.render({ url: `${site.url}/js-load`, timeoutMs: 15_000 })
      assert.include(textOf(page.html), "Rendered by script after load")
    }).pipe(Effect.provide(PlaywrightBrowser.layer({ allowedNetworks: ["127.0.0.0/8"] })), Effect.scoped))

  it.live.skipIf(skip)("layerConfig takes allowedNetworks from GleanerConfig", () =>
    Effect.gen(function*() {
      const site = yield* startTestSiteScoped
      const browser = yield* Browser
      const error = yield* Effect.flip(browser.render({ url: site.url, timeoutMs: 15_000 }))
      assert.strictEqual(error._tag, "UnsafeAddressError")
    }).pipe(Effect.provide(PlaywrightBrowser.layerConfig().pipe(Layer.provide(GleanerConfig.layer({ allowedNetworks: [] })))), Effect.scoped))
})
