/**
 * Re-opening a scraped page in a browser session (scrape-interact): a fresh context of the
 * session's Chromium with the scrape's device and headers, the page loaded until `load`, the
 * scrape's `waitFor`, then its actions through the same `runActions` as a scrape, so the page
 * ends in the state the scrape left it in. The session's Chromium sends everything through the
 * SSRF guard proxy; the URL is also checked up front so a refusal reads as one. The new page is
 * the newest, hence the one `execute` runs in.
 */
import { type GleanerError, ScrapeSiteError, ScrapeTimeoutError, type SessionOpenRequest } from "@gleaner/core"
import { Duration, Effect } from "effect"
import type { Browser as PwBrowser } from "playwright-core"
import { runActions } from "./actions.js"
import type { AddressGuard } from "./address-guard.js"
import { crashError, firstLineOf, isClosedError } from "./failures.js"
import { explainNavigationFailure, precheck, proxyAnswerError } from "./render-page.js"
import { deviceOptions, userAgentsFor } from "./user-agent.js"

export const openInSession = (browser: PwBrowser, guard: AddressGuard, request: SessionOpenRequest): Effect.Effect<void, GleanerError> =>
  Effect.gen(function*() {
    const deadlineAt = Date.now() + request.timeoutMs
    const url = yield* precheck(guard, request.url)
    const fail = (cause: unknown): GleanerError =>
      isClosedError(cause) ? crashError(url.href) : new ScrapeSiteError({ message: `The session's browser failed: ${firstLineOf(cause)}` })
    const context = yield* Effect.tryPromise({
      try: () =>
        browser.newContext({
          ...deviceOptions(userAgentsFor(browser.version()), request.mobile, request.headers),
          extraHTTPHeaders: { ...request.headers },
          serviceWorkers: "block",
          acceptDownloads: false
        }),
      catch: fail
    })
    const page = yield* Effect.tryPromise({ try: () => context.newPage(), catch: fail })
    let failedUrl: string | undefined
    page.on("requestfailed", (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) failedUrl = r.url()
    })
    const response = yield* Effect.tryPromise({ try: () => page.goto(url.href, { waitUntil: "load", timeout: 0 }), catch: (e) => e }).pipe(
      Effect.catchAll((error) => Effect.flatMap(explainNavigationFailure(error, url, failedUrl, guard, []), Effect.fail))
    )
    const refused = response === null ? undefined : proxyAnswerError(response)
    if (refused !== undefined) return yield* refused
    if (request.waitForMs > 0) yield* Effect.sleep(Duration.millis(request.waitForMs))
    if (request.actions.length > 0) yield* runActions(page, request.actions, deadlineAt, () => page.content())
  }).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(request.timeoutMs),
      onTimeout: () => new ScrapeTimeoutError({ message: `Re-opening ${request.url} in the session timed out after ${request.timeoutMs} ms` })
    }),
    Effect.withSpan("SessionBrowser.open", { attributes: { url: request.url, actions: request.actions.length } })
  )
