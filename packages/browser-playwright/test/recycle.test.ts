import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { existsSync } from "node:fs"
import type { LaunchRecord } from "../src/index.js"
import { isAlive } from "../src/process-tree.js"
import { browserWith, render, SiteLive, skipWithoutChromium, TestBrowser, textOf } from "./harness.js"

const skip = skipWithoutChromium("recycle.test.ts")

/** Waits (briefly) for retired browsers to end in the background. */
const settled = (records: ReadonlyArray<LaunchRecord>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 100 && records.some((r) => isAlive(r.pid ?? 0)); i++) yield* Effect.sleep("50 millis")
  })

describe.skipIf(skip)("recycling", () => {
  layer(Layer.merge(SiteLive, browserWith({ pagesPerBrowser: 3 })), { excludeTestServices: true })("after N pages", (it) => {
    it.effect("a browser is replaced after pagesPerBrowser pages and the old one ends", () =>
      Effect.gen(function*() {
        const { pool } = yield* TestBrowser
        for (let i = 0; i < 7; i++) assert.include(textOf((yield* render(`/page/${i}`)).html), `script ran on ${i}`)
        const stats = yield* pool.stats
        assert.strictEqual(stats.launches, 3)
        assert.strictEqual(stats.recycles, 2)
        const retired = stats.launched.slice(0, 2)
        yield* settled(retired)
        for (const record of retired) {
          assert.isFalse(isAlive(record.pid ?? 0), `browser ${record.id} still running`)
          assert.isFalse(record.userDataDir !== undefined && existsSync(record.userDataDir), `profile ${record.userDataDir} left behind`)
        }
      }))
  })

  layer(Layer.merge(SiteLive, browserWith({ maxRssBytes: 1 })), { excludeTestServices: true })("over the memory limit", (it) => {
    it.effect("a browser over maxRssBytes is replaced after its page", () =>
      Effect.gen(function*() {
        const { pool } = yield* TestBrowser
        yield* render("/page/a")
        yield* render("/page/b")
        const stats = yield* pool.stats
        assert.strictEqual(stats.launches, 2)
        assert.isAbove(stats.peakRssBytes, 10 * 1024 * 1024)
      }))
  })
})
