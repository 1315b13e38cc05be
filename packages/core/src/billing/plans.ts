/**
 * Plans: what a team may use. Credits per monthly billing period, per-minute request limits per
 * endpoint bucket, and concurrent jobs. The paid tiers follow Firecrawl's published plan table so
 * limits feel familiar; `selfhost` is the generous default of a self-hosted install.
 */

/** Endpoint buckets that share a per-minute request limit (upstream's rate-limiter modes). */
export const rateLimitBuckets = [
  "scrape",
  "map",
  "crawl",
  "search",
  "extract",
  "browser",
  "browserExecute",
  "crawlStatus",
  "extractStatus",
  "account"
] as const
export type RateLimitBucket = (typeof rateLimitBuckets)[number]

export interface Plan {
  readonly name: string
  /** Credits granted per billing period (a calendar month, UTC). */
  readonly creditsPerPeriod: number
  /** Jobs of the team that may run at once; more wait in the queue. */
  readonly concurrency: number
  /** Requests per minute per bucket. */
  readonly rateLimits: Readonly<Record<RateLimitBucket, number>>
}

const limits = (
  l: Omit<Record<RateLimitBucket, number>, "account" | "extractStatus" | "browserExecute"> &
    Partial<Record<"account" | "extractStatus" | "browserExecute", number>>
): Record<RateLimitBucket, number> => ({ account: 1000, extractStatus: 500, browserExecute: 10 * l.browser, ...l })

export const plans: ReadonlyArray<Plan> = [
  {
    name: "free",
    creditsPerPeriod: 500,
    concurrency: 2,
    rateLimits: limits({ scrape: 10, map: 10, crawl: 1, search: 5, extract: 10, browser: 2, crawlStatus: 1500 })
  },
  {
    name: "hobby",
    creditsPerPeriod: 3_000,
    concurrency: 5,
    rateLimits: limits({ scrape: 100, map: 100, crawl: 15, search: 50, extract: 100, browser: 5, crawlStatus: 1500 })
  },
  {
    name: "standard",
    creditsPerPeriod: 100_000,
    concurrency: 50,
    rateLimits: limits({ scrape: 500, map: 500, crawl: 50, search: 250, extract: 500, browser: 20, crawlStatus: 1500 })
  },
  {
    name: "growth",
    creditsPerPeriod: 500_000,
    concurrency: 100,
    rateLimits: limits({ scrape: 5000, map: 5000, crawl: 250, search: 2500, extract: 1000, browser: 50, crawlStatus: 1500 })
  },
  {
    name: "selfhost",
    creditsPerPeriod: 100_000_000,
    concurrency: 50,
    rateLimits: limits({
      scrape: 100_000,
      map: 100_000,
      crawl: 10_000,
      search: 100_000,
      extract: 10_000,
      browser: 1_000,
      crawlStatus: 100_000,
      account: 100_000,
      extractStatus: 100_000
    })
  }
]

export const findPlan = (name: string): Plan | undefined => plans.find((p) => p.name === name)
