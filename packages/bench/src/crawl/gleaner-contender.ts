/**
 * Gleaner in-process: `Gleaner.open` on a fresh SQLite file (untimed), then `gleaner.crawl` of
 * the start page with `sitemap: "skip"`, `maxConcurrency: N` and markdown — the client's own
 * `crawl()`, which starts the job, polls its counts until it ends and then reads every document.
 * Per page that is the whole production path: fetch through the SSRF-checked undici fetcher;
 * metadata, cleaning, main content, markdown, links (in a transform thread); scope; the store's
 * writes (page cache, ledger, the frontier row with the document).
 *
 * The default `selfhost` plan allows 50 concurrent pages; above that a plans file in the run's
 * temp dir gives the team a plan that allows N.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Gleaner } from "@gleaner/client"
import { Option } from "effect"
import type { CrawlContender, CrawlInput, CrawlOutcome } from "./contender.js"

export interface GleanerSettings {
  /** How often `crawl()` looks at the status, in seconds. Default: the client's (0.25). */
  readonly pollIntervalSeconds?: number
  /**
   * `crawl` (default): the client's `crawl()`. `active`: `startCrawl`, then poll
   * `getActiveCrawls()` every 0.25 s until the crawl has left it, then read the status with every
   * document once.
   */
  readonly wait?: "crawl" | "active"
}

const selfhostConcurrency = 50

const benchPlan = (input: CrawlInput) => {
  if (input.concurrency <= selfhostConcurrency) return {}
  const file = join(input.dir, "plans.json")
  writeFileSync(file, JSON.stringify([{ name: "bench", base: "selfhost", creditsPerPeriod: 100_000_000, concurrency: input.concurrency }]))
  return { plansFile: Option.some(file), defaultPlan: "bench" }
}

/** The crawl every Gleaner contender runs. */
export const crawlOptions = (input: CrawlInput) => ({
  limit: input.pages,
  sitemap: "skip" as const,
  maxConcurrency: input.concurrency,
  scrapeOptions: { formats: ["markdown" as const] }
})

/** Waits until the crawl has left the team's active crawls (reads no documents). */
export const waitWhileActive = async (gleaner: Gleaner, id: string): Promise<void> => {
  for (;;) {
    const { crawls } = await gleaner.getActiveCrawls()
    if (!crawls.some((c) => c.id === id)) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const runCrawl = async (gleaner: Gleaner, input: CrawlInput, settings: GleanerSettings) => {
  if (settings.wait !== "active") {
    return gleaner.crawl(input.start, {
      ...crawlOptions(input),
      ...(settings.pollIntervalSeconds === undefined ? {} : { pollInterval: settings.pollIntervalSeconds })
    })
  }
  const { id } = await gleaner.startCrawl(input.start, crawlOptions(input))
  await waitWhileActive(gleaner, id)
  return gleaner.getCrawlStatus(id)
}

/** Gleaner on a fresh SQLite file in `input.dir`, its team allowed `input.concurrency` pages at once. */
export const openGleaner = async (input: CrawlInput): Promise<Gleaner> => {
  const gleaner = await Gleaner.open({
    database: join(input.dir, "gleaner.db"),
    dataDir: input.dir,
    settings: { allowedNetworks: ["127.0.0.0/8"], workers: 1, ...benchPlan(input) }
  })
  const { maxConcurrency } = await gleaner.getConcurrency()
  if (maxConcurrency >= input.concurrency) return gleaner
  await gleaner.close()
  throw new Error(`the team's plan allows ${maxConcurrency} concurrent pages, not ${input.concurrency}`)
}

const crawl = async (gleaner: Gleaner, input: CrawlInput, settings: GleanerSettings): Promise<CrawlOutcome> => {
  const status = await runCrawl(gleaner, input, settings)
  if (status.status !== "completed") throw new Error(`the Gleaner crawl ended ${status.status}`)
  const errors = await gleaner.getCrawlErrors(status.id)
  const urls = new Set(status.data.map((document) => document.metadata.sourceURL))
  const outputChars = status.data.reduce((sum, document) => sum + (document.markdown?.length ?? 0), 0)
  return { pages: status.data.length, distinctUrls: urls.size, failed: errors.errors.length, outputChars }
}

export const gleanerContender = (settings: GleanerSettings = {}): CrawlContender => ({
  name: settings.wait === "active" ? "gleaner startCrawl + light wait"
    : settings.pollIntervalSeconds === undefined ? "gleaner crawl()" : `gleaner crawl() polling every ${settings.pollIntervalSeconds} s`,
  work: "SSRF-checked undici fetch, metadata, cleaning, main content, markdown, links + scope, SQLite writes (page cache, ledger, frontier row with the document)",
  setup: async (input) => {
    const gleaner = await openGleaner(input)
    return { run: () => crawl(gleaner, input, settings), dispose: () => gleaner.close() }
  }
})
