/**
 * Crawl throughput: Gleaner's in-process crawl (markdown stored, the production path) against
 * Crawlee's CheerioCrawler and a raw undici loop (the ceiling), on the same local site of N
 * ~30 KB pages (src/crawl/site.ts, served from a child process), at the same concurrency, in the
 * same process, in rotating order: round r starts with contender r, so none always runs first
 * (or always right after the heaviest). Each crawl starts at `/` and finds every page by its
 * links (no sitemap); each is checked to have visited all N pages, by its own report and by the
 * site's request counters. Writes results/crawl-throughput.json.
 *
 *   pnpm --filter @gleaner/bench bench:crawl [--pages 5000] [--concurrency 20] [--rounds 3]
 *     [--warmup 300] [--contenders gleaner,crawlee,raw] [--poll-interval S] [--out FILE]
 *
 * Contenders: `gleaner`, `crawlee`, `raw`, and for checks `crawlee-autoscaled` (Crawlee's
 * autoscaled pool capped at N instead of a fixed pool of N) and `gleaner-poll` (Gleaner with
 * `crawl()` polling every `--poll-interval` seconds, default 2) and `gleaner-light` (`startCrawl`,
 * then a wait on `getActiveCrawls()`, which reads no documents, then the full status once).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import type { CrawlContender, CrawlOutcome } from "./crawl/contender.js"
import { crawleeContender } from "./crawl/crawlee-contender.js"
import { gleanerContender } from "./crawl/gleaner-contender.js"
import { rawContender } from "./crawl/raw-contender.js"
import type { SiteStats } from "./crawl/site.js"
import { type ForkedSite, forkCrawlSite } from "./crawl/site-process.js"

interface RunResult {
  readonly round: number
  readonly contender: string
  readonly ms: number
  readonly pagesPerSecond: number
  /** CPU time of this process (user + system) per page, in ms; the site's process not included. */
  readonly cpuMsPerPage: number
  readonly outcome: CrawlOutcome
  readonly site: SiteStats
  /** Every page visited once: by the crawler's report and by the site's counters. */
  readonly complete: boolean
}

const collectGarbage = (): void => {
  const gc: unknown = Reflect.get(globalThis, "gc")
  if (typeof gc === "function") gc()
}

