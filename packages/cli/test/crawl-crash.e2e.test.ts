/**
 * A crawl survives its server being killed: `gleaner serve` is SIGKILLed in the middle of a
 * 300-page crawl, started again on the same data directory, and the crawl completes by itself
 * with every page exactly once and one credit debited per page (no more, no less).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Firecrawl from "@mendable/firecrawl-js"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer } from "./processes.js"

let site: FixtureSite
const dataDir = mkdtempSync(join(tmpdir(), "gleaner-crash-"))
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 600 })
})
afterAll(async () => {
  await site.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const key = "fc-0123456789abcdef0123456789abcdef"
const env = {
  GLEANER_DATA_DIR: dataDir,
  GLEANER_API_KEY: key,
  GLEANER_ALLOWED_NETWORKS: "127.0.0.0/8",
  GLEANER_JOB_LEASE_SECONDS: "2",
  GLEANER_JOB_POLL_MS: "100"
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("a crawl across a crash", () => {
  it("SIGKILL mid-crawl, restart: the crawl completes with each page once and billed once", async () => {
    const first = await startServer(env, { direct: true })
    const before = new Firecrawl({ apiKey: key, apiUrl: first.url })
    // one page at a time, 20 ms apart: slow enough to be killed in the middle
    const { id } = await before.startCrawl(`${site.url}/site`, { limit: 300, sitemap: "skip", delay: 0.02 })
    let progress = await before.getCrawlStatus(id, { autoPaginate: false })
    while (progress.completed < 60) {
      expect(progress.status).toBe("scraping")
      await sleep(100)
      progress = await before.getCrawlStatus(id, { autoPaginate: false })
    }
    expect(await first.stop("SIGKILL")).toBeNull()

    const second = await startServer(env, { direct: true })
    try {
      const after = new Firecrawl({ apiKey: key, apiUrl: second.url })
      let status = await after.getCrawlStatus(id, { autoPaginate: false })
      expect(status.completed).toBeGreaterThanOrEqual(60)
      expect(status.completed).toBeLessThan(300)
      for (let i = 0; i < 600 && status.status === "scraping"; i++) {
        await sleep(100)
        status = await after.getCrawlStatus(id, { autoPaginate: false })
      }
      expect(status.status).toBe("completed")
      const all = await after.getCrawlStatus(id)
      expect(all.total).toBe(300)
      expect(all.data).toHaveLength(300)
      expect(new Set(all.data.map((d) => d.metadata?.sourceURL)).size).toBe(300)
      expect(all.creditsUsed).toBe(300)
      expect((await after.getCrawlErrors(id)).errors).toEqual([])
    } finally {
      await second.stop()
    }
  }, 180_000)
})
