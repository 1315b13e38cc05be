/**
 * Markdown throughput: Gleaner's `htmlToMarkdown` against plain turndown (default options plus
 * turndown-plugin-gfm) on the same linkedom DOM, page by page, in the same run, over the WCXB and
 * AEB dev pages in ../shared/bench-data (read in place); a third contender is the same turndown
 * with <script>/<style> removed. Parsing is not timed: each page is parsed once and every
 * contender converts the same `<body>`; the order of the contenders rotates from page to page so
 * none always runs on a warm cache. Writes results/markdown-throughput.json.
 *
 *   pnpm --filter @gleaner/bench bench:markdown-throughput [--limit N] [--sets wcxb,aeb]
 *
 * Each contender converts each page twice and the faster run counts (see `timeFastest`); the
 * total over all pages is the number to read.
 *
 * `benchmarkPages` is the reusable part: another contender (say, the whole scrape pipeline from
 * raw HTML, parse included) is one more `{ name, run }` entry.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { htmlToMarkdown, transformPage, type MarkdownSourceNode } from "@gleaner/core"
import { parseHTML } from "linkedom"
import TurndownService from "turndown"
import { gfm } from "turndown-plugin-gfm"
import { pageIds, readPage, type BenchPage, type PageSet } from "./bench-data.js"
import "./linkedom-table-rows.js"

/** A page handed to contenders: the raw page and its linkedom `<body>` (parsed once, untimed). */
export interface ParsedPage {
  readonly page: BenchPage
  readonly body: MarkdownSourceNode
}

export interface Contender {
  readonly name: string
  /** Converts one page; the returned string's length is recorded as output size. */
  readonly run: (page: ParsedPage) => string
}

export interface ThroughputResult {
  readonly name: string
  readonly pages: number
  readonly inputBytes: number
  readonly outputChars: number
  readonly totalMs: number
  readonly mbPerSecond: number
  readonly pagesPerSecond: number
}

export interface PageTiming {
  readonly id: string
  readonly bytes: number
  readonly ms: ReadonlyArray<number>
}

const parsePage = (page: BenchPage): ParsedPage | undefined => {
  const body: MarkdownSourceNode | null = parseHTML(page.html).document.body
  return body === null ? undefined : { page, body }
}

type Timing = { readonly ms: number; readonly chars: number }

// With --expose-gc, collect between pages so that a major GC owed to parsing does not land inside
// one contender's timing (conversion's own garbage is still paid by whoever makes it).
const collectGarbage = (): void => {
  const gc: unknown = Reflect.get(globalThis, "gc")
  if (typeof gc === "function") gc()
}

const timeOnce = (contender: Contender, parsed: ParsedPage): Timing | undefined => {
  const start = performance.now()
  try {
    const output = contender.run(parsed)
    return { ms: performance.now() - start, chars: output.length }
  } catch {
    return undefined
  }
}

/**
 * The faster of two runs: on a shared machine the slower one mostly measures the neighbours (and
 * a collection owed to earlier work), which single-run totals showed as 2–4× swings on one page.
 */
const timeFastest = (contender: Contender, parsed: ParsedPage): Timing | undefined => {
  const first = timeOnce(contender, parsed)
  const second = first === undefined ? undefined : timeOnce(contender, parsed)
  return second === undefined || first === undefined ? first : second.ms < first.ms ? second : first
}

/** Totals over the pages every contender converted, and the pages some contender threw on. */
export interface PagesBenchmark {
  readonly results: Array<ThroughputResult>
  readonly pages: Array<PageTiming>
  /** Page ids a contender threw on (by contender name); those pages count for no contender. */
  readonly failures: Record<string, Array<string>>
}

/** Every contender on one page, starting with contender `first`; undefined where one threw. */
const timePage = (contenders: ReadonlyArray<Contender>, parsed: ParsedPage, first: number): Array<Timing | undefined> => {
  const timings = new Array<Timing | undefined>(contenders.length)
  for (let k = 0; k < contenders.length; k++) {
    const which = (first + k) % contenders.length
    const contender = contenders[which]
    if (contender !== undefined) timings[which] = timeFastest(contender, parsed)
  }
  return timings
}

const totals = (contenders: ReadonlyArray<Contender>, pages: ReadonlyArray<PageTiming>, chars: ReadonlyArray<number>): Array<ThroughputResult> => {
  const inputBytes = pages.reduce((sum, page) => sum + page.bytes, 0)
  return contenders.map((contender, i) => {
    const totalMs = pages.reduce((sum, page) => sum + (page.ms[i] ?? 0), 0)
    return {
      name: contender.name,
      pages: pages.length,
      inputBytes,
      outputChars: chars[i] ?? 0,
      totalMs: Math.round(totalMs),
      mbPerSecond: inputBytes / 1e6 / (totalMs / 1000),
      pagesPerSecond: pages.length / (totalMs / 1000)
    }
  })
}

/**
 * Runs every contender on every page (same DOM, rotating order) after `warmupPages` untimed
 * pages. A page on which any contender throws is left out of every total, so all totals cover
 * the same pages.
 */
