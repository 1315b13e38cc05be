/**
 * Crawls, maps and batch scrapes in-process: the client's SDK-named methods run the job on this
 * process's own workers against the fixture site on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Gleaner, GleanerClientError } from "@gleaner/client"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"

let site: FixtureSite
let gleaner: Gleaner
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 120 })
  gleaner = await Gleaner.open({ database: ":memory:", settings: { allowedNetworks: ["127.0.0.0/8"], pollMs: 50 } })
})
afterAll(async () => {
  await gleaner.close()
  await site.close()
})

describe("crawl and batch scrape in-process", () => {
  it("crawl() follows links to the limit and returns every document; errors list robots-blocked URLs", async () => {
    const job = await gleaner.crawl(`${site.url}/site`, { limit: 30, sitemap: "skip" })
    expect(job).toMatchObject({ status: "completed", completed: 30, total: 30, creditsUsed: 30 })
    expect(new Set(job.data.map((d) => d.metadata.sourceURL)).size).toBe(30)
    const errors = await gleaner.getCrawlErrors(job.id)
    expect(errors.robotsBlocked).toContain(`${site.url}/site/members/0`)
  })

  it("includePaths and maxDiscoveryDepth limit what is followed", async () => {
    const shallow = await gleaner.crawl(`${site.url}/site`, { maxDiscoveryDepth: 1, sitemap: "skip" })
    expect(shallow.data.map((d) => new URL(d.metadata.sourceURL ?? "").pathname).sort()).toEqual(["/site", "/site/0"])
    const only = await gleaner.crawl(`${site.url}/site`, { includePaths: ["^/site/1\\d$"], limit: 200 })
    const paths = only.data.map((d) => new URL(d.metadata.sourceURL ?? "").pathname)
    expect(paths.length).toBeGreaterThan(0)
    for (const path of paths) expect(path).toMatch(/^\/site(\/1\d)?$/)
  })

  it("without crawlEntireDomain only the start path's children are followed; with it, the whole site", async () => {
    const narrow = await gleaner.crawl(`${site.url}/site/5`, { sitemap: "skip", limit: 20 })
    expect(narrow.data.map((d) => new URL(d.metadata.sourceURL ?? "").pathname)).toEqual(["/site/5"])
    expect((await gleaner.getCrawlStatus(narrow.id)).warning).toBe(
      `Only 1 result(s) found. For broader coverage, try crawling with crawlEntireDomain=true or start from a higher-level path like ${site.url}/site/`
    )
    const wide = await gleaner.crawl(`${site.url}/site/5`, { sitemap: "skip", limit: 20, crawlEntireDomain: true })
    expect(wide.data).toHaveLength(20)
    expect(wide.data.some((d) => new URL(d.metadata.sourceURL ?? "").pathname === "/site")).toBe(true)
    const excluded = await gleaner.crawl(`${site.url}/site`, { sitemap: "skip", limit: 30, excludePaths: ["^/site/\\d*5$"] })
    expect(excluded.data.some((d) => /5$/.test(new URL(d.metadata.sourceURL ?? "").pathname))).toBe(false)
    expect(excluded.data.length).toBeGreaterThan(5)
  })

  it("startCrawl, getActiveCrawls and cancelCrawl", async () => {
    const { id } = await gleaner.startCrawl(`${site.url}/site`, { limit: 120, delay: 0.1, sitemap: "skip" })
    expect((await gleaner.getActiveCrawls()).crawls.map((c) => c.id)).toContain(id)
    expect(await gleaner.cancelCrawl(id)).toBe(true)
    expect((await gleaner.getCrawlStatus(id)).status).toBe("cancelled")
  })

  it("map() lists the site from its sitemap and ranks by search", async () => {
    const all = await gleaner.map(`${site.url}/site`)
    expect(all.links.filter((l) => /\/site\/\d+$/.test(l.url))).toHaveLength(120)
    const ranked = await gleaner.map(`${site.url}/site`, { search: "page 42", limit: 3 })
    expect(ranked.links[0]?.url).toBe(`${site.url}/site/42`)
    expect(ranked.links).toHaveLength(3)
  })

  it("batchScrape() scrapes every URL; bad options are refused before anything runs", async () => {
    const urls = [1, 2, 3].map((i) => `${site.url}/site/${i}`)
    const job = await gleaner.batchScrape(urls, { options: { formats: ["markdown"] } })
    expect(job).toMatchObject({ status: "completed", completed: 3, creditsUsed: 3 })
    expect(job.data.map((d) => d.markdown).join("\n")).toMatch(/Site page 2/)
    await expect(gleaner.batchScrape(urls, { options: { timeout: 2000, waitFor: 1500 } })).rejects.toBeInstanceOf(GleanerClientError)
    await expect(gleaner.startCrawl(`${site.url}/site`, { excludePaths: ["("] })).rejects.toMatchObject({ status: 400 })
  })
})
