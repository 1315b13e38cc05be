/**
 * Actions, screenshots and request filtering in real Chromium: a form filled and submitted, every
 * matching button clicked, full-page and viewport screenshots (PNG and JPEG), the per-action
 * results (screenshots, scrapes, JavaScript returns, PDFs), an action that fails named in its
 * error, ads and heavy media refused, and the page's locale and time zone.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { browserWith, render, Site, SiteLive, skipWithoutChromium, textOf } from "./harness.js"

const skip = skipWithoutChromium("actions.test.ts")

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}
const isPng = (bytes: Uint8Array) => bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47
const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8

describe.skipIf(skip)("actions and screenshots", () => {
  layer(Layer.merge(SiteLive, browserWith()), { excludeTestServices: true })("real Chromium", (it) => {
    it.effect("click, write and press fill a form; the page read is the one the form led to", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const page = yield* render("/form", {
          actions: [{ type: "click", selector: "#name" }, { type: "write", text: "Ada Lovelace" }, { type: "press", key: "Enter" }]
        })
        assert.include(textOf(page.html), "Hello, Ada Lovelace")
        assert.strictEqual(page.url, `${site.url}/greet?name=Ada+Lovelace`)
        assert.deepStrictEqual(page.actions, { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] })
      }))

    it.effect("click with all clicks every match; without it only the first", () =>
      Effect.gen(function*() {
        const all = yield* render("/buttons", { actions: [{ type: "click", selector: "button.more", all: true }] })
        for (const n of [1, 2, 3]) assert.include(textOf(all.html), `opened ${n}`)
        const first = yield* render("/buttons", { actions: [{ type: "click", selector: "button.more" }] })
        assert.include(textOf(first.html), "opened 1")
        assert.notInclude(textOf(first.html), "opened 2")
      }))

    it.effect("screenshots: viewport PNG, full-page PNG, JPEG with a quality, a set viewport", () =>
      Effect.gen(function*() {
        const viewport = yield* render("/tall", { screenshot: {} })
        assert.strictEqual(viewport.screenshot?.contentType, "image/png")
        const shot = viewport.screenshot?.bytes ?? new Uint8Array()
        assert.isTrue(isPng(shot))
        assert.deepStrictEqual(pngSize(shot), { width: 1280, height: 800 })

        const full = yield* render("/tall", { screenshot: { fullPage: true } })
        assert.isAtLeast(pngSize(full.screenshot?.bytes ?? new Uint8Array(24)).height, 3000)

        const jpeg = yield* render("/tall", { screenshot: { quality: 50 } })
        assert.strictEqual(jpeg.screenshot?.contentType, "image/jpeg")
        assert.isTrue(isJpeg(jpeg.screenshot?.bytes ?? new Uint8Array()))

        const sized = yield* render("/tall", { screenshot: { viewport: { width: 640, height: 480 } } })
        assert.deepStrictEqual(pngSize(sized.screenshot?.bytes ?? new Uint8Array(24)), { width: 640, height: 480 })
      }))

    it.effect("action results: screenshots, scrapes, JavaScript returns and PDFs, in order", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const page = yield* render("/buttons", {
          actions: [
            { type: "scrape" },
            { type: "click", selector: "button.more" },
            { type: "wait", milliseconds: 50 },
            { type: "scrape" },
            { type: "executeJavascript", script: "return document.querySelectorAll('#log p').length * 21" },
            { type: "executeJavascript", script: "document.title = 'changed'" },
            { type: "screenshot", fullPage: true },
            { type: "scroll", direction: "down" },
            { type: "pdf", format: "A4" }
          ]
        })
        const actions = page.actions
        assert.isDefined(actions)
        if (actions === undefined) return
        assert.strictEqual(actions.scrapes.length, 2)
        assert.strictEqual(actions.scrapes[0]?.url, `${site.url}/buttons`)
        assert.notInclude(textOf(actions.scrapes[0]?.html ?? ""), "opened 1")
        assert.include(textOf(actions.scrapes[1]?.html ?? ""), "opened 1")
        assert.deepStrictEqual(actions.javascriptReturns, [{ type: "number", value: 21 }, { type: "undefined", value: undefined }])
        assert.strictEqual(actions.screenshots.length, 1)
        assert.isTrue(isPng(actions.screenshots[0]?.bytes ?? new Uint8Array()))
        assert.strictEqual(actions.pdfs.length, 1)
        assert.strictEqual(new TextDecoder().decode(actions.pdfs[0]?.bytes.slice(0, 5)), "%PDF-")
        assert.include(page.html, "<title>changed</title>")
      }))

    it.effect("a failing action ends the render with SCRAPE_ACTION_ERROR naming it", () =>
      Effect.gen(function*() {
        const started = Date.now()
        const error = yield* Effect.flip(render("/buttons", {
          timeoutMs: 3_000,
          actions: [{ type: "click", selector: "button.more" }, { type: "click", selector: "#no-such-button" }]
        }))
        assert.strictEqual(error._tag, "ScrapeActionError")
        assert.strictEqual(error.code, "SCRAPE_ACTION_ERROR")
        assert.include(error.message, `Action 2 (click "#no-such-button") failed`)
        assert.isBelow(Date.now() - started, 10_000)
        const script = yield* Effect.flip(render("/buttons", { actions: [{ type: "executeJavascript", script: "throw new Error('boom in page')" }] }))
        assert.strictEqual(script._tag, "ScrapeActionError")
        assert.include(script.message, "boom in page")
      }))

    it.effect("blockAds refuses ad hosts; heavy media stays unloaded unless the page is looked at", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const assets = () => site.requests.filter((r) => r.path.startsWith("/asset/")).length
        const before = assets()
        const light = yield* render("/media", { blockAds: true, blockHeavyMedia: true })
        assert.include(textOf(light.html), "Media page text")
        assert.strictEqual(assets(), before)
        assert.isTrue((light.blockedRequests ?? []).some((b) => b.url.startsWith("http://ads.doubleclick.net/") && b.reason.includes("blockAds")))
        yield* render("/media", { blockAds: true, blockHeavyMedia: false })
        assert.isAbove(assets(), before)
      }))

    it.effect("locale and time zone reach the page", () =>
      Effect.gen(function*() {
        const page = yield* render("/clock", { locale: "de-DE", timezoneId: "Asia/Tokyo" })
        assert.include(textOf(page.html), "ZONE=Asia/Tokyo LANG=de-DE")
      }))
  })
})
