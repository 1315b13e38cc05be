/**
 * The Mapper (API.md §3.7): `POST /v2/map` answers the URLs of a site quickly, without scraping
 * them. It checks the request (URL, plan features, regexes, threat lists), makes sure the team
 * can pay its one credit, gathers links (map-run.ts) within the caller's `timeout`, ranks them
 * when there is a `search` (rank.ts), cuts the list to `limit`, and bills one credit per
 * successful call.
 *
 * Decisions where upstream's map leans on services Gleaner does not have (a URL index, a search
 * engine) or leaves the meaning open:
 * - `filterByPath` (default true) lists only URLs at or below the start URL's path, as a crawl
 *   follows only those; `filterByPath: false` or `crawlEntireDomain: true` lifts it. The walk
 *   is held to the same rule.
 * - `includeSubdomains` (default true) is the map's name for the crawl's `allowSubdomains`; when
 *   only `allowSubdomains` is given, it is used instead.
 * - `ignoreQueryParameters` defaults to true here (the crawl's default is false).
 * - `allowExternalLinks` lists links to other hosts found on the site's pages; those hosts are
 *   never walked.
 * - `useIndex` and `ignoreCache` are accepted and change nothing: there is no index or sitemap
 *   cache. `auditMetadata` is accepted; a map keeps no record to attach it to.
 */
import { Clock, Duration, Effect } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { Billing } from "../billing/billing.js"
import { featuresRequested, Plans } from "../billing/plans.js"
import { GleanerConfig } from "../config.js"
import { defaultRobotsAgent } from "../crawl/crawl-run.js"
import { compileScope, type CrawlScopeOptions, scopeOptions } from "../crawl/scope.js"
import { BadRequestError, MapTimeoutError, UnsafeDomainError } from "../errors.js"
import { uuidv7At } from "../ids.js"
import { Fetcher } from "../ports/fetcher.js"
import { defaultMapLimit, type MapLink, type MapRequest } from "../schema/map.js"
import { requestHeaders, languagesOfCountry } from "../scrape/request-headers.js"
import { normalizeRequestUrl } from "../scrape/url.js"
import { checkThreatProtection, type ThreatProtectionVerdict } from "../transform/formats/threat-protection.js"
import { gatherLinks, type MapPlan } from "./map-run.js"
import { rankLinks } from "./rank.js"

/** Pages the link walk reads at most (fewer when the limit is lower). */
export const maxWalkPages = 200

/** Pages the link walk reads at once at most (fewer when the team's concurrency is lower). */
export const walkConcurrency = 10

export interface MapResult {
  readonly id: string
  readonly links: ReadonlyArray<MapLink>
  readonly warning?: string
}

/** The scope options a map request describes (see the module comment for the map's defaults). */
const scopeOptionsOf = (request: MapRequest): CrawlScopeOptions =>
  scopeOptions({
    ...(request.includePaths === undefined ? {} : { includePaths: request.includePaths }),
    ...(request.excludePaths === undefined ? {} : { excludePaths: request.excludePaths }),
    ...(request.regexOnFullURL === undefined ? {} : { regexOnFullURL: request.regexOnFullURL }),
    ...(request.maxDiscoveryDepth === undefined ? {} : { maxDiscoveryDepth: request.maxDiscoveryDepth }),
    ...(request.allowExternalLinks === undefined ? {} : { allowExternalLinks: request.allowExternalLinks }),
    ...(request.deduplicateSimilarURLs === undefined ? {} : { deduplicateSimilarURLs: request.deduplicateSimilarURLs }),
    crawlEntireDomain: request.crawlEntireDomain === true || request.filterByPath === false,
    allowSubdomains: request.includeSubdomains ?? request.allowSubdomains ?? true,
    ignoreQueryParameters: request.ignoreQueryParameters ?? true
  })

/** The scopes of the list and of the walk, or the 400 a bad regex earns. */
const scopesOf = (start: URL, request: MapRequest) => {
  const options = scopeOptionsOf(request)
  const results = compileScope(start, options)
  if (!results.ok) {
    return Effect.fail(new BadRequestError({ message: results.message, details: [{ path: [results.field, results.index], message: results.message }] }))
  }
  const walk = compileScope(start, { ...options, includePaths: [], excludePaths: [], allowExternalLinks: false })
  return walk.ok ? Effect.succeed({ results: results.scope, walk: walk.scope }) : Effect.dieMessage(walk.message)
}

