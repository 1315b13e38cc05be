/**
 * The Browser port over playwright-core and a system Chromium. Options are decoded once (with
 * defaults); the binary is looked up once; a machine without Chromium gets
 * `Browser.unavailable`, so the server still starts and browser-only requests say how to install
 * one. The browser itself starts on the first render, not with the layer.
 */
import { Browser, type BrowserService, GleanerConfig, parseCidrList } from "@gleaner/core"
import { Data, Effect, Layer, Option, ParseResult, Schema } from "effect"
import { makeBrowserPool } from "./browser-pool.js"
import { checkChromiumPath, type ChromiumPathError, locateChromium } from "./find-chromium.js"
import { makeRender } from "./render-page.js"

/** The options could not be used (a bad CIDR range, a non-positive limit …). */
export class BrowserOptionsError extends Data.TaggedError("BrowserOptionsError")<{ readonly message: string }> {}

const positiveInt = (max: number) => Schema.Int.pipe(Schema.between(1, max))

export const PlaywrightBrowserOptions = Schema.Struct({
  /** The Chromium binary; default: the system's (see findChromium). `layerConfig` passes GLEANER_CHROMIUM_PATH. */
  chromiumPath: Schema.optional(Schema.NonEmptyTrimmedString),
  /** Pages rendered at once (one BrowserContext each). Default 4. */
  maxContexts: Schema.optionalWith(positiveInt(256), { default: () => 4 }),
  /** A browser is replaced after this many pages. Default 500. */
  pagesPerBrowser: Schema.optionalWith(positiveInt(1_000_000), { default: () => 500 }),
  /** A browser is replaced when its process tree's summed RSS exceeds this, in bytes. Default 1.5 GB. */
  maxRssBytes: Schema.optionalWith(Schema.Positive, { default: () => 1.5 * 1024 ** 3 }),
  /** CIDR ranges exempt from the SSRF guard (GLEANER_ALLOWED_NETWORKS). Default none. */
  allowedNetworks: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  /** How long a page's context, or a browser, may take to close before the browser is SIGKILLed, in ms. Default 3000. */
  killGraceMs: Schema.optionalWith(positiveInt(600_000), { default: () => 3_000 }),
  /** How long Chromium may take to start, in ms. Default 30000. */
  launchTimeoutMs: Schema.optionalWith(positiveInt(600_000), { default: () => 30_000 }),
  /** Chromium's sandbox. Default: on, except when running as root (where it cannot start). */
  sandbox: Schema.optional(Schema.Boolean),
  /** Without a system Chromium, use the one of the npm package @sparticuz/chromium. Default true. */
  bundled: Schema.optionalWith(Schema.Boolean, { default: () => true })
})
export type PlaywrightBrowserOptions = typeof PlaywrightBrowserOptions.Encoded

const isRoot = (): boolean => process.getuid?.() === 0

const decodeOptions = (input: PlaywrightBrowserOptions) =>
  Schema.decodeUnknown(PlaywrightBrowserOptions)(input).pipe(
    Effect.mapError((e) => new BrowserOptionsError({ message: `Invalid browser options: ${ParseResult.TreeFormatter.formatErrorSync(e)}` }))
  )


/**
 * The Browser service and its pool over a known Chromium, in the caller's scope. The layer uses
 * this; tests use it to look at the pool (its launches, process ids and peak memory).
 */
export const makePlaywrightBrowser = (input: PlaywrightBrowserOptions, executablePath: string) =>
  Effect.gen(function*() {
    const options = yield* decodeOptions(input)
    const { invalid, networks } = parseCidrList(options.allowedNetworks)
    if (invalid.length > 0) return yield* new BrowserOptionsError({ message: `allowedNetworks: not CIDR ranges: ${invalid.join(", ")}` })
    const pool = yield* makeBrowserPool({
      executablePath,
      maxContexts: options.maxContexts,
      pagesPerBrowser: options.pagesPerBrowser,
      maxRssBytes: options.maxRssBytes,
      allowedNetworks: networks,
      killGraceMs: options.killGraceMs,
      launchTimeoutMs: options.launchTimeoutMs,
      sandbox: options.sandbox ?? !isRoot()
    })
    const browser: BrowserService = { available: true, render: makeRender(pool) }
    return { browser, pool }
  })

export const PlaywrightBrowser = {
  /**
   * The Browser layer: Chromium found → a pool that launches it on first use and closes it with
   * the layer's scope; no Chromium → `Browser.unavailable` (logged as a warning).
   */
  layer: (input: PlaywrightBrowserOptions = {}): Layer.Layer<Browser, ChromiumPathError | BrowserOptionsError> =>
    Layer.unwrapEffect(Effect.gen(function*() {
      const options = yield* decodeOptions(input)
      const found = yield* locateChromium(options.chromiumPath, { bundled: options.bundled, origin: "chromiumPath" })
      if (Option.isNone(found)) {
        yield* Effect.logWarning(
          "No Chromium found: browser rendering is off. Install one (apt-get install -y chromium-headless-shell) or set GLEANER_CHROMIUM_PATH."
        )
        return Browser.unavailable
      }
      return Layer.scoped(Browser, Effect.map(makePlaywrightBrowser(input, found.value), ({ browser }) => browser))
    })),

  /**
   * The layer as the server runs it: the binary (GLEANER_CHROMIUM_PATH, checked like the option),
   * the contexts (GLEANER_BROWSER_CONTEXTS) and `allowedNetworks` (GLEANER_ALLOWED_NETWORKS) from
   * GleanerConfig; `input` sets the rest.
   */
  layerConfig: (
    input: Omit<PlaywrightBrowserOptions, "allowedNetworks" | "chromiumPath" | "maxContexts"> = {}
  ): Layer.Layer<Browser, ChromiumPathError | BrowserOptionsError, GleanerConfig> =>
    Layer.unwrapEffect(Effect.gen(function*() {
      const config = yield* GleanerConfig
      const chromiumPath = Option.getOrUndefined(config.chromiumPath)
      if (chromiumPath !== undefined) yield* checkChromiumPath(chromiumPath)
      return PlaywrightBrowser.layer({
        ...input,
        ...(chromiumPath === undefined ? {} : { chromiumPath }),
        maxContexts: config.browserContexts,
        allowedNetworks: config.allowedNetworks
      })
    }))
} as const
