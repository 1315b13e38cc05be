/**
 * A soak under abuse: 300 renders, 4 at a time, where every 20th page never gets an answer and
 * every 30th kills the browser while it renders. Afterwards, with the pool closed, not one
 * Chromium process this test started may be left, nor any of its profile directories. The
 * peak memory of the Chromium processes is printed for the docs.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Either, Fiber, Option, Schedule } from "effect"
import { existsSync } from "node:fs"
import { makePlaywrightBrowser } from "../src/index.js"
import { isAlive, rssOf } from "../src/process-tree.js"
import { chromiumPath, ourChromiumProcesses, Site, SiteLive, skipWithoutChromium } from "./harness.js"

const skip = skipWithoutChromium("leak.test.ts")

const renders = 300
const kind = (i: number): "kill" | "hang" | "page" => (i % 30 === 0 ? "kill" : i % 20 === 0 ? "hang" : "page")

describe.skipIf(skip)("no leaks under abuse", () => {
  layer(SiteLive, { excludeTestServices: true })("300 renders", (it) => {
    it.effect("hangs and kills leave no Chromium process or profile behind", () =>
      Effect.gen(function*() {
        const site = yield* Site
        const started = Date.now()
        let peakTreeRss = 0
        const outcome = yield* Effect.scoped(Effect.gen(function*() {
          const { browser, pool } = yield* makePlaywrightBrowser(
            { allowedNetworks: ["127.0.0.0/8"], maxContexts: 4, killGraceMs: 1_000 },
            chromiumPath ?? "/nonexistent"
          ).pipe(Effect.orDie)
          site.onKill = () => {
            const current = Effect.runSync(pool.current)
            if (Option.isSome(current) && current.value.pgid !== undefined) process.kill(-current.value.pgid, "SIGKILL")
          }
          const sampler = yield* Effect.fork(Effect.repeat(
            Effect.sync(() => {
              peakTreeRss = Math.max(peakTreeRss, ourChromiumProcesses().reduce((sum, p) => sum + rssOf(p.pid), 0))
            }),
            Schedule.spaced("200 millis")
          ))
          const results = yield* Effect.forEach(
            Array.from({ length: renders }, (_, i) => i + 1),
            (i) => {
              const path = kind(i) === "kill" ? `/kill/${i}` : kind(i) === "hang" ? `/hang/${i}` : `/page/${i}`
              // only the hanging pages are meant to time out; the others get room for a loaded machine
              const timeoutMs = kind(i) === "hang" ? 1_500 : 15_000
              return Effect.either(browser.render({ url: `${site.url}${path}`, timeoutMs })).pipe(Effect.map((r) => ({ i, r })))
            },
            { concurrency: 4 }
          )
          yield* Fiber.interrupt(sampler)
          return { results, stats: yield* pool.stats }
        }))
        const closedAt = Date.now()

        const { results, stats } = outcome
        const other: Array<string> = []
        const tally = { ok: 0, timeout: 0, exited: 0, other }
        for (const { i, r } of results) {
          if (Either.isRight(r)) {
            tally.ok += 1
            assert.include(r.right.html, `Page ${i}`)
          } else if (r.left._tag === "ScrapeTimeoutError") tally.timeout += 1
          else if (r.left._tag === "ScrapeSiteError" && r.left.message.includes("browser exited")) tally.exited += 1
          else tally.other.push(`${i}: ${r.left._tag} ${r.left.message}`)
          if (kind(i) === "hang") assert.isTrue(Either.isLeft(r), `hanging page ${i} succeeded`)
          if (Either.isLeft(r) && r.left._tag === "ScrapeTimeoutError") assert.notStrictEqual(kind(i), "page", `page ${i} timed out`)
        }

        // after close: nothing this test started is alive, and the profiles are gone
        const leftovers = ourChromiumProcesses()
        const liveLaunches = stats.launched.filter((l) => isAlive(l.pid ?? 0))
        const profilesLeft = stats.launched.filter((l) => l.userDataDir !== undefined && existsSync(l.userDataDir))
        console.log(
          `[leak test] ${renders} renders in ${closedAt - started} ms: ${tally.ok} ok, ${tally.timeout} timed out, ` +
            `${tally.exited} lost to a killed browser, ${tally.other.length} other; launches ${stats.launches}, ` +
            `hang kills ${stats.kills}, recycles ${stats.recycles}; peak RSS of one browser tree ` +
            `${(stats.peakRssBytes / 1024 ** 2).toFixed(0)} MB, of all Chromium processes ${(peakTreeRss / 1024 ** 2).toFixed(0)} MB; ` +
            `left after close: ${leftovers.length} processes, ${profilesLeft.length} profiles`
        )
        assert.deepStrictEqual(tally.other, [])
        assert.deepStrictEqual(leftovers, [])
        assert.deepStrictEqual(liveLaunches, [])
        assert.deepStrictEqual(profilesLeft.map((l) => l.userDataDir), [])
        assert.isAtLeast(tally.ok, 200)
        assert.isAtLeast(stats.launches, 10)
        assert.isTrue(stats.launched.every((l) => l.pid !== undefined && l.userDataDir !== undefined))
      }), { timeout: 150_000 })
  })
})
