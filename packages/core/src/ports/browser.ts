/**
 * The Browser port: a real browser for pages that need one (JavaScript shells, actions,
 * screenshots, sessions). Filled by @gleaner/browser-playwright; `Browser.unavailable` is the
 * layer of a machine without Chromium, whose every call says how to install one.
 */
import { Context, Effect, Layer } from "effect"
import { type GleanerError, ServiceUnavailableError } from "../errors.js"

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
  /** Sub-requests refused by the SSRF guard while the page rendered (capped; absent when none). */
  readonly blockedRequests?: ReadonlyArray<BlockedRequest>
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
