/**
 * The fallback for a machine with no system Chromium: the binary inside the npm package
 * @sparticuz/chromium unpacks on first use and renders pages like the system one.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { bundledChromium, makePlaywrightBrowser } from "../src/index.js"
import { Site, SiteLive, textOf } from "./harness.js"

describe("the Chromium bundled with @sparticuz/chromium", () => {
  layer(SiteLive, { excludeTestServices: true, timeout: 60_000 })("after pnpm install alone", (it) => {
    it.effect("unpacks to an executable and renders a page whose content a script writes", () =>
      Effect.gen(function*() {
        const path = yield* bundledChromium
        assert.isTrue(Option.isSome(path))
        const site = yield* Site
        const { browser } = yield* makePlaywrightBrowser({ allowedNetworks: ["127.0.0.0/8"], maxContexts: 1 }, Option.getOrThrow(path))
        const page = yield* browser.render({ url: `${site.url}/js-load`, timeoutMs: 30_000 })
        assert.include(textOf(page.html), "Rendered by script after load")
      }).pipe(Effect.scoped))
  })
})
