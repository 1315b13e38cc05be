/**
 * Getting the page: from the team's cache when the plan allows it (maxAge, minAge, lockdown),
 * otherwise from the Fetcher — directly, or through the operator's stealth proxy when asked for or
 * when `proxy: "auto"` meets a page that refuses a plain fetch (401, 403, 429) — or from the
 * browser: always for actions and screenshots (which never use the cache), at once when the
 * request has `waitFor` or `mobile`, and after the fetch when the fetched HTML is a JavaScript
 * shell (javascript-shell.ts). A shell whose render fails is kept as fetched, with a warning.
 * `engine` says which one produced the page. With a `profile`, the page starts from the team's
 * saved cookies and local storage; with `saveChanges` the profile is locked for the render (a
 * second writer gets 409) and what the page left is saved back.
 */
import { Clock, Effect, Option, Redacted } from "effect"
import type { GleanerConfig } from "../config.js"
import { ConflictError, messages, ScrapeLockdownCacheMissError, ScrapeNoCachedDataError } from "../errors.js"
import { uuidv7 } from "../ids.js"
import type { ActionResults, BrowserFile, BrowserService } from "../ports/browser.js"
import type { Fetcher } from "../ports/fetcher.js"
import { decodeBody } from "../transform/charset.js"
import { classifyContent } from "./content.js"
import { looksLikeJavaScriptShell } from "./javascript-shell.js"
import type { Store } from "../ports/store.js"
import { needsBrowser, type ScrapePlan } from "./plan.js"
import type { FetchedPage } from "./produce.js"
import { requestHeaders } from "./request-headers.js"
import { cacheKey } from "./url.js"

export interface ObtainedPage {
  readonly page: FetchedPage
  readonly cacheState: "hit" | "miss"
  /** When the served copy was fetched (a hit's original fetch time). */
  readonly fetchedAt: number
  readonly proxyUsed: "basic" | "stealth"
  /** What produced the page now: a plain fetch or the browser (absent for a cache hit). */
  readonly engine?: "fetch" | "browser"
  readonly warnings: ReadonlyArray<string>
  /** What the browser made besides the page: the screenshot format, the actions' results. */
  readonly screenshot?: BrowserFile
  readonly actions?: ActionResults
}

const REFUSED = new Set([401, 403, 429])

export interface ObtainDeps {
  readonly store: Store["Type"]
  readonly fetcher: Fetcher["Type"]
  readonly config: GleanerConfig["Type"]
  /** Absent or unavailable: every page is fetched. */
  readonly browser: BrowserService | undefined
}

const isHtml = (page: FetchedPage): boolean => classifyContent(page.contentType, page.body, page.url).kind === "html"

/** A 2xx HTML page that shows (almost) nothing without its scripts. */
const needsRendering = (page: FetchedPage): boolean =>
  page.statusCode >= 200 && page.statusCode < 300 && isHtml(page) &&
  looksLikeJavaScriptShell(decodeBody(page.body, page.contentType ?? undefined).text)

