/**
 * One render: check the URL before any browser is involved (shape, then every address of the
 * host), take a fresh context from the pool (device, locale, time zone, TLS and headers as
 * asked), route every request of the page through the ad and media filters and the SSRF check,
 * load the page until its `load` event, let scripts run for `waitForMs`, run the actions, read
 * the DOM as HTML (`outerHTML` through `evaluate`, about nine times faster than
 * `page.content()`) and take the screenshot. The whole render, waiting for a free browser
 * included, runs under the request's deadline.
 */
import {
  type BlockedRequest,
  checkUrlShape,
  type GleanerError,
  type RenderedPage,
  type RenderRequest,
  ScrapeSiteError,
  ScrapeTimeoutError
} from "@gleaner/core"
import { Duration, Effect, Schema } from "effect"
import type { BrowserContext, BrowserContextOptions, Page, Response, Route } from "playwright-core"
import { runActions, takeScreenshot } from "./actions.js"
import { isAdHost } from "./ad-hosts.js"
import { decodeStorageState, type StorageState } from "./storage-state.js"
import { type AddressGuard, checkRequestUrl } from "./address-guard.js"
import type { BrowserPool } from "./browser-pool.js"
import { badUrlError, crashError, dnsError, firstLineOf, isClosedError, navigationError, netErrorOf, unsafeAddressError } from "./failures.js"
import { proxyErrorHeader, refusalHeader } from "./guard-proxy.js"
import { deviceOptions, type UserAgents } from "./user-agent.js"

/** Refused requests kept per page; a page can try thousands. */
const maxBlockedRecorded = 50

/** The URL shape and the host's addresses, checked before a browser is launched or used. */
export const precheck = (guard: AddressGuard, input: string): Effect.Effect<URL, GleanerError> =>
  Effect.gen(function*() {
    const shape = checkUrlShape(input)
    if (!shape.allowed) return yield* badUrlError(shape.reason)
    const verdict = yield* Effect.promise(() => guard.check(shape.url.hostname))
    if (verdict._tag === "Refused") return yield* unsafeAddressError(verdict.hostname, verdict.reason)
    if (verdict._tag === "Unresolved") return yield* dnsError(verdict.hostname, verdict.code)
    return shape.url
  })

/** Resource types nobody reads when the page is not looked at. */
const heavyTypes: ReadonlySet<string> = new Set(["image", "media", "font"])

interface RouteFilters {
  readonly blockAds: boolean
  readonly blockHeavyMedia: boolean
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname
  } catch {
    return ""
  }
}

/** The router every request of the page passes: ads and heavy media are dropped, then the SSRF check decides. */
const routeThroughGuard = (guard: AddressGuard, blocked: Array<BlockedRequest>, filters: RouteFilters) => async (route: Route): Promise<void> => {
  const request = route.request()
  const url = request.url()
  try {
    if (filters.blockHeavyMedia && heavyTypes.has(request.resourceType()) && !url.startsWith("data:")) return await route.abort("blockedbyclient")
    if (filters.blockAds && isAdHost(hostOf(url))) {
      if (blocked.length < maxBlockedRecorded) blocked.push({ url, reason: "an ad or tracker host (blockAds)" })
      return await route.abort("blockedbyclient")
    }
    const verdict = await checkRequestUrl(guard, url)
    if (verdict._tag === "Allowed") return await route.continue()
    if (verdict._tag === "Refused" && blocked.length < maxBlockedRecorded) blocked.push({ url, reason: verdict.reason })
    await route.abort(verdict._tag === "Unresolved" ? "namenotresolved" : "blockedbyclient")
  } catch {
    // the page or its context closed while the check ran: nothing left to route
  }
}