export const benchmarkPages = (contenders: ReadonlyArray<Contender>, ids: ReadonlyArray<string>, warmupPages = 20): PagesBenchmark => {
  for (const id of ids.slice(0, warmupPages)) {
    const parsed = parsePage(readPage(id))
    if (parsed !== undefined) timePage(contenders, parsed, 0)
  }
  const failures: Record<string, Array<string>> = Object.fromEntries(contenders.map((c) => [c.name, []]))
  const pages: Array<PageTiming> = []
  const chars = contenders.map(() => 0)
  ids.forEach((id, index) => {
    const parsed = parsePage(readPage(id))
    if (parsed === undefined) return
    collectGarbage()
    const timings = timePage(contenders, parsed, index)
    contenders.forEach((contender, i) => timings[i] === undefined && failures[contender.name]?.push(id))
    const complete = timings.flatMap((timing) => (timing === undefined ? [] : [timing]))
    if (complete.length < contenders.length) return
    complete.forEach((timing, i) => (chars[i] = (chars[i] ?? 0) + timing.chars))
    pages.push({ id, bytes: parsed.page.bytes, ms: complete.map((timing) => timing.ms) })
  })
  return { results: totals(contenders, pages, chars), pages, failures }
}

const plainTurndown = new TurndownService().use(gfm)
// Plain turndown writes out the text of <script> and <style>; Gleaner drops it (and the scrape
// pipeline removes those elements before conversion). This variant shows the cost of Gleaner's
// rules without that difference.
const quietTurndown = new TurndownService().use(gfm).remove(["script", "style", "noscript", "template"])

const contenders: ReadonlyArray<Contender> = [
  { name: "gleaner htmlToMarkdown", run: ({ body }) => htmlToMarkdown(body) },
  { name: "turndown + gfm plugin", run: ({ body }) => plainTurndown.turndown(body) },
  { name: "turndown + gfm, no script/style", run: ({ body }) => quietTurndown.turndown(body) },
  // The whole scrape transform, parse included (it parses its own copy, so the shared DOM stays
  // untouched): metadata, cleaning, main content and markdown. Its budget: ≤ 2× plain turndown.
  {
    name: "gleaner page pipeline (incl. parse)",
    run: ({ page }) =>
      transformPage(page.html, {
        url: "https://bench.invalid/",
        sourceURL: "https://bench.invalid/",
        statusCode: 200,
        onlyMainContent: true,
        removeBase64Images: true,
        blockAds: true,
        want: { markdown: true, html: false, links: false, images: false }
      }).markdown ?? ""
  }
]

const minPageMs = 5

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

const main = (): void => {
  const { values } = parseArgs({ options: { limit: { type: "string" }, sets: { type: "string", default: "wcxb,aeb" } } })
  const sets = (values.sets ?? "").split(",").filter((set): set is PageSet => set === "wcxb" || set === "aeb")
  const all = sets.flatMap(pageIds)
  const ids = values.limit === undefined ? all : all.slice(0, Number(values.limit))
  console.log(`converting ${ids.length} pages (${sets.join(" + ")}) with ${contenders.length} contenders…`)
  const { results, pages, failures } = benchmarkPages(contenders, ids)
  for (const [name, ids] of Object.entries(failures)) {
    if (ids.length > 0) console.log(`${name} threw on ${ids.length} pages (left out of every total): ${ids.slice(0, 10).join(", ")}`)
  }
  for (const r of results) {
    console.log(`${r.name.padEnd(32)} ${r.mbPerSecond.toFixed(2)} MB/s  ${r.pagesPerSecond.toFixed(1)} pages/s  ${r.totalMs} ms total`)
  }
  const [ours] = results
  const ratios = Object.fromEntries(results.slice(1).map((r) => [r.name, ours === undefined ? Number.NaN : ours.totalMs / r.totalMs]))
  for (const [name, ratio] of Object.entries(ratios)) console.log(`cost ratio gleaner / ${name} (total time): ${ratio.toFixed(2)}×`)
  const plain = results.find((r) => r.name === "turndown + gfm plugin")
  const pipeline = results.find((r) => r.name.startsWith("gleaner page pipeline"))
  const pipelineRatio = plain === undefined || pipeline === undefined ? Number.NaN : pipeline.totalMs / plain.totalMs
  console.log(`cost ratio page pipeline (parse + clean + main content + markdown) / plain turndown on the DOM: ${pipelineRatio.toFixed(2)}×`)
  // Per-page ratios only where the baseline took long enough for one run to mean something
  // (near-empty bodies convert in microseconds).
  const perPage = pages.filter((p) => (p.ms[1] ?? 0) >= minPageMs)
    .map((p) => ({ id: p.id, bytes: p.bytes, ratio: (p.ms[0] ?? 0) / (p.ms[1] ?? 1) }))
  const slowest = [...perPage].sort((a, b) => b.ratio - a.ratio).slice(0, 5)
  console.log(`per page vs plain turndown (${perPage.length} pages where it took ≥ ${minPageMs} ms, faster of two runs):` +
    ` median ${median(perPage.map((p) => p.ratio)).toFixed(2)}×, highest ${slowest.map((p) => `${p.id} ${p.ratio.toFixed(2)}×`).join(", ")}`)
  const resultsDir = new URL("../results/", import.meta.url)
  mkdirSync(resultsDir, { recursive: true })
  const report = { benchmark: "markdown-throughput", date: new Date().toISOString(), node: process.version, sets, results, ratios, pipelineRatio, slowest, failures }
  writeFileSync(new URL("markdown-throughput.json", resultsDir), `${JSON.stringify(report, null, 2)}\n`)
}

main()
