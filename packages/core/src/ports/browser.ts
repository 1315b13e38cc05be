/**
 * The Browser port: a real browser for pages that need one (JavaScript shells, actions,
 * screenshots, sessions). Filled by @gleaner/browser-playwright; `Browser.unavailable` is the
 * layer of a machine without Chromium, whose every call says how to install one.
 */
import { Context, Effect, Layer } from "effect"
import { type GleanerError, ServiceUnavailableError } from "../errors.js"

export interface RenderRequest {
  readonly url: string
  readonly timeoutMs: number
  readonly waitForMs?: number
  readonly headers?: Readonly<Record<string, string>>
  readonly mobile?: boolean
}

export interface RenderedPage {
  readonly url: string
  readonly status: number
  readonly html: string
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
