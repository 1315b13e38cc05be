/**
 * The SessionBrowser port: a browser of its own for each browser session (API.md §3.11), which
 * a client drives over the Chrome DevTools protocol and the server drives for `execute`. Filled
 * by @gleaner/browser-playwright (one Chromium process per session behind the SSRF guard
 * proxy). Absent on a machine without Chromium: the BrowserSessions service then answers every
 * create with a 400 that says how to install one.
 */
import { Context, Effect, Layer } from "effect"
import { type GleanerError, type InternalError, ServiceUnavailableError } from "../errors.js"
import type { Action } from "../schema/scrape-options.js"
import type { ActionResults } from "./browser.js"

export interface SessionExecuteRequest {
  /** JavaScript run as the body of an async function in the session's current page. */
  readonly code: string
  readonly timeoutMs: number
}

export interface SessionExecuteOutcome {
  /** What the code printed with console.log/info/debug, one line per call. */
  readonly stdout: string
  /** console.warn/error output, then the thrown error (stack) when the code threw. */
  readonly stderr: string
  /** The return value: a string as is, anything else as JSON ("" for undefined). */
  readonly result: string
  readonly exitCode: number
  /** The code ran past its timeout and was stopped. */
  readonly killed: boolean
}

/** A page to open in the session as a scrape saw it (scrape-interact). */
export interface SessionOpenRequest {
  readonly url: string
  /** Extra milliseconds to let scripts run after the `load` event (0: none). */
  readonly waitForMs: number
  /** Run in order once the page has loaded and waited, as the scrape ran them. */
  readonly actions: ReadonlyArray<Action>
  /** Emulate a phone: small touch viewport and a mobile Chrome user agent. */
  readonly mobile: boolean
  /** Sent with every request the page makes. */
  readonly headers: Readonly<Record<string, string>>
  /** Loading, waiting and the actions together. */
  readonly timeoutMs: number
}

export interface LiveSessionBrowser {
  /** The browser-level DevTools WebSocket on 127.0.0.1 (`ws://127.0.0.1:<port>/devtools/browser/<id>`). */
  readonly cdpEndpoint: string
  /** The browser's root process id, when known (diagnostics and tests). */
  readonly pid: number | undefined
  /**
   * Opens a page in a fresh context of the session's browser (through the SSRF guard), waits and
   * runs the actions; it becomes the current page. A failing action is SCRAPE_ACTION_ERROR naming it.
   */
  readonly open: (request: SessionOpenRequest) => Effect.Effect<void, GleanerError>
  readonly execute: (request: SessionExecuteRequest) => Effect.Effect<SessionExecuteOutcome, ServiceUnavailableError>
  /** Runs scrape actions in the current page; a failing one is SCRAPE_ACTION_ERROR naming it. */
  readonly runActions: (actions: ReadonlyArray<Action>, timeoutMs: number) => Effect.Effect<ActionResults, GleanerError>
  /** A JPEG of the current page's viewport. */
  readonly screenshot: Effect.Effect<Uint8Array, ServiceUnavailableError>
  /** Input from the interactive live view into the current page. */
  readonly input: (input: LiveInput) => Effect.Effect<void, ServiceUnavailableError>
  /** Puts a profile's saved cookies and local storage (Playwright storage-state JSON) into the default context. */
  readonly loadState: (state: string) => Effect.Effect<void, ServiceUnavailableError | InternalError>
  /** The default context's cookies and local storage now, as storage-state JSON (to save a profile). */
  readonly saveState: Effect.Effect<string, ServiceUnavailableError>
  /** Completes when the browser process has gone (crash, kill or close). */
  readonly exited: Effect.Effect<void>
  /** Ends the browser: kills its whole process tree, waits until it is gone, deletes its profile. */
  readonly close: Effect.Effect<void>
}

/** What the interactive live view passes on: a click at viewport coordinates, a key, typed text, a scroll. */
export type LiveInput =
  | { readonly kind: "click"; readonly x: number; readonly y: number }
  | { readonly kind: "key"; readonly key: string }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "scroll"; readonly dy: number }

export interface SessionBrowserService {
  /** False on a machine without Chromium: sessions are refused with how to install one. */
  readonly available: boolean
  readonly launch: (sessionId: string) => Effect.Effect<LiveSessionBrowser, ServiceUnavailableError>
}

export class SessionBrowser extends Context.Tag("@gleaner/core/SessionBrowser")<SessionBrowser, SessionBrowserService>() {
  /** The layer of a machine without Chromium (or with sessions turned off). */
  static readonly unavailable = Layer.succeed(this, {
    available: false,
    launch: () => Effect.fail(new ServiceUnavailableError({ message: "No Chromium found. Install one (apt-get install -y chromium-headless-shell) or set GLEANER_CHROMIUM_PATH." }))
  })
}
