/**
 * Crawlee's CheerioCrawler (3.x) with the settings that suit a fast local site: a fixed pool of
 * N (minConcurrency = maxConcurrency, so the autoscaler neither ramps up from 1 nor backs off on
 * CPU load — the faster of the two here), no session pool or cookie persistence, no delays, no
 * robots.txt, no `maxRequestsPerCrawl` (see below), storage in memory (a fresh Configuration per run with `persistStorage: false`, its
 * directory a temp dir). Per page it does what a Crawlee scraper typically does: the title and
 * the body's text (whitespace collapsed) to the dataset, then `enqueueLinks` with the
 * same-hostname strategy.
 */
import { CheerioCrawler, Configuration, log } from "@crawlee/cheerio"
import type { CrawlContender, CrawlInput, CrawlOutcome } from "./contender.js"

export interface CrawleeSettings {
  /** Fixed pool of N (true) or Crawlee's autoscaled pool capped at N (false). Default true. */
  readonly fixedPool?: boolean
}

const crawl = async (input: CrawlInput, settings: CrawleeSettings): Promise<CrawlOutcome> => {
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    storageClientOptions: { localDataDirectory: input.dir, persistStorage: false, writeMetadata: false }
  })
  let outputChars = 0
  const crawler = new CheerioCrawler({
    maxConcurrency: input.concurrency,
    ...(settings.fixedPool === false ? {} : { minConcurrency: input.concurrency }),
    // No `maxRequestsPerCrawl`: with it, Crawlee 3.18's enqueueLinks adds links in chunks of the
    // remaining budget and sleeps 1 s between chunks, so once the frontier holds nearly all pages
    // each handler waits up to a minute (measured: 300 pages took 99 s instead of 3). The site
    // has exactly N pages, so the crawl ends at N either way.
    useSessionPool: false,
    persistCookiesPerSession: false,
    statusMessageLoggingInterval: 3600,
    requestHandler: async ({ request, $, enqueueLinks, pushData }) => {
      const title = $("title").text()
      const text = $("body").text().replace(/\s+/g, " ").trim()
      outputChars += text.length
      await pushData({ url: request.loadedUrl ?? request.url, title, text })
      await enqueueLinks({ strategy: "same-hostname" })
    }
  }, config)
  const stats = await crawler.run([input.start])
  const data = await crawler.getData()
  const urls = new Set(data.items.map((item: Record<string, unknown>) => item["url"]))
  return { pages: stats.requestsFinished, distinctUrls: urls.size, failed: stats.requestsFailed, outputChars }
}

export const crawleeContender = (settings: CrawleeSettings = {}): CrawlContender => ({
  name: settings.fixedPool === false ? "crawlee CheerioCrawler (autoscaled)" : "crawlee CheerioCrawler",
  work: "got-scraping fetch, cheerio parse, title + body text to an in-memory dataset, enqueueLinks same-hostname",
  setup: async (input) => {
    log.setLevel(log.LEVELS.WARNING)
    return { run: () => crawl(input, settings), dispose: async () => {} }
  }
})