export const obtainPage = ({ browser, config, fetcher, store }: ObtainDeps) => Effect.fnUntraced(function*(plan: ScrapePlan, teamId: string) {
  const now = yield* Clock.currentTimeMillis
  const proxy = Option.map(config.stealthProxyUrl, Redacted.value)
  const key = cacheKey(plan.url, {
    mobile: plan.mobile,
    headers: plan.headers,
    languages: plan.languages,
    stealth: plan.proxy === "stealth",
    rendered: plan.waitForMs > 0
  })

  const cacheOnly = plan.lockdown || plan.cache.minAgeMs !== undefined
  // actions and screenshots happen now, on a live page; the plan refuses them with cacheOnly
  const mustRender = needsBrowser(plan)
  if (!mustRender && (plan.cache.maxAgeMs > 0 || cacheOnly)) {
    const cached = yield* store.pageCache.get(teamId, key)
    const age = Option.map(cached, (c) => now - c.fetchedAt)
    const fresh = Option.filter(cached, (c) =>
      now - c.fetchedAt <= plan.cache.maxAgeMs && (plan.cache.minAgeMs === undefined || now - c.fetchedAt >= plan.cache.minAgeMs))
    if (Option.isSome(fresh)) {
      const c = fresh.value
      const hit: ObtainedPage = {
        page: { url: c.url, statusCode: c.statusCode, contentType: c.contentType, body: c.body },
        cacheState: "hit",
        fetchedAt: c.fetchedAt,
        proxyUsed: plan.proxy === "stealth" && Option.isSome(proxy) ? "stealth" : "basic",
        warnings: []
      }
      return hit
    }
    if (plan.lockdown) {
      return yield* new ScrapeLockdownCacheMissError({ message: `Lockdown mode: ${plan.url.href} is not in the cache.` })
    }
    if (cacheOnly) {
      const why = Option.match(age, {
        onNone: () => "nothing is cached for it",
        onSome: (ms) => `the cached copy is ${Math.round(ms / 1000)} s old, younger than minAge`
      })
      return yield* new ScrapeNoCachedDataError({ message: `No cached data for ${plan.url.href}: ${why}.` })
    }
  }

  const headers = requestHeaders({ mobile: plan.mobile, languages: plan.languages, headers: plan.headers })
  const canRender = browser !== undefined && browser.available
  // the browser sends its own user agent and Accept; the caller's headers and the language go along
  const own = new Set(Object.keys(plan.headers).map((name) => name.toLowerCase()))
  const browserHeaders = Object.fromEntries(Object.entries(headers).filter(([name]) => own.has(name) || name === "accept-language"))
  // nothing to look at: images, fonts and media stay unloaded
  const looksAtPage = plan.screenshot !== undefined || plan.actions.some((a) => a.type === "screenshot" || a.type === "pdf")
  const locale = plan.languages[0]
  const render = (startedAt: number, profile?: { readonly storageState: string | undefined; readonly keep: boolean }) =>
    Effect.gen(function*() {
      if (browser === undefined) return yield* Effect.dieMessage("render without a browser")
      const elapsed = (yield* Clock.currentTimeMillis) - startedAt
      const rendered = yield* browser.render({
        url: plan.url.href,
        timeoutMs: Math.max(1, plan.timeoutMs - elapsed),
        ...(plan.waitForMs > 0 ? { waitForMs: plan.waitForMs } : {}),
        headers: browserHeaders,
        ...(plan.mobile ? { mobile: true } : {}),
        ...(locale === undefined ? {} : { locale }),
        ...(plan.timezoneId === undefined ? {} : { timezoneId: plan.timezoneId }),
        blockAds: plan.blockAds,
        blockHeavyMedia: !looksAtPage,
        skipTlsVerification: plan.skipTlsVerification,
        ...(plan.actions.length > 0 ? { actions: plan.actions } : {}),
        ...(plan.screenshot === undefined ? {} : { screenshot: plan.screenshot }),
        ...(profile?.storageState === undefined ? {} : { storageState: profile.storageState }),
        ...(profile?.keep === true ? { keepStorageState: true } : {})
      })
      return {
        page: {
          url: rendered.url,
          statusCode: rendered.status,
          contentType: "text/html; charset=utf-8",
          body: new TextEncoder().encode(rendered.html)
        } satisfies FetchedPage,
        ...(rendered.screenshot === undefined ? {} : { screenshot: rendered.screenshot }),
        ...(rendered.actions === undefined ? {} : { actions: rendered.actions }),
        storageState: rendered.storageState
      }
    })

  /** A render from the team's profile; with saveChanges under its write lock, saving what the page left. */
  const renderWithProfile = (profile: NonNullable<ScrapePlan["profile"]>) =>
    Effect.gen(function*() {
      const saved = yield* store.browserProfiles.get(teamId, profile.name)
      const storageState = Option.getOrUndefined(Option.map(saved, (s) => s.state))
      if (!profile.saveChanges) return yield* render(now, { storageState, keep: false })
      const holder = yield* uuidv7
      // the lock outlives the render's deadline a little; a crashed writer's lock expires
      const locked = yield* store.browserProfiles.lock(teamId, profile.name, holder, now, now + plan.timeoutMs + 30_000)
      if (!locked) {
        return yield* new ConflictError({ message: messages.profileBusy(profile.name) })
      }
      const rendered = yield* render(now, { storageState, keep: true }).pipe(
        Effect.onError(() => store.browserProfiles.unlock(teamId, profile.name, holder))
      )
      if (rendered.storageState !== undefined) {
        yield* store.browserProfiles.save(teamId, profile.name, holder, rendered.storageState, yield* Clock.currentTimeMillis)
      } else {
        yield* store.browserProfiles.unlock(teamId, profile.name, holder)
      }
      return rendered
    })

  if (mustRender) {
    const { storageState: _state, ...rendered } = plan.profile === undefined ? yield* render(now) : yield* renderWithProfile(plan.profile)
    const made: ObtainedPage = { ...rendered, cacheState: "miss", fetchedAt: yield* Clock.currentTimeMillis, proxyUsed: "basic", engine: "browser", warnings: [] }
    return made
  }

  let page: FetchedPage
  let proxyUsed: "basic" | "stealth" = "basic"
  let engine: "fetch" | "browser" = "fetch"
  const warnings: Array<string> = []
  // a file (a PDF, a download) cannot be rendered: it is fetched like any other request
  const preferred = (plan.waitForMs > 0 || plan.mobile) && canRender
    ? yield* render(now).pipe(
      Effect.map((rendered) => Option.some(rendered.page)),
      Effect.catchTag("ScrapeUnsupportedFileError", () => Effect.succeed(Option.none<FetchedPage>()))
    )
    : Option.none<FetchedPage>()
  if (Option.isSome(preferred)) {
    page = preferred.value
    engine = "browser"
  } else {
    const fetchVia = (proxyUrl: string | undefined) =>
      fetcher.fetch({
        url: plan.url.href,
        headers,
        timeoutMs: plan.timeoutMs,
        maxBodyBytes: config.maxPageBytes,
        skipTlsVerification: plan.skipTlsVerification,
        ...(proxyUrl === undefined ? {} : { proxyUrl })
      })
    const stealthFirst = plan.proxy === "stealth" && Option.isSome(proxy)
    let response = yield* fetchVia(stealthFirst ? Option.getOrUndefined(proxy) : undefined)
    proxyUsed = stealthFirst ? "stealth" : "basic"
    if (plan.proxy === "auto" && Option.isSome(proxy) && REFUSED.has(response.status)) {
      response = yield* fetchVia(proxy.value)
      proxyUsed = "stealth"
    }
    page = {
      url: response.url,
      statusCode: response.status,
      contentType: response.headers["content-type"] ?? null,
      body: response.body
    }
    // a stealth-proxied page stays as fetched: the browser does not go through that proxy
    if (canRender && proxyUsed === "basic" && needsRendering(page)) {
      const rendered = yield* Effect.either(render(now))
      if (rendered._tag === "Right") {
        page = rendered.right.page
        engine = "browser"
      } else {
        warnings.push(`The page seems to need JavaScript, but rendering it failed (${rendered.left.message}): this is the page as fetched.`)
      }
    }
  }
  const fetchedAt = yield* Clock.currentTimeMillis
  if (plan.cache.store && page.statusCode >= 200 && page.statusCode < 300) {
    yield* store.pageCache.put({ teamId, key, ...page, fetchedAt })
  }
  const obtained: ObtainedPage = { page, cacheState: "miss", fetchedAt, proxyUsed, engine, warnings }
  return obtained
})