/** A failed navigation in Gleaner's terms; refusals need the guard's verdict on the failing hop. */
export const explainNavigationFailure = (error: unknown, url: URL, failedUrl: string | undefined, guard: AddressGuard, blocked: ReadonlyArray<BlockedRequest>) =>
  Effect.gen(function*() {
    const code = netErrorOf(error)
    const failing = new URL(failedUrl ?? url.href)
    if (code === "ERR_BLOCKED_BY_CLIENT") {
      const refusal = blocked.find((b) => b.url === failing.href) ?? blocked[0]
      return unsafeAddressError(failing.hostname, refusal?.reason ?? "the address is not allowed")
    }
    if (code === "ERR_TUNNEL_CONNECTION_FAILED") {
      const verdict = yield* Effect.promise(() => guard.check(failing.hostname))
      if (verdict._tag === "Refused") return unsafeAddressError(verdict.hostname, verdict.reason)
      if (verdict._tag === "Unresolved") return dnsError(verdict.hostname, verdict.code)
      return new ScrapeSiteError({ message: `Could not connect to ${failing.host}`, details: { code } })
    }
    return navigationError(error, failing)
  })

/** The proxy answers for a refused or unreachable host itself; such an answer is an error, not the page. */
export const proxyAnswerError = (response: Response): GleanerError | undefined => {
  const headers = response.headers()
  const host = new URL(response.url()).hostname
  const refusal = headers[refusalHeader]
  if (refusal !== undefined) return unsafeAddressError(host, refusal)
  const failure = headers[proxyErrorHeader]
  if (failure === undefined) return undefined
  return failure.startsWith("E") && /NOTFOUND|EAI_|NODATA/.test(failure)
    ? dnsError(host, failure)
    : new ScrapeSiteError({ message: `Could not connect to ${new URL(response.url()).host} (${failure})`, details: { code: failure } })
}

/** True when the page navigated away while it was being read (a script or meta refresh). */
const isNavigatedAway = (error: unknown): boolean =>
  error instanceof Error && /Execution context was destroyed|navigat/i.test(error.message.split("\n")[0] ?? "")

/** The DOM as HTML; a page that navigates while being read is read again once it has loaded. */
const readHtml = (page: Page, url: URL) =>
  Effect.tryPromise({
    try: () =>
      page.evaluate("document.documentElement.outerHTML").catch(async (error: unknown) => {
        if (!isNavigatedAway(error)) throw error
        await page.waitForLoadState("load", { timeout: 0 })
        return page.evaluate("document.documentElement.outerHTML")
      }),
    catch: (cause) => (isClosedError(cause) ? crashError(url.href) : new ScrapeSiteError({ message: `Could not read the rendered page ${url.href}` }))
  }).pipe(
    Effect.flatMap(Schema.decodeUnknown(Schema.String)),
    Effect.catchTag("ParseError", () => new ScrapeSiteError({ message: `${url.href} has no HTML document to read` }))
  )

