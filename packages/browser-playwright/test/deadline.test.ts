import { assert, describe, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Option } from "effect"
import { isAlive } from "../src/process-tree.js"
import { browserWith, render, Site, SiteLive, skipWithoutChromium, TestBrowser, textOf } from "./harness.js"

const skip = skipWithoutChromium("deadline.test.ts")

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = Date.now()
    const result = yield* Effect.either(effect)
    return { result, ms: Date.now() - started }
  })

/**
 * Starts rendering a page that never answers and returns once its request reached the site, with
 * the browser it runs on and the pool's stats before: the moment to freeze or kill that browser.
 */
const renderingHangingPage = (path: string, timeoutMs: number) =>
  Effect.gen(function*() {
    const { pool } = yield* TestBrowser
    const site = yield* Site
    yield* render("/")
    const before = yield* pool.stats
    const victim = Option.getOrThrow(yield* pool.current)
    const seen = site.requests.length
    const fiber = yield* Effect.fork(timed(render(path, { timeoutMs })))
    while (!site.requests.slice(seen).some((r) => r.path === path)) yield* Effect.sleep("20 millis")
    return { fiber, victim, before }
  })

describe.skipIf(skip)("deadlines, hangs and crashes", () => {
  layer(Layer.merge(SiteLive, browserWith({ killGraceMs: 1_000 })), { excludeTestServices: true })("real Chromium", (it) => {
    it.effect("a page whose server never answers fails with SCRAPE_TIMEOUT near the deadline; the next render works", () =>
      Effect.gen(function*() {
        for (const path of ["/hang/document", "/hang-image"]) {
          const { ms, result } = yield* timed(render(path, { timeoutMs: 1_500 }))
          assert.isTrue(result._tag === "Left", path)
          if (result._tag === "Left") {
            assert.strictEqual(result.left._tag, "ScrapeTimeoutError")
            assert.strictEqual(result.left.code, "SCRAPE_TIMEOUT")
          }
          assert.isAtLeast(ms, 1_400)
          assert.isBelow(ms, 1_500 + 1_000 + 2_000, `${path} took ${ms} ms`)
          const next = yield* render("/js-load")
          assert.include(textOf(next.html), "Rendered by script after load")
        }
      }))

    it.effect("a page stuck in an endless script times out; the next render works", () =>
      Effect.gen(function*() {
        const { ms, result } = yield* timed(render("/busy", { timeoutMs: 1_500 }))
        assert.isTrue(result._tag === "Left" && result.left._tag === "ScrapeTimeoutError")
        assert.isBelow(ms, 1_500 + 1_000 + 2_000)
        const next = yield* render("/page/after-busy")
        assert.include(textOf(next.html), "script ran on after-busy")
      }))

    it.effect("a browser that stops answering is SIGKILLed after deadline + grace and replaced", () =>
      Effect.gen(function*() {
        const { pool } = yield* TestBrowser
        const { before, fiber, victim } = yield* renderingHangingPage("/hang/frozen", 1_500)
        // freeze every process of the browser: it can no longer close the page's context
        process.kill(-(victim.pgid ?? 0), "SIGSTOP")
        const { ms, result } = yield* Fiber.join(fiber)
        assert.isTrue(result._tag === "Left" && result.left._tag === "ScrapeTimeoutError")
        assert.isBelow(ms, 1_500 + 1_000 + 2_000, `took ${ms} ms`)
        const after = yield* pool.stats
        assert.strictEqual(after.kills, before.kills + 1)
        const next = yield* render("/page/after-freeze")
        assert.include(textOf(next.html), "script ran on after-freeze")
        assert.isFalse(isAlive(victim.pid ?? 0))
      }))

    it.effect("a browser SIGKILLed mid-render fails that render clearly; the next render starts a new browser", () =>
      Effect.gen(function*() {
        const { pool } = yield* TestBrowser
        // once the page's request reached the server, kill the whole browser
        const { before, fiber, victim } = yield* renderingHangingPage("/hang/killed", 20_000)
        assert.isDefined(victim.pgid)
        process.kill(-(victim.pgid ?? 0), "SIGKILL")
        const { ms, result } = yield* Fiber.join(fiber)
        assert.isTrue(result._tag === "Left")
        if (result._tag === "Left") {
          assert.strictEqual(result.left._tag, "ScrapeSiteError")
          assert.include(result.left.message, "browser exited")
        }
        assert.isBelow(ms, 5_000)
        const next = yield* render("/page/after-kill")
        assert.include(textOf(next.html), "script ran on after-kill")
        const after = yield* pool.stats
        assert.strictEqual(after.launches, before.launches + 1)
        assert.isFalse(isAlive(victim.pid ?? 0))
      }))
  })
})