/** The threat-protection lists as a test on URLs (everything passes without them). */
const threatVerdict = (request: MapRequest): (url: string) => ThreatProtectionVerdict => {
  const policy = request.threatProtection
  if (policy === undefined || policy.mode === "off") return () => ({ allowed: true })
  const { blacklist, blockedTlds, mode, whitelist } = policy
  const options = {
    ...(mode === undefined ? {} : { mode }),
    ...(blacklist === undefined ? {} : { blacklist }),
    ...(whitelist === undefined ? {} : { whitelist }),
    ...(blockedTlds === undefined ? {} : { blockedTlds })
  }
  return (url: string) => checkThreatProtection(url, options)
}

/** Upstream's hint when a map of a sub-path found next to nothing. */
const fewResultsWarning = (start: URL, found: number, limit: number): string | undefined =>
  found <= 1 && start.pathname !== "/" && limit !== 1
    ? `Only ${found} result(s) found. For broader coverage, try mapping the base domain: ${start.protocol}//${start.host}`
    : undefined

export class Mapper extends Effect.Service<Mapper>()("@gleaner/core/Mapper", {
  effect: Effect.gen(function*() {
    const billing = yield* Billing
    const plans = yield* Plans
    const config = yield* GleanerConfig
    const fetcher = yield* Fetcher

    const map = Effect.fn("Mapper.map")(function*(auth: AuthContext, request: MapRequest) {
      const start = yield* normalizeRequestUrl(request.url)
      yield* plans.require(auth.team.plan, featuresRequested(request))
      const { results, walk } = yield* scopesOf(start, request)
      const verdict = threatVerdict(request)
      const startVerdict = verdict(start.href)
      if (!startVerdict.allowed) return yield* new UnsafeDomainError({ message: startVerdict.reason })
      yield* billing.ensure(auth.team.id, 1)
      const id = uuidv7At(yield* Clock.currentTimeMillis)

      const limit = request.limit ?? defaultMapLimit
      // with a search, rank a wider pool than the limit so the best matches can rise into it
      const maxLinks = request.search === undefined ? limit : Math.max(limit, defaultMapLimit)
      const plan: MapPlan = {
        start,
        results,
        walk,
        sitemap: request.sitemap ?? "include",
        maxLinks,
        maxPages: Math.min(maxLinks, maxWalkPages),
        concurrency: Math.max(1, Math.min(walkConcurrency, auth.team.maxConcurrency)),
        ...(request.delay === undefined ? {} : { delayMs: request.delay * 1000 }),
        ignoreRobots: request.ignoreRobotsTxt === true,
        robotsAgent: request.robotsUserAgent ?? defaultRobotsAgent,
        headers: requestHeaders({
          mobile: false,
          languages: request.location?.languages ?? languagesOfCountry(request.location?.country),
          headers: request.headers ?? {}
        }),
        permitted: (url) => verdict(url).allowed
      }
      const gather = gatherLinks({ fetcher, maxPageBytes: config.maxPageBytes }, plan)
      const timeoutMs = request.timeout
      const found = yield* timeoutMs === undefined ? gather : gather.pipe(
        Effect.timeoutFail({
          duration: Duration.millis(timeoutMs),
          onTimeout: () => new MapTimeoutError({ message: `The map of ${start.href} did not finish within its timeout of ${timeoutMs} ms. Raise timeout, lower limit, or map a narrower path.` })
        })
      )
      const ranked = request.search === undefined ? found : rankLinks(found, request.search)
      const links = ranked.slice(0, limit)
      yield* billing.debit({ teamId: auth.team.id, apiKeyId: auth.apiKeyId, operation: "map", jobId: id, credits: 1, idempotencyKey: `map:${id}` })
      const warning = fewResultsWarning(start, links.length, limit)
      return { id, links, ...(warning === undefined ? {} : { warning }) } satisfies MapResult
    })

    return { map } as const
  })
}) {}