/** Everything that happens inside the context. */
const renderIn = (context: BrowserContext, guard: AddressGuard, url: URL, request: RenderRequest, deadlineAt: number) =>
  Effect.gen(function*() {
    const blocked: Array<BlockedRequest> = []
    const fail = (cause: unknown) => (isClosedError(cause) ? crashError(url.href) : new ScrapeSiteError({ message: `The browser failed: ${firstLineOf(cause)}` }))
    const filters = { blockAds: request.blockAds ?? false, blockHeavyMedia: request.blockHeavyMedia ?? false }
    yield* Effect.tryPromise({ try: () => context.route("**/*", routeThroughGuard(guard, blocked, filters)), catch: fail })
    const page = yield* Effect.tryPromise({ try: () => context.newPage(), catch: fail })
    // the main document's failing hop: after a redirect it is not the URL that was asked for
    let failedUrl: string | undefined
    page.on("requestfailed", (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) failedUrl = r.url()
    })
    const response = yield* Effect.tryPromise({ try: () => page.goto(url.href, { waitUntil: "load", timeout: 0 }), catch: (e) => e }).pipe(
      Effect.catchAll((error) => Effect.flatMap(explainNavigationFailure(error, url, failedUrl, guard, blocked), Effect.fail))
    )
    const refused = response === null ? undefined : proxyAnswerError(response)
    if (refused !== undefined) return yield* refused
    if (request.waitForMs !== undefined && request.waitForMs > 0) yield* Effect.sleep(Duration.millis(request.waitForMs))
    const actions = request.actions === undefined || request.actions.length === 0
      ? undefined
      : yield* runActions(page, request.actions, deadlineAt, () => Effect.runPromise(readHtml(page, url)))
    const html = yield* readHtml(page, url)
    const shot = request.screenshot
    const screenshot = shot === undefined ? undefined : yield* Effect.tryPromise({
      try: () => takeScreenshot(page, shot, Math.max(1, deadlineAt - Date.now())),
      catch: (cause) => (isClosedError(cause) ? crashError(url.href) : new ScrapeSiteError({ message: `The screenshot of ${url.href} failed: ${firstLineOf(cause)}` }))
    })
    const storageState = request.keepStorageState === true
      ? JSON.stringify(yield* Effect.tryPromise({ try: () => context.storageState(), catch: fail }))
      : undefined
    const rendered: RenderedPage = {
      url: page.url(),
      status: response?.status() ?? 200,
      html,
      ...(blocked.length > 0 ? { blockedRequests: [...blocked] } : {}),
      ...(screenshot === undefined ? {} : { screenshot }),
      ...(actions === undefined ? {} : { actions }),
      ...(storageState === undefined ? {} : { storageState })
    }
    return rendered
  })

/** A fresh context as the request asks: device, viewport, locale, time zone, TLS, headers, a profile's state. */
const contextOptions = (agents: UserAgents, request: RenderRequest, storageState: StorageState | undefined): BrowserContextOptions => {
  const headers = request.headers ?? {}
  const device = deviceOptions(agents, request.mobile ?? false, headers)
  const viewport = request.screenshot?.viewport
  return {
    ...device,
    ...(viewport === undefined ? {} : { viewport: { ...viewport }, screen: { ...viewport } }),
    ...(request.locale === undefined ? {} : { locale: request.locale }),
    ...(request.timezoneId === undefined ? {} : { timezoneId: request.timezoneId }),
    ...(request.skipTlsVerification === true ? { ignoreHTTPSErrors: true } : {}),
    ...(storageState === undefined ? {} : { storageState: { cookies: [...storageState.cookies], origins: storageState.origins.map((o) => ({ origin: o.origin, localStorage: [...o.localStorage] })) } }),
    extraHTTPHeaders: { ...headers },
    serviceWorkers: "block",
    acceptDownloads: false
  }
}

/** The Browser port's `render` over a pool. */
export const makeRender = (pool: BrowserPool) =>
  Effect.fn("PlaywrightBrowser.render")(
    function*(request: RenderRequest) {
      yield* Effect.annotateCurrentSpan("url", request.url)
      const deadlineAt = Date.now() + request.timeoutMs
      const url = yield* precheck(pool.guard, request.url)
      const storageState = request.storageState === undefined ? undefined : yield* decodeStorageState(request.storageState)
      const rendered = yield* pool.withContext(
        (agents) => contextOptions(agents, request, storageState),
        (context) => renderIn(context, pool.guard, url, request, deadlineAt)
      )
      if (rendered.blockedRequests !== undefined) {
        yield* Effect.logDebug("SSRF guard refused sub-requests").pipe(Effect.annotateLogs({ url: request.url, blocked: rendered.blockedRequests.length }))
      }
      return rendered
    },
    (effect, request) =>
      Effect.timeoutFail(effect, {
        duration: Duration.millis(request.timeoutMs),
        onTimeout: () => new ScrapeTimeoutError({ message: `Rendering ${request.url} timed out after ${request.timeoutMs} ms` })
      })
  )
