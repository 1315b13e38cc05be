/**
 * How a map finds links (API.md §3.7): the site's sitemaps, then a bounded breadth-first walk
 * over its pages collecting `<a href>` links, every candidate checked against the scope rules,
 * robots.txt and the threat-protection lists before it joins the list. Nothing is stored and
 * nothing is billed here; the Mapper does that around it.
 *
 * - **Sitemaps** (unless `sitemap: "skip"`): the `Sitemap:` lines of the start origin's
 *   robots.txt and `/sitemap.xml`, index files followed and gzip inflated, at most
 *   `maxSitemapFiles` files read.
 * - **Walk** (unless `sitemap: "only"`): the start page, then the pages it links to, level by
 *   level, `concurrency` at a time, at most `maxPages` pages in all. Only HTML pages on the start's
 *   host (and its subdomains when they are in scope) are read; the caller's include/exclude
 *   patterns filter the list, not the walk, so a page outside them can still lead to pages
 *   inside. Each page read gives its link a title and a description.
 * - It stops once `maxLinks` links are found. The order of the list is the order of discovery
 *   (start page, sitemap entries, then links level by level in document order), independent of
 *   which fetch answers first.
 *
 * Every request goes through the Fetcher, so the SSRF guard sees every hop. The robots.txt of the
 * start origin is read first; when the guard refuses it, the map fails with that error rather
 * than answering an empty list.
 */
import { Effect } from "effect"
import type { UnsafeAddressError } from "../errors.js"
import type { Fetcher } from "../ports/fetcher.js"
import type { MapLink } from "../schema/map.js"
import { isAllowed, parseRobots, robotsAllowAll, robotsDisallowAll, robotsRules, robotsSitemaps, type RobotsRules } from "../crawl/robots.js"
import type { CrawlScope } from "../crawl/scope.js"
import { parseSitemap } from "../crawl/sitemap.js"
import { summarisePage } from "./page-summary.js"

/** Sitemap files read at most per map (index files count). */
export const maxSitemapFiles = 25
const robotsTimeoutMs = 10_000
const sitemapTimeoutMs = 20_000
/** Deadline of one page fetched by the walk; a slower page is left out, not waited for. */
const pageTimeoutMs = 15_000

export interface MapDeps {
  readonly fetcher: Fetcher["Type"]
  readonly maxPageBytes: number
}

/** What one map looks for; the Mapper builds it from the request. */
export interface MapPlan {
  readonly start: URL
  /** Which links are listed (host, path, file type, include/exclude, depth). */
  readonly results: CrawlScope
  /** Which pages the walk reads: like `results` without include/exclude and external hosts. */
  readonly walk: CrawlScope
  readonly sitemap: "only" | "include" | "skip"
  /** Links collected at most. */
  readonly maxLinks: number
  /** Pages the walk reads at most. */
  readonly maxPages: number
  /** Pages read at once. */
  readonly concurrency: number
  /** Pause after each page, in milliseconds (the walk then reads one page at a time). */
  readonly delayMs?: number
  readonly ignoreRobots: boolean
  /** The user agent whose robots.txt rules apply. */
  readonly robotsAgent: string
  /** Headers of page and sitemap requests. */
  readonly headers: Readonly<Record<string, string>>
  /** The threat-protection lists: false for a URL they refuse. */
  readonly permitted: (url: string) => boolean
}

interface RobotsEntry {
  readonly rules: RobotsRules
  readonly sitemaps: ReadonlyArray<string>
  /** Set when the SSRF guard refused the request. */
  readonly unsafe?: UnsafeAddressError
}

interface Step {
  readonly url: URL
  readonly depth: number
}

