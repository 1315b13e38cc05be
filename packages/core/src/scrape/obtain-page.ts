/**
 * Getting the page: from the team's cache when the plan allows it (maxAge, minAge, lockdown),
 * otherwise from the Fetcher — directly, or through the operator's stealth proxy when asked for or
 * when `proxy: "auto"` meets a page that refuses a plain fetch (401, 403, 429).
 */
import { Clock, Effect, Option, Redacted } from "effect"
import type { GleanerConfig } from "../config.js"
import { ScrapeLockdownCacheMissError, ScrapeNoCachedDataError } from "../errors.js"
import type { Fetcher } from "../ports/fetcher.js"
import type { Store } from "../ports/store.js"
import type { ScrapePlan } from "./plan.js"
import type { FetchedPage } from "./produce.js"
import { requestHeaders } from "./request-headers.js"
import { cacheKey } from "./url.js"

export interface ObtainedPage {
  readonly page: FetchedPage
  readonly cacheState: "hit" | "miss"
  /** When the served copy was fetched (a hit's original fetch time). */
  readonly fetchedAt: number
  readonly proxyUsed: "basic" | "stealth"
}

const REFUSED = new Set([401, 403, 429])

export interface ObtainDeps {
  readonly store: Store["Type"]
  readonly fetcher: Fetcher["Type"]
  readonly config: GleanerConfig["Type"]
}

export const obtainPage = ({ config, fetcher, store }: ObtainDeps) => Effect.fnUntraced(function*(plan: ScrapePlan, teamId: string) {
  const now = yield* Clock.currentTimeMillis
  const proxy = Option.map(config.stealthProxyUrl, Redacted.value)
  const key = cacheKey(plan.url, {
    mobile: plan.mobile,
    headers: plan.headers,
    languages: plan.languages,
    stealth: plan.proxy === "stealth"
  })

  const cacheOnly = plan.lockdown || plan.cache.minAgeMs !== undefined
  if (plan.cache.maxAgeMs > 0 || cacheOnly) {
    const cached = yield* store.pageCache.get(teamId, key)
    const age = Option.map(cached, (c) => now - c.fetchedAt)
    const fresh = Option.filter(cached, (c) =>
      now - c.fetchedAt <= plan.cache.maxAgeMs && (plan.cache.minAgeMs === undefined || now - c.fetchedAt >= plan.cache.minAgeMs))
    if (Option.isSome(fresh)) {
      const c = fresh.value
      return {
        page: { url: c.url, statusCode: c.statusCode, contentType: c.contentType, body: c.body },
        cacheState: "hit",
        fetchedAt: c.fetchedAt,
        proxyUsed: plan.proxy === "stealth" && Option.isSome(proxy) ? "stealth" : "basic"
      } satisfies ObtainedPage
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
  let proxyUsed: "basic" | "stealth" = stealthFirst ? "stealth" : "basic"
  if (plan.proxy === "auto" && Option.isSome(proxy) && REFUSED.has(response.status)) {
    response = yield* fetchVia(proxy.value)
    proxyUsed = "stealth"
  }
  const page: FetchedPage = {
    url: response.url,
    statusCode: response.status,
    contentType: response.headers["content-type"] ?? null,
    body: response.body
  }
  const fetchedAt = yield* Clock.currentTimeMillis
  if (plan.cache.store && page.statusCode >= 200 && page.statusCode < 300) {
    yield* store.pageCache.put({ teamId, key, ...page, fetchedAt })
  }
  return { page, cacheState: "miss", fetchedAt, proxyUsed } satisfies ObtainedPage
})
