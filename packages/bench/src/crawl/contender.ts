/**
 * What the crawl benchmark asks of each contender: given the site's start page, the number of
 * pages and the concurrency, `setup` prepares a crawl (untimed: opening a database, building a
 * crawler) and returns `run`, the part that is timed, and `dispose`.
 */

export interface CrawlInput {
  /** The start page (the site's `/`); links are discovered from there, no sitemap. */
  readonly start: string
  /** Pages to crawl: the crawl's limit and the site's size. */
  readonly pages: number
  /** Pages in flight at once. */
  readonly concurrency: number
  /** A fresh temporary directory for this run's storage. */
  readonly dir: string
}

/** What a crawl reports about itself, checked against the site's own counters. */
export interface CrawlOutcome {
  /** Pages the crawler reports as done. */
  readonly pages: number
  /** Distinct URLs among them. */
  readonly distinctUrls: number
  /** Pages the crawler reports as failed. */
  readonly failed: number
  /** Characters of text (markdown, page text) the crawler kept, summed over pages. */
  readonly outputChars: number
}

export interface PreparedCrawl {
  readonly run: () => Promise<CrawlOutcome>
  readonly dispose: () => Promise<void>
}

export interface CrawlContender {
  readonly name: string
  /** One line on what the contender does per page (for the report). */
  readonly work: string
  readonly setup: (input: CrawlInput) => Promise<PreparedCrawl>
}
