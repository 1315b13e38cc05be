/**
 * How a map finds links (API.md §3.7): the site's sitemaps, then a bounded breadth-first walk
 * over its pages collecting `<a href>` links, every candidate checked against the scope rules,
 * robots.txt and the threat-protection lists before it joins the list. Nothing is stored and
 * nothing is billed here; the Mapper does that around it.
 *
 * - **Sitemaps** (unless `sitemap: "skip"`): the `Sitemap:` lines of the start origin's
 *   robots.txt and `/sitemap.xml`, index files followed and gzip inflated, at most
 *   `maxSitemapFiles` files read (see crawl/site-files.ts).
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
import type { Fetcher } from "../ports/fetcher.js"
import type { MapLink } from "../schema/map.js"
import type { CrawlScope } from "../crawl/scope.js"
import { readSitemaps, siteFiles } from "../crawl/site-files.js"
import { summarisePage } from "./page-summary.js"

/** Sitemap files read at most per map (index files count). */
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

interface Step {
  readonly url: URL
  readonly depth: number
}

export const gatherLinks = (deps: MapDeps, plan: MapPlan) =>
  Effect.gen(function*() {
    const { fetcher } = deps
    const { results, walk, start } = plan

    const site = yield* siteFiles(fetcher, plan.robotsAgent, plan.ignoreRobots)
    const robotsAllows = site.allows

    const home = yield* site.robots(start.origin)
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

    const readSitemapUrls = readSitemaps(fetcher, {
      start,
      declared: home.sitemaps,
      headers: plan.headers,
      maxBodyBytes: deps.maxPageBytes,
      enough: full,
      onUrl: (url) => offer(url, 0)
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
    if (plan.sitemap !== "skip") yield* readSitemapUrls
    if (plan.sitemap !== "only") yield* runWalk
    return [...found.values()].map((entry): MapLink => ({ ...entry }))
  })
