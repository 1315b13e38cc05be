/**
 * A site's robots.txt and sitemaps as crawl and map read them, through the Fetcher (so the SSRF
 * guard applies). robots.txt is fetched once per origin (concurrent askers share the fetch) and
 * read as RFC 9309 says: 4xx means no rules, 5xx or no answer means nothing is allowed.
 * Sitemaps are the robots.txt `Sitemap:` lines and `/sitemap.xml`, index files followed, gzip
 * inflated, at most `maxSitemapFiles` files.
 */
import { Effect } from "effect"
import type { UnsafeAddressError } from "../errors.js"
import type { Fetcher } from "../ports/fetcher.js"
import { isAllowed, parseRobots, robotsAllowAll, robotsDisallowAll, robotsRules, robotsSitemaps, type RobotsRules } from "./robots.js"
import { parseSitemap } from "./sitemap.js"

/** Sitemap files read at most per crawl or map. */
export const maxSitemapFiles = 25
const robotsTimeoutMs = 10_000
const sitemapTimeoutMs = 20_000

export interface RobotsEntry {
  readonly rules: RobotsRules
  readonly sitemaps: ReadonlyArray<string>
  /** Set when the SSRF guard refused the request. */
  readonly unsafe?: UnsafeAddressError
}

export interface SiteFiles {
  readonly robots: (origin: string) => Effect.Effect<RobotsEntry>
  /** Whether robots.txt lets `agent` fetch the URL (always, with `ignore`). */
  readonly allows: (url: URL) => Effect.Effect<boolean>
}

/** robots.txt per origin for this user agent, cached for the life of the returned reader. */
export const siteFiles = (fetcher: Fetcher["Type"], agent: string, ignoreRobots: boolean): Effect.Effect<SiteFiles> =>
  Effect.map(
    Effect.cachedFunction((origin: string) =>
      fetcher.fetch({
        url: `${origin}/robots.txt`,
        timeoutMs: robotsTimeoutMs,
        maxBodyBytes: 512 * 1024,
        headers: { "user-agent": `${agent}/1.0 (Gleaner)` }
      }).pipe(
        Effect.map((response): RobotsEntry => {
          if (response.status >= 500) return { rules: robotsDisallowAll, sitemaps: [] }
          if (response.status >= 400) return { rules: robotsAllowAll, sitemaps: [] }
          const robots = parseRobots(new TextDecoder().decode(response.body))
          return { rules: robotsRules(robots, agent), sitemaps: robotsSitemaps(robots) }
        }),
        Effect.catchAll((error): Effect.Effect<RobotsEntry> =>
          Effect.succeed({ rules: robotsDisallowAll, sitemaps: [], ...(error._tag === "UnsafeAddressError" ? { unsafe: error } : {}) }))
      )),
    (robots) => ({
      robots,
      allows: (url) => (ignoreRobots ? Effect.succeed(true) : Effect.map(robots(url.origin), (entry) => isAllowed(entry.rules, url)))
    })
  )

export interface SitemapReading {
  readonly start: URL
  /** Sitemaps robots.txt names. */
  readonly declared: ReadonlyArray<string>
  readonly headers?: Readonly<Record<string, string>>
  readonly maxBodyBytes: number
  /** Stop reading (enough URLs). */
  readonly enough: () => boolean
  /** Called for every absolute URL a sitemap lists, in order. */
  readonly onUrl: (url: URL) => Effect.Effect<void>
}

/** Reads the site's sitemaps until none is left, `maxSitemapFiles` were read, or `enough()`. */
export const readSitemaps = (fetcher: Fetcher["Type"], reading: SitemapReading): Effect.Effect<void> =>
  Effect.gen(function*() {
    const toRead = [...new Set([...reading.declared, `${reading.start.origin}/sitemap.xml`])]
    const read = new Set<string>()
    while (toRead.length > 0 && read.size < maxSitemapFiles && !reading.enough()) {
      const next = toRead.shift()
      if (next === undefined || read.has(next)) continue
      read.add(next)
      const answer = yield* Effect.either(fetcher.fetch({
        url: next,
        timeoutMs: sitemapTimeoutMs,
        maxBodyBytes: reading.maxBodyBytes,
        ...(reading.headers === undefined ? {} : { headers: reading.headers })
      }))
      if (answer._tag === "Left" || answer.right.status >= 400) continue
      const body = answer.right.body
      const sitemap = yield* Effect.try(() => parseSitemap(body)).pipe(Effect.orElseSucceed(() => ({ urls: [], sitemaps: [] })))
      toRead.push(...sitemap.sitemaps)
      for (const { loc } of sitemap.urls) {
        if (reading.enough()) return
        if (URL.canParse(loc)) yield* reading.onUrl(new URL(loc))
      }
    }
  })