const runOnce = async (contender: CrawlContender, site: ForkedSite, pages: number, concurrency: number, round: number): Promise<RunResult> => {
  const dir = mkdtempSync(join(tmpdir(), "gleaner-crawl-bench-"))
  try {
    const prepared = await contender.setup({ start: `${site.origin}/`, pages, concurrency, dir })
    try {
      await site.reset()
      collectGarbage()
      const cpuBefore = process.cpuUsage()
      const started = performance.now()
      const outcome = await prepared.run()
      const ms = performance.now() - started
      const cpu = process.cpuUsage(cpuBefore)
      const stats = await site.stats()
      const complete = outcome.pages === pages && outcome.distinctUrls === pages && outcome.failed === 0 &&
        stats.distinctPages === pages && stats.repeatedPages === 0
      return {
        round,
        contender: contender.name,
        ms: Math.round(ms),
        pagesPerSecond: outcome.pages / (ms / 1000),
        cpuMsPerPage: (cpu.user + cpu.system) / 1000 / Math.max(1, outcome.pages),
        outcome,
        site: stats,
        complete
      }
    } finally {
      await prepared.dispose()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const contendersByKey = (pollInterval: number): Record<string, CrawlContender> => ({
  gleaner: gleanerContender(),
  "gleaner-poll": gleanerContender({ pollIntervalSeconds: pollInterval }),
  "gleaner-light": gleanerContender({ wait: "active" }),
  crawlee: crawleeContender(),
  "crawlee-autoscaled": crawleeContender({ fixedPool: false }),
  raw: rawContender
})

interface Summary {
  readonly contender: string
  readonly runs: number
  readonly pages: number
  readonly seconds: number
  /** Total pages over total time, all rounds. */
  readonly pagesPerSecond: number
  readonly perRound: ReadonlyArray<number>
  readonly cpuMsPerPage: number
  readonly allComplete: boolean
}

const summarize = (name: string, runs: ReadonlyArray<RunResult>): Summary => {
  const mine = runs.filter((r) => r.contender === name)
  const pages = mine.reduce((sum, r) => sum + r.outcome.pages, 0)
  const seconds = mine.reduce((sum, r) => sum + r.ms, 0) / 1000
  return {
    contender: name,
    runs: mine.length,
    pages,
    seconds,
    pagesPerSecond: pages / seconds,
    perRound: mine.map((r) => Math.round(r.pagesPerSecond * 10) / 10),
    cpuMsPerPage: mine.reduce((sum, r) => sum + r.cpuMsPerPage, 0) / Math.max(1, mine.length),
    allComplete: mine.every((r) => r.complete)
  }
}

/** Gleaner's speed over another's: pooled over all rounds, and per round (same round, same load). */
const ratio = (runs: ReadonlyArray<RunResult>, summaries: ReadonlyArray<Summary>, ours: string, theirs: string) => {
  const a = summaries.find((s) => s.contender === ours)
  const b = summaries.find((s) => s.contender === theirs)
  if (a === undefined || b === undefined) return undefined
  const rounds = [...new Set(runs.map((r) => r.round))]
  const perRound = rounds.flatMap((round) => {
    const x = runs.find((r) => r.round === round && r.contender === ours)
    const y = runs.find((r) => r.round === round && r.contender === theirs)
    return x === undefined || y === undefined ? [] : [Math.round((x.pagesPerSecond / y.pagesPerSecond) * 1000) / 1000]
  })
  return { of: `${ours} / ${theirs}`, pooled: a.pagesPerSecond / b.pagesPerSecond, perRound }
}

const options = {
  pages: { type: "string", default: "5000" },
  concurrency: { type: "string", default: "20" },
  rounds: { type: "string", default: "3" },
  warmup: { type: "string", default: "300" },
  contenders: { type: "string", default: "gleaner,crawlee,raw" },
  "poll-interval": { type: "string", default: "2" },
  out: { type: "string", default: "crawl-throughput.json" }
} as const

const positiveInt = (name: string, text: string, min = 1): number => {
  const value = Number(text)
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}, not ${text}`)
  return value
}

const printRun = (r: RunResult): void => {
  const check = r.complete ? "all pages" : `INCOMPLETE (${r.outcome.pages} done, ${r.outcome.failed} failed, site served ${r.site.distinctPages} distinct, ${r.site.repeatedPages} repeats, ${r.site.notFound} 404s)`
  console.log(`  round ${r.round} ${r.contender.padEnd(38)} ${r.pagesPerSecond.toFixed(1).padStart(7)} pages/s  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.cpuMsPerPage.toFixed(2)} CPU ms/page  ${check}`)
}

const main = async (): Promise<void> => {
  const { values } = parseArgs({ options })
  const pages = positiveInt("pages", values.pages, 2)
  const concurrency = positiveInt("concurrency", values.concurrency)
  const rounds = positiveInt("rounds", values.rounds)
  const warmup = positiveInt("warmup", values.warmup, 0)
  const byKey = contendersByKey(Number(values["poll-interval"]))
  const keys = values.contenders.split(",").map((k) => k.trim()).filter((k) => k.length > 0)
  const contenders = keys.map((key) => {
    const contender = byKey[key]
    if (contender === undefined) throw new Error(`unknown contender ${key} (known: ${Object.keys(byKey).join(", ")})`)
    return contender
  })
  const site = await forkCrawlSite(pages)
  const loadBefore = loadavg()
  console.log(`site: ${pages} pages of ${(site.meanPageBytes / 1024).toFixed(1)} KB on average at ${site.origin}; concurrency ${concurrency}; ${rounds} rounds`)
  try {
    if (warmup > 0) {
      console.log(`warm-up: ${Math.min(warmup, pages)} pages each (not counted)`)
      for (const contender of contenders) await runOnce(contender, site, Math.min(warmup, pages), concurrency, 0)
    }
    const runs: Array<RunResult> = []
    for (let round = 1; round <= rounds; round++) {
      for (let k = 0; k < contenders.length; k++) {
        const contender = contenders[(round - 1 + k) % contenders.length]
        if (contender === undefined) continue
        const result = await runOnce(contender, site, pages, concurrency, round)
        printRun(result)
        runs.push(result)
      }
    }
    const summaries = contenders.map((c) => summarize(c.name, runs))
    console.log("\ncontender                               pages/s (all rounds)  per round                 CPU ms/page")
    for (const s of summaries) {
      console.log(`${s.contender.padEnd(40)}${s.pagesPerSecond.toFixed(1).padStart(8)}              ${s.perRound.join(", ").padEnd(26)}${s.cpuMsPerPage.toFixed(2)}${s.allComplete ? "" : "  (some runs incomplete)"}`)
    }
    const isGleaner = (c: CrawlContender) => c.name.startsWith("gleaner")
    const ratios = contenders.filter(isGleaner).flatMap((ours) =>
      contenders.filter((c) => !isGleaner(c)).flatMap((theirs) => ratio(runs, summaries, ours.name, theirs.name) ?? []))
    for (const r of ratios) console.log(`${r.of}: ${r.pooled.toFixed(2)}× (per round ${r.perRound.join(", ")})`)
    const resultsDir = new URL("../results/", import.meta.url)
    mkdirSync(resultsDir, { recursive: true })
    const report = {
      benchmark: "crawl-throughput",
      date: new Date().toISOString(),
      node: process.version,
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "unknown", memoryGB: Math.round(totalmem() / 2 ** 30), loadBefore, loadAfter: loadavg() },
      site: { pages, meanPageBytes: site.meanPageBytes },
      concurrency,
      rounds,
      warmupPages: warmup,
      contenders: contenders.map((c) => ({ name: c.name, work: c.work })),
      summaries,
      ratios,
      runs
    }
    writeFileSync(new URL(values.out, resultsDir), `${JSON.stringify(report, null, 2)}\n`)
  } finally {
    await site.close()
  }
}

await main()
