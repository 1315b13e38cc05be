/**
 * One attempt at running a crawl job. The frontier lives in the store (`jobPages`), so an attempt
 * that dies (a killed process, a lost lease) is picked up by the next one where it stopped: pages
 * already settled are not fetched again, a page in flight is scraped again and still counts once
 * (its row is settled once, its credits carry an idempotency key).
 *
 * The attempt seeds the frontier on its first run (the start URL, then the site's sitemaps unless
 * `sitemap: "skip"`), then N fibers take pages from an in-memory queue: scrape with the crawl's
 * scrapeOptions, add the links that are in scope (robots.txt-blocked ones are recorded as such),
 * settle the page. It ends when the queue is empty and nothing is in flight.
 */
import { Clock, Effect, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { InternalError } from "../errors.js"
import type { JobNotifier } from "../jobs/job-webhooks.js"
import { type PoolPage, runPagePool } from "../jobs/page-pool.js"
import type { Fetcher } from "../ports/fetcher.js"
import type { Job, NewJobPage, StoreService, Team } from "../ports/store.js"
import { CrawlRequest } from "../schema/crawl.js"
import type { Document } from "../schema/document.js"
import type { Format } from "../schema/scrape-options.js"
import type { Scraper } from "../scrape/scraper.js"
import { compileScope, type CrawlScope, scopeOptions } from "./scope.js"
import { readSitemaps, siteFiles } from "./site-files.js"

/** The user agent whose robots.txt rules a crawl obeys unless `robotsUserAgent` says otherwise. */
export const defaultRobotsAgent = "FirecrawlAgent"

/** What a crawl job carries in the queue. */
export const CrawlPayload = Schema.Struct({
  url: Schema.String,
  apiKeyId: Schema.NullOr(Schema.String),
  request: CrawlRequest,
  /** Where clients reached the server when the crawl started: the base of served file URLs. */
  origin: Schema.optional(Schema.String)
})

export interface CrawlDeps {
  readonly notify: JobNotifier
  readonly store: StoreService
  readonly fetcher: Fetcher["Type"]
  readonly scraper: Scraper
  readonly maxPageBytes: number
}

const encodeDocument = (document: Document): string => JSON.stringify(document)

const formatName = (f: Format): string => (typeof f === "string" ? f : f.type)

/** The crawl's scrape options with `links` added (the crawl needs them to find pages). */
const withLinks = (request: CrawlRequest): { readonly formats: ReadonlyArray<Format>; readonly userWantsLinks: boolean } => {
  const formats = request.scrapeOptions?.formats ?? ["markdown"]
  const userWantsLinks = formats.some((f) => formatName(f) === "links")
  return { formats: userWantsLinks ? formats : [...formats, "links"], userWantsLinks }
}

/** The scope a request describes (its regexes were checked when the crawl started). */
export const scopeOf = (start: URL, request: CrawlRequest) =>
  compileScope(start, scopeOptions({
    ...(request.includePaths === undefined ? {} : { includePaths: request.includePaths }),
    ...(request.excludePaths === undefined ? {} : { excludePaths: request.excludePaths }),
    ...(request.regexOnFullURL === undefined ? {} : { regexOnFullURL: request.regexOnFullURL }),
    ...(request.maxDiscoveryDepth === undefined ? {} : { maxDiscoveryDepth: request.maxDiscoveryDepth }),
    ...(request.crawlEntireDomain === undefined ? {} : { crawlEntireDomain: request.crawlEntireDomain }),
    ...(request.allowSubdomains === undefined ? {} : { allowSubdomains: request.allowSubdomains }),
    ...(request.allowExternalLinks === undefined ? {} : { allowExternalLinks: request.allowExternalLinks }),
    ...(request.ignoreQueryParameters === undefined ? {} : { ignoreQueryParameters: request.ignoreQueryParameters }),
    ...(request.deduplicateSimilarURLs === undefined ? {} : { deduplicateSimilarURLs: request.deduplicateSimilarURLs })
  }))

/** Pages fetched at once: `maxConcurrency` (capped by the team's), 1 with a `delay`, else the team's. */
export const pageConcurrency = (request: CrawlRequest, team: Team): number => {
  const cap = Math.max(1, team.maxConcurrency)
  if (request.maxConcurrency !== undefined) return Math.min(request.maxConcurrency, cap)
  return request.delay === undefined ? cap : 1
}

const errorJson = (code: string, error: string): string => JSON.stringify({ code, error })

export const runCrawl = (deps: CrawlDeps, job: Job, team: Team, request: CrawlRequest, apiKeyId: string | null) =>
  Effect.gen(function*() {
    const { store, fetcher, scraper } = deps
    const start = new URL(request.url)
    const compiled = scopeOf(start, request)
    if (!compiled.ok) return yield* new InternalError({ message: `Crawl ${job.id} has invalid rules: ${compiled.message}` })
    const scope: CrawlScope = compiled.scope
    const auth: AuthContext = { team, apiKeyId }
    const limit = request.limit ?? 10_000
    const agent = request.robotsUserAgent ?? defaultRobotsAgent
    const ignoreRobots = request.ignoreRobotsTxt === true

    // robots.txt, once per origin for this attempt
    const site = yield* siteFiles(fetcher, agent, ignoreRobots)
    const robotsAllows = site.allows

    // Pages admitted to the frontier (not robots-blocked), against `limit`; `seen` holds every key.
    // Both are checked and updated without a yield in between, so concurrent workers cannot
    // admit one URL twice or overshoot the limit.
    let accepted = 0
    const seen = new Set<string>()

    /** Turns candidate URLs into frontier rows: in scope, not seen, under the limit; robots-blocked ones recorded. */
    const admit = (candidates: ReadonlyArray<{ readonly url: URL; readonly depth: number }>) =>
      Effect.gen(function*() {
        const reserved: Array<{ readonly url: URL; readonly key: string; readonly depth: number }> = []
        for (const { url, depth } of candidates) {
          if (accepted >= limit) break
          if (!scope.decide(url, depth).follow) continue
          const key = scope.key(url)
          if (seen.has(key)) continue
          seen.add(key)
          accepted += 1
          reserved.push({ url, key, depth })
        }
        if (reserved.length === 0) return []
        const rows: Array<NewJobPage> = []
        for (const { url, key, depth } of reserved) {
          const fetchUrl = scope.fetchUrl(url).href
          if (yield* robotsAllows(url)) rows.push({ key, url: fetchUrl, depth })
          else {
            accepted -= 1
            rows.push({ key, url: fetchUrl, depth, status: "blocked", error: "Blocked by robots.txt" })
          }
        }
        const added = new Set(yield* store.jobPages.add(job.id, team.id, rows, yield* Clock.currentTimeMillis))
        return rows.filter((row) => row.status !== "blocked" && added.has(row.key)).map((row) => ({ key: row.key, url: row.url, depth: row.depth }))
      })

    const sitemapUrls = Effect.gen(function*() {
      const found: Array<URL> = []
      yield* readSitemaps(fetcher, {
        start,
        declared: ignoreRobots ? [] : (yield* site.robots(start.origin)).sitemaps,
        maxBodyBytes: deps.maxPageBytes,
        enough: () => found.length >= limit,
        onUrl: (url) => Effect.sync(() => { found.push(url) })
      })
      return found
    })

    // first attempt: seed the frontier; later attempts rebuild it from the store
    const known = yield* store.jobPages.keys(job.id)
    if (known.length === 0) {
      const denial = scope.startDenial()
      if (denial !== undefined) {
        const key = scope.key(start)
        seen.add(key)
        yield* store.jobPages.add(job.id, team.id, [{ key, url: start.href, depth: 0 }], yield* Clock.currentTimeMillis)
        yield* store.jobPages.settle(job.id, key, { status: "failed", error: errorJson("CRAWL_DENIAL", denial) }, yield* Clock.currentTimeMillis)
        accepted += 1
      } else if (request.sitemap !== "only") {
        yield* admit([{ url: start, depth: 0 }])
      }
      if (request.sitemap !== "skip") yield* admit((yield* sitemapUrls).map((url) => ({ url, depth: 0 })))
    } else {
      for (const key of known) seen.add(key)
      const counts = yield* store.jobPages.counts(job.id)
      accepted = counts.pending + counts.done + counts.failed
    }

    const { formats, userWantsLinks } = withLinks(request)

    const scrapePage = (page: PoolPage) =>
      Effect.gen(function*() {
        const document = yield* scraper.scrape(auth, {
          ...request.scrapeOptions,
          formats,
          url: page.url,
          ...(request.zeroDataRetention === undefined ? {} : { zeroDataRetention: request.zeroDataRetention })
        }, { operation: "crawl", jobId: job.id, idempotencyKey: `crawl:${job.id}:${page.key}` })
        const links = document.links ?? []
        const { links: _links, ...withoutLinks } = document
        const found: Array<{ url: URL; depth: number }> = []
        for (const link of links) {
          if (URL.canParse(link)) found.push({ url: new URL(link), depth: page.depth + 1 })
        }
        // with `sitemap: "only"` the sitemap is the whole list: links are not followed
        const added = request.sitemap === "only" ? [] : yield* admit(found)
        const result = userWantsLinks ? document : withoutLinks
        const settled = yield* store.jobPages.settle(job.id, page.key, { status: "done", document: encodeDocument(result) }, yield* Clock.currentTimeMillis)
        if (settled) yield* deps.notify.page(result)
        return added
      })

    yield* runPagePool({
      store,
      jobId: job.id,
      workers: pageConcurrency(request, team),
      ...(request.delay === undefined ? {} : { delayMs: request.delay * 1000 }),
      process: scrapePage,
      onFailed: (page, error) => deps.notify.pageFailed(page.url, error.message)
    })
    yield* deps.notify.completed
    return { pages: accepted }
  })
