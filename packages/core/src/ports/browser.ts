/**
 * The Browser port: a real browser for pages that need one (JavaScript shells, actions,
 * screenshots, sessions). Filled by @gleaner/browser-playwright; `Browser.unavailable` is the
 * layer of a machine without Chromium, whose every call says how to install one.
 */
import { Context, Effect, Layer } from "effect"
import { type GleanerError, ServiceUnavailableError } from "../errors.js"
import type { Action } from "../schema/scrape-options.js"

export interface RenderRequest {
  readonly url: string
  /** The whole render's deadline: waiting for a browser, loading, waiting and reading. */
  readonly timeoutMs: number
  /** Extra milliseconds to let scripts run after the `load` event. */
  readonly waitForMs?: number
  /** Sent with every request the page makes. */
  readonly headers?: Readonly<Record<string, string>>
  /** Emulate a phone: small touch viewport and a mobile Chrome user agent. */
  readonly mobile?: boolean
  /** BCP 47 locale (navigator.language, Intl) and IANA time zone of the page. */
  readonly locale?: string
  readonly timezoneId?: string
  /** Refuse requests to known ad and tracker hosts. */
  readonly blockAds?: boolean
  /** Refuse images, fonts and media (nothing to look at is needed: no screenshot, no pdf). */
  readonly blockHeavyMedia?: boolean
  readonly skipTlsVerification?: boolean
  /** Run in order after the page loaded (and `waitForMs`); the page is read after the last one. */
  readonly actions?: ReadonlyArray<Action>
  /** A screenshot of the page as it stands when it is read. */
  readonly screenshot?: ScreenshotRequest
  /** Cookies and local storage to start from (Playwright's storage-state JSON, from a profile). */
  readonly storageState?: string
  /** Answer the context's storage state after the page was read (to save a profile). */
  readonly keepStorageState?: boolean
}

export interface ScreenshotRequest {
  readonly fullPage?: boolean
  /** JPEG at this quality (1–100); PNG without it. */
  readonly quality?: number
  readonly viewport?: { readonly width: number; readonly height: number }
}

/** An image or document the browser made. */
export interface BrowserFile {
  readonly bytes: Uint8Array
  readonly contentType: "image/png" | "image/jpeg" | "application/pdf"
}

/** What the actions produced, in the order they ran (API.md §2.4). */
export interface ActionResults {
  readonly screenshots: ReadonlyArray<BrowserFile>
  readonly scrapes: ReadonlyArray<{ readonly url: string; readonly html: string }>
  readonly javascriptReturns: ReadonlyArray<{ readonly type: string; readonly value: unknown }>
  readonly pdfs: ReadonlyArray<BrowserFile>
}

/** A request the page tried to make and the SSRF guard refused. */
export interface BlockedRequest {
  readonly url: string
  readonly reason: string
}

export interface RenderedPage {
  /** The URL after redirects. */
  readonly url: string
  /** The status of the main document's response. */
  readonly status: number
  /** The DOM as it stood when the page was read (scripts have run). */
  readonly html: string
  /** Sub-requests refused by the SSRF guard or the ad blocker while the page rendered (capped; absent when none). */
  readonly blockedRequests?: ReadonlyArray<BlockedRequest>
  readonly screenshot?: BrowserFile
  /** Present when the request had actions. */
  readonly actions?: ActionResults
  /** The storage-state JSON after the page was read, when `keepStorageState` was asked. */
  readonly storageState?: string
}

export interface BrowserService {
  /** False when no browser is installed; browser-only features answer 4xx then. */
  readonly available: boolean
  readonly render: (request: RenderRequest) => Effect.Effect<RenderedPage, GleanerError>
}

export class Browser extends Context.Tag("@gleaner/core/Browser")<Browser, BrowserService>() {
  static readonly unavailable = Layer.succeed(this, {
    available: false,
    render: () =>
      Effect.fail(new ServiceUnavailableError({
        message: "No Chromium found. Install one (apt-get install -y chromium-headless-shell) or set GLEANER_CHROMIUM_PATH."
      }))
  })
}
