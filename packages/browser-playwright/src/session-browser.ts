/**
 * The SessionBrowser port over a system Chromium: each browser session gets a Chromium process
 * of its own (session-process.ts) behind the same SSRF guard proxy as the render pool, and the
 * server keeps one Playwright connection to it (over the local DevTools port) to run `execute`
 * code, re-open a scraped page (session-open.ts), take live-view frames and pass on its input. A machine
 * without Chromium gets no SessionBrowser, and the sessions service answers with how to install
 * one. Closing the layer ends every browser.
 */
import { GleanerConfig, type LiveSessionBrowser, parseCidrList, ServiceUnavailableError, SessionBrowser, type SessionBrowserService } from "@gleaner/core"
import { Effect, Layer, Option, type Scope } from "effect"
import { chromium } from "playwright-core"
import { makeAddressGuard } from "./address-guard.js"
import { settlesWithin } from "./browser-instance.js"
import { type ChromiumPathError, locateChromium } from "./find-chromium.js"
import { startGuardProxy } from "./guard-proxy.js"
import { runActions } from "./actions.js"
import { openInSession } from "./session-open.js"
import { currentPage, runInPage } from "./session-page.js"
import { startSessionProcess } from "./session-process.js"
import { loadSessionState, saveSessionState } from "./session-state.js"
import { firstLineOf } from "./failures.js"

export interface SessionBrowserOptions {
  readonly executablePath: string
  /** CIDR ranges exempt from the SSRF guard (GLEANER_ALLOWED_NETWORKS). */
  readonly allowedNetworks: ReadonlyArray<string>
  /** Default: on, except when running as root. */
  readonly sandbox?: boolean
  /** How long Chromium may take to start, in ms. Default 30000. */
  readonly launchTimeoutMs?: number
}

const unavailable = (what: string) => (cause: unknown) =>
  new ServiceUnavailableError({ message: `${what}: ${firstLineOf(cause)}` })

/** The SessionBrowser service in the caller's scope (the layer uses it; tests may too). */
export const makeSessionBrowser = (options: SessionBrowserOptions): Effect.Effect<SessionBrowserService, never, Scope.Scope> =>
  Effect.gen(function*() {
    const guard = makeAddressGuard(parseCidrList(options.allowedNetworks).networks)
    const proxy = yield* Effect.acquireRelease(Effect.promise(() => startGuardProxy(guard)), (p) => Effect.promise(() => p.close()))
    const open = new Set<() => Promise<void>>()
    yield* Effect.addFinalizer(() => Effect.promise(() => Promise.all([...open].map((close) => close()))))
    const launchTimeoutMs = options.launchTimeoutMs ?? 30_000

    const start = async (): Promise<LiveSessionBrowser> => {
      const process = await startSessionProcess({
        executablePath: options.executablePath,
        proxyUrl: proxy.url,
        sandbox: options.sandbox ?? globalThis.process.getuid?.() !== 0,
        launchTimeoutMs
      })
      const browser = await chromium.connectOverCDP(process.cdpEndpoint, { timeout: launchTimeoutMs }).catch(async (error: unknown) => {
        await process.kill()
        throw error
      })
      const close = async () => {
        open.delete(close)
        await settlesWithin(browser.close(), 1_000)
        await process.kill()
      }
      open.add(close)
      const drive = <A>(what: string, f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: unavailable(what) })
      return {
        cdpEndpoint: process.cdpEndpoint,
        pid: process.pid,
        open: (request) => openInSession(browser, guard, request),
        execute: ({ code, timeoutMs }) => drive("The session's browser could not run the code", () => runInPage(browser, code, timeoutMs)),
        screenshot: drive("The session's page could not be captured", async () =>
          (await currentPage(browser)).screenshot({ type: "jpeg", quality: 60, timeout: 5_000 })),
        input: (input) =>
          drive("The session's page could not take the input", async () => {
            const page = await currentPage(browser)
            if (input.kind === "click") return page.mouse.click(input.x, input.y)
            if (input.kind === "key") return page.keyboard.press(input.key)
            if (input.kind === "text") return page.keyboard.type(input.text)
            return page.mouse.wheel(0, input.dy)
          }),
        runActions: (actions, timeoutMs) =>
          Effect.flatMap(
            Effect.tryPromise({ try: () => currentPage(browser), catch: unavailable("The session's page could not be found") }),
            (page) => runActions(page, actions, Date.now() + timeoutMs, () => page.content())
          ),
        loadState: (state) => loadSessionState(browser, state),
        saveState: saveSessionState(browser),
        exited: Effect.promise(() => process.exited),
        close: Effect.promise(close)
      }
    }

    return {
      available: true,
      launch: (_sessionId) =>
        Effect.tryPromise({ try: start, catch: unavailable(`Chromium (${options.executablePath}) did not start`) }).pipe(
          Effect.withSpan("SessionBrowser.launch")
        )
    }
  })

export const PlaywrightSessions = {
  /**
   * SessionBrowser as the server runs it: the binary from GLEANER_CHROMIUM_PATH (checked), the
   * system's or the bundled one, the guard's exemptions from GLEANER_ALLOWED_NETWORKS. No Chromium
   * (or GLEANER_BROWSER_SESSIONS=0) → `SessionBrowser.unavailable` (sessions are refused with how to install one).
   */
  layerConfig: (input: Omit<SessionBrowserOptions, "executablePath" | "allowedNetworks"> = {}): Layer.Layer<SessionBrowser, ChromiumPathError, GleanerConfig> =>
    Layer.unwrapEffect(Effect.gen(function*() {
      const config = yield* GleanerConfig
      const found = yield* locateChromium(Option.getOrUndefined(config.chromiumPath), { bundled: true })
      if (Option.isNone(found) || config.browserSessions === 0) return SessionBrowser.unavailable
      const options = { ...input, executablePath: found.value, allowedNetworks: config.allowedNetworks }
      return Layer.scoped(SessionBrowser, makeSessionBrowser(options))
    }))
} as const