export const gatherLinks = (deps: MapDeps, plan: MapPlan) =>
  Effect.gen(function*() {
    const { fetcher } = deps
    const { results, walk, start } = plan

    // robots.txt, once per origin (concurrent askers share one fetch)
    const robotsFor = yield* Effect.cachedFunction((origin: string) =>
      fetcher.fetch({
        url: `${origin}/robots.txt`,
        timeoutMs: robotsTimeoutMs,
        maxBodyBytes: 512 * 1024,
        headers: { "user-agent": `${plan.robotsAgent}/1.0 (Gleaner)` }
      }).pipe(
        Effect.map((response): RobotsEntry => {
          if (response.status >= 500) return { rules: robotsDisallowAll, sitemaps: [] }
          if (response.status >= 400) return { rules: robotsAllowAll, sitemaps: [] }
          const robots = parseRobots(new TextDecoder().decode(response.body))
          return { rules: robotsRules(robots, plan.robotsAgent), sitemaps: robotsSitemaps(robots) }
        }),
        Effect.catchAll((error): Effect.Effect<RobotsEntry> =>
          Effect.succeed({ rules: robotsDisallowAll, sitemaps: [], ...(error._tag === "UnsafeAddressError" ? { unsafe: error } : {}) }))
      ))
    const robotsAllows = (url: URL) =>
      plan.ignoreRobots ? Effect.succeed(true) : Effect.map(robotsFor(url.origin), (entry) => isAllowed(entry.rules, url))

    const home = yield* robotsFor(start.origin)
    if (home.unsafe !== undefined) return yield* home.unsafe

    // the list, in discovery order, keyed like the crawl frontier
    const found = new Map<string, { url: string; title?: string; description?: string }>()
    const considered = new Set<string>()
    const full = () => found.size >= plan.maxLinks

    const offer = (url: URL, depth: number) =>
      Effect.gen(function*() {
        if (full() || !results.decide(url, depth).follow) return
        const key = results.key(url)
        if (considered.has(key)) return
        considered.add(key)
        const target = results.fetchUrl(url)
        if (!plan.permitted(target.href) || !(yield* robotsAllows(target))) return
        if (!full()) found.set(key, { url: target.href })
      })

    const readSitemaps = Effect.gen(function*() {
      const toRead = [...new Set([...home.sitemaps, `${start.origin}/sitemap.xml`])]
      const read = new Set<string>()
      while (toRead.length > 0 && read.size < maxSitemapFiles && !full()) {
        const next = toRead.shift()
        if (next === undefined || read.has(next)) continue
        read.add(next)
        const answer = yield* Effect.either(fetcher.fetch({ url: next, headers: plan.headers, timeoutMs: sitemapTimeoutMs, maxBodyBytes: deps.maxPageBytes }))
        if (answer._tag === "Left" || answer.right.status >= 400) continue
        const body = answer.right.body
        const sitemap = yield* Effect.try(() => parseSitemap(body)).pipe(Effect.orElseSucceed(() => ({ urls: [], sitemaps: [] })))
        toRead.push(...sitemap.sitemaps)
        for (const { loc } of sitemap.urls) {
          if (full()) break
          if (URL.canParse(loc)) yield* offer(new URL(loc), 0)
        }
      }
    })

    const readPage = (step: Step) =>
      fetcher.fetch({ url: step.url.href, headers: plan.headers, timeoutMs: pageTimeoutMs, maxBodyBytes: deps.maxPageBytes }).pipe(
        Effect.map(summarisePage),
        Effect.orElseSucceed(() => undefined),
        Effect.zipLeft(plan.delayMs === undefined ? Effect.void : Effect.sleep(plan.delayMs))
      )

    const runWalk = Effect.gen(function*() {
      const walked = new Set<string>([walk.key(start)])
      const first = walk.fetchUrl(start)
      let level: Array<Step> = (yield* robotsAllows(first)) ? [{ url: first, depth: 0 }] : []
      let budget = plan.maxPages
      while (level.length > 0 && budget > 0 && !full()) {
        const batch = level.slice(0, budget)
        budget -= batch.length
        const pages = yield* Effect.forEach(batch, readPage, { concurrency: plan.delayMs === undefined ? plan.concurrency : 1 })
        const next: Array<Step> = []
        for (const [i, page] of pages.entries()) {
          const step = batch[i]
          if (page === undefined || step === undefined) continue
          const entry = found.get(results.key(step.url))
          if (entry !== undefined) {
            if (page.title !== undefined) entry.title = page.title
            if (page.description !== undefined) entry.description = page.description
          }
          for (const link of page.links) {
            if (!URL.canParse(link)) continue
            const url = new URL(link)
            const depth = step.depth + 1
            yield* offer(url, depth)
            if (!walk.decide(url, depth).follow) continue
            const key = walk.key(url)
            if (walked.has(key)) continue
            walked.add(key)
            const target = walk.fetchUrl(url)
            if (plan.permitted(target.href) && (yield* robotsAllows(target))) next.push({ url: target, depth })
          }
        }
        level = next
      }
    })

    if (plan.sitemap !== "only") yield* offer(start, 0)
    if (plan.sitemap !== "skip") yield* readSitemaps
    if (plan.sitemap !== "only") yield* runWalk
    return [...found.values()].map((entry): MapLink => ({ ...entry }))
  })
