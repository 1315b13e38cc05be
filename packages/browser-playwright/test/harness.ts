/**
 * Shared test wiring: the Chromium to test with (missing → every suite skips loudly, or fails
 * when CI=true), the test site as a scoped layer, and a Playwright browser over given options
 * with its pool exposed so tests can look at launches, process ids and memory.
 */
import { it } from "@effect/vitest"
import type { BrowserService, GleanerError, RenderedPage, RenderRequest } from "@gleaner/core"
import { Context, Effect, Either, Layer, Option } from "effect"
import { type PlaywrightBrowserOptions, type BrowserPool, findChromium, makePlaywrightBrowser } from "../src/index.js"
import { argumentsOf, isAlive, listProcesses, type ProcessEntry } from "../src/process-tree.js"
import { startInternalServer, startTestSite, type InternalServer, type TestSite } from "./site.js"

const found = Effect.runSync(Effect.either(findChromium(process.env)))

/** The Chromium binary the tests drive, or `undefined` when this machine has none. */
export const chromiumPath: string | undefined = Either.isRight(found) ? Option.getOrUndefined(found.right) : undefined

const missingReason = Either.isLeft(found)
  ? found.left.message
  : "no Chromium found (apt-get install -y chromium-headless-shell, or set GLEANER_CHROMIUM_PATH)"

/**
 * Call once per test file. Returns true when the file's suites must be skipped, after saying
 * so loudly; with CI=true a missing Chromium is a failing test instead.
 */
export const skipWithoutChromium = (file: string): boolean => {
  if (chromiumPath !== undefined) return false
  if (process.env["CI"] === "true") {
    it(`${file}: Chromium is required on CI`, () => {
      throw new Error(`CI=true but ${missingReason}`)
    })
    return true
  }
  console.warn(`\n[browser-playwright] SKIPPING ${file}: ${missingReason}\n`)
  return true
}

export class Site extends Context.Tag("test/Site")<Site, TestSite>() {}
export class Internal extends Context.Tag("test/Internal")<Internal, InternalServer>() {}
export class TestBrowser extends Context.Tag("test/TestBrowser")<TestBrowser, {
  readonly browser: BrowserService
  readonly pool: BrowserPool
}>() {}

/** The test site for the current scope. */
export const startTestSiteScoped = Effect.acquireRelease(Effect.promise(startTestSite), (s) => Effect.promise(s.close))
export const SiteLive = Layer.scoped(Site, startTestSiteScoped)
export const InternalLive = Layer.scoped(
  Internal,
  Effect.acquireRelease(Effect.promise(() => startInternalServer()), (s) => Effect.promise(s.close))
)

/** A Playwright browser over the test Chromium; test sites live on loopback, so allow it by default. */
export const browserWith = (options: PlaywrightBrowserOptions = {}) =>
  Layer.scoped(
    TestBrowser,
    makePlaywrightBrowser({ allowedNetworks: ["127.0.0.0/8"], ...options }, chromiumPath ?? "/nonexistent")
  ).pipe(Layer.orDie)

export const defaults = { timeoutMs: 15_000 } as const

/** Renders `path` on the test site (or an absolute URL). */
export const render = (path: string, options: Partial<RenderRequest> = {}): Effect.Effect<RenderedPage, GleanerError, Site | TestBrowser> =>
  Effect.gen(function*() {
    const site = yield* Site
    const { browser } = yield* TestBrowser
    const url = /^[a-z]+:/i.test(path) ? path : `${site.url}${path}`
    return yield* browser.render({ ...defaults, ...options, url })
  })

/** The text content of the HTML, tags stripped, for loose assertions. */
export const textOf = (html: string): string => html.replace(/<script[\s\S]*?<\/script>/g, " ").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ")

/** Processes descending from this test process whose command line names Chromium. */
export const ourChromiumProcesses = (): ReadonlyArray<ProcessEntry> => {
  const all = listProcesses()
  const parent = new Map(all.map((p) => [p.pid, p.ppid]))
  const descendsFromUs = (pid: number): boolean => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && hops < 64; p = parent.get(p), hops++) if (p === process.pid) return true
    return false
  }
  return all.filter((p) => isAlive(p.pid) && descendsFromUs(p.pid) && argumentsOf(p.pid).some((a) => a.includes("chromium")))
}

