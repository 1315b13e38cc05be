/**
 * Where a Gleaner crawl's time goes, for the crawl benchmark (src/crawl-throughput.ts). Two
 * parts on the same local site (src/crawl/site.ts, served from a child process):
 *
 * 1. One Gleaner crawl of N pages (`startCrawl`, then a wait that reads no documents), with every
 *    SQLite statement timed by SQL text (src/crawl/sqlite-timing.ts): wall time, this process's
 *    CPU time, and the statements by total time, per page; then one status read with every
 *    document, timed alone (what each poll of the client's `crawl()` costs at the end).
 * 2. The page transform alone on the first `--sample` pages of the site (fetched first, untimed),
 *    stage by stage, the faster of two runs per page: linkedom parse; `transformPage` for
 *    metadata and links only; the crawl's whole transform (metadata, links, cleaning, main
 *    content, markdown).
 *
 *   pnpm --filter @gleaner/bench bench:crawl-profile [--pages 2000] [--concurrency 20] [--sample 300]
 *
 * For a CPU profile, run the crawl benchmark itself under `node --cpu-prof` (see README).
 * Writes results/crawl-profile.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { transformPage, type PageTransformOptions } from "@gleaner/core"
import { parseHTML } from "linkedom"
import { request } from "undici"
import { crawlOptions, openGleaner, waitWhileActive } from "./crawl/gleaner-contender.js"
import { sitePath } from "./crawl/site.js"
import { forkCrawlSite } from "./crawl/site-process.js"
import { type StatementTiming, timeSqliteStatements } from "./crawl/sqlite-timing.js"

const profileCrawl = async (start: string, pages: number, concurrency: number) => {
  const dir = mkdtempSync(join(tmpdir(), "gleaner-crawl-profile-"))
  const timing = timeSqliteStatements()
  try {
    const input = { start, pages, concurrency, dir }
    const gleaner = await openGleaner(input)
    try {
      timing.reset()
      const cpuBefore = process.cpuUsage()
      const started = performance.now()
      const { id } = await gleaner.startCrawl(start, crawlOptions(input))
      await waitWhileActive(gleaner, id)
      const crawled = performance.now()
      const cpu = process.cpuUsage(cpuBefore)
      const statements = timing.report()
      // one status read with every document, as each poll of `crawl()` makes
      const status = await gleaner.getCrawlStatus(id)
      const statusMs = performance.now() - crawled
      const ms = crawled - started
      return { pages: status.data.length, status: status.status, ms, statusMs, cpuMs: (cpu.user + cpu.system) / 1000, statements }
    } finally {
      await gleaner.close()
    }
  } finally {
    timing.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const fastestMs = (run: () => unknown): number => {
  let best = Number.POSITIVE_INFINITY
  for (let k = 0; k < 2; k++) {
    const started = performance.now()
    run()
    best = Math.min(best, performance.now() - started)
  }
  return best
}

const transformOptions = (url: string, want: PageTransformOptions["want"]): PageTransformOptions => ({
  url,
  sourceURL: url,
  statusCode: 200,
  contentType: "text/html; charset=utf-8",
  onlyMainContent: true,
  removeBase64Images: true,
  blockAds: true,
  want
})

const stageCosts = async (origin: string, sample: number) => {
  const pages: Array<{ readonly url: string; readonly html: string }> = []
  for (let i = 0; i < sample; i++) {
    const url = `${origin}${sitePath(i)}`
    pages.push({ url, html: await (await request(url)).body.text() })
  }
  const stages = {
    "linkedom parse": (p: { url: string; html: string }) => parseHTML(p.html),
    "parse + metadata + links": (p: { url: string; html: string }) =>
      transformPage(p.html, transformOptions(p.url, { markdown: false, html: false, links: true, images: false })),
    "whole crawl transform (+ cleaning, main content, markdown)": (p: { url: string; html: string }) =>
      transformPage(p.html, transformOptions(p.url, { markdown: true, html: false, links: true, images: false }))
  }
  for (const page of pages.slice(0, 20)) for (const run of Object.values(stages)) run(page)
  return Object.entries(stages).map(([stage, run]) => {
    const total = pages.reduce((sum, page) => sum + fastestMs(() => run(page)), 0)
    return { stage, msPerPage: total / pages.length }
  })
}

const printStatements = (statements: ReadonlyArray<StatementTiming>, pages: number): void => {
  const total = statements.reduce((sum, s) => sum + s.totalMs, 0)
  console.log(`SQLite statements: ${total.toFixed(0)} ms in all, ${(total / pages).toFixed(2)} ms per page`)
  for (const s of statements.slice(0, 15)) {
    console.log(`  ${s.totalMs.toFixed(0).padStart(6)} ms  ${(s.calls / pages).toFixed(2).padStart(5)}/page  max ${s.maxMs.toFixed(1).padStart(5)} ms  ${s.sql.slice(0, 110)}`)
  }
}

const main = async (): Promise<void> => {
  const { values } = parseArgs({
    options: {
      pages: { type: "string", default: "2000" },
      concurrency: { type: "string", default: "20" },
      sample: { type: "string", default: "300" }
    }
  })
  const pages = Number(values.pages)
  const concurrency = Number(values.concurrency)
  const sample = Math.min(Number(values.sample), pages)
  const site = await forkCrawlSite(pages)
  try {
    console.log(`site: ${pages} pages of ${(site.meanPageBytes / 1024).toFixed(1)} KB; concurrency ${concurrency}`)
    const crawl = await profileCrawl(`${site.origin}/`, pages, concurrency)
    const done = crawl.pages
    console.log(`gleaner crawl (${crawl.status}): ${done} pages in ${(crawl.ms / 1000).toFixed(1)} s (${(done / (crawl.ms / 1000)).toFixed(1)} pages/s),` +
      ` ${(crawl.cpuMs / done).toFixed(2)} CPU ms per page; then one status read with all ${done} documents: ${crawl.statusMs.toFixed(0)} ms`)
    printStatements(crawl.statements, done)
    const stages = await stageCosts(site.origin, sample)
    console.log(`page transform alone, ${sample} pages (faster of two runs per page):`)
    for (const s of stages) console.log(`  ${s.msPerPage.toFixed(2).padStart(6)} ms/page  ${s.stage}`)
    const resultsDir = new URL("../results/", import.meta.url)
    mkdirSync(resultsDir, { recursive: true })
    const report = {
      benchmark: "crawl-profile",
      date: new Date().toISOString(),
      node: process.version,
      site: { pages, meanPageBytes: site.meanPageBytes },
      concurrency,
      crawl: { pages: done, status: crawl.status, ms: Math.round(crawl.ms), cpuMsPerPage: crawl.cpuMs / done, fullStatusReadMs: Math.round(crawl.statusMs) },
      statements: crawl.statements.slice(0, 30),
      stages
    }
    writeFileSync(new URL("crawl-profile.json", resultsDir), `${JSON.stringify(report, null, 2)}\n`)
  } finally {
    await site.close()
  }
}

await main()
