/**
 * Main-content quality, in one run on the dev parts of two benchmarks (read in place from
 * ../shared/bench-data): the Scrapinghub article-extraction benchmark (127 news and blog pages,
 * shingle F1) and WCXB (1,047 pages of seven types, word F1 per type). Three systems see the
 * same pages: Gleaner's `onlyMainContent` markdown stripped to text, @mozilla/readability over
 * linkedom, and the whole page's text. Then the cost of the pipeline is timed against plain
 * turndown on the same pages.
 *
 *   node --conditions=@gleaner/source --import tsx src/main-content-quality.ts [--no-timing]
 *
 * Prints the tables and writes results/main-content-quality.json (scores, timings, per-page F1).
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { transformPage } from "@gleaner/core"
import { loadAeb, loadWcxb } from "./main-content/datasets.js"
import { type AebResult, runAeb, runWcxb, summarizeAeb, summarizeWcxb, timingOf, wcxbTypes } from "./main-content/evaluate.js"
import { gleanerSystem, type PageInput, readabilitySystem, wholePageSystem } from "./main-content/systems.js"
import { measureStages } from "./main-content/timing.js"

const gleanerMarkdown = (page: PageInput): string =>
  transformPage(page.html, {
    url: page.url, sourceURL: page.url, statusCode: 200,
    onlyMainContent: true, removeBase64Images: true, blockAds: true,
    want: { markdown: true, html: false, links: false, images: false }
  }).markdown ?? ""

const systems = [gleanerSystem(gleanerMarkdown), readabilitySystem, wholePageSystem]
const f3 = (x: number): string => x.toFixed(3)
const ms = (x: number): string => x.toFixed(1)

const aebPages = loadAeb()
const wcxbPages = loadWcxb()
process.stderr.write(`scoring ${aebPages.length} AEB and ${wcxbPages.length} WCXB pages with ${systems.map((s) => s.name).join(", ")}\n`)
const aeb = runAeb(aebPages, systems)
const wcxb = runWcxb(wcxbPages, systems)

const aebSummary = Object.fromEntries([...aeb].map(([name, rs]) => [name, summarizeAeb(rs)]))
const wcxbSummary = Object.fromEntries([...wcxb].map(([name, rs]) => [name, summarizeWcxb(rs)]))
const timeWhileScoring = Object.fromEntries(systems.map((s) => [s.name, timingOf([
  ...(aeb.get(s.name) ?? []).map((r) => r.ms), ...(wcxb.get(s.name) ?? []).map((r) => r.ms)
])]))

const lines: Array<string> = [
  `\nAEB dev (${aebPages.length} pages): shingle F1 (F1 of mean precision and mean recall)`,
  "| system | F1 | P | R | exact |",
  "|---|---:|---:|---:|---:|",
  ...Object.entries(aebSummary).map(([name, s]) => `| ${name} | ${f3(s.f1)} | ${f3(s.precision)} | ${f3(s.recall)} | ${f3(s.accuracy)} |`)
]
const types = ["all", ...wcxbTypes]
lines.push(
  `\nWCXB dev (${wcxbPages.length} pages): mean per-page word F1 by page type; P, R and snippet rates over all pages`,
  `| system | ${types.map((t) => `${t} (${wcxbSummary["gleaner"]?.[t]?.n ?? 0})`).join(" | ")} | P | R | with | without |`,
  `|---|${types.map(() => "---:").join("|")}|---:|---:|---:|---:|`
)
for (const [name, byType] of Object.entries(wcxbSummary)) {
  const all = byType["all"]
  lines.push(`| ${name} | ${types.map((t) => f3(byType[t]?.f1 ?? 0)).join(" | ")} | ${f3(all?.precision ?? 0)} | ${f3(all?.recall ?? 0)} | ${f3(all?.withRate ?? 0)} | ${f3(all?.withoutRate ?? 0)} |`)
}
lines.push("\nTime per page while scoring (ms, mean / median / p95; each system parses its own copy)")
for (const [name, t] of Object.entries(timeWhileScoring)) lines.push(`  ${name.padEnd(12)} ${ms(t.meanMs)} / ${ms(t.medianMs)} / ${ms(t.p95Ms)}`)
process.stdout.write(`${lines.join("\n")}\n`)

const stages = process.argv.includes("--no-timing") ? undefined : measureStages([...aebPages, ...wcxbPages])
if (stages !== undefined) {
  const row = (label: string, t: { meanMs: number; medianMs: number; p95Ms: number }): string =>
    `  ${label.padEnd(46)} ${ms(t.meanMs)} / ${ms(t.medianMs)} / ${ms(t.p95Ms)}`
  process.stdout.write(`${[
    `\nStages over all ${stages.pages} pages (ms per page, faster of two runs; mean / median / p95)`,
    row("parse (linkedom)", stages.parse),
    row("plain turndown of <body> (parsed DOM)", stages.turndownBody),
    row("Gleaner htmlToMarkdown of <body> (parsed DOM)", stages.markdownBody),
    row("clean + main content (parsed DOM)", stages.cleanAndMainContent),
    row("transformPage, onlyMainContent (with parse)", stages.pipeline),
    `  pipeline without its parse / plain turndown on the DOM: ${stages.pipelineWithoutParseOverTurndown.toFixed(2)}x`,
    `  pipeline with its parse / plain turndown on the DOM:    ${stages.pipelineOverTurndown.toFixed(2)}x`
  ].join("\n")}\n`)
}

const perPage = <R extends { readonly id: string }>(results: ReadonlyMap<string, ReadonlyArray<R>>, score: (r: R) => number) => {
  const out: Record<string, Record<string, number | string>> = {}
  for (const [name, rs] of results) for (const r of rs) (out[r.id] ??= {})[name] = Number(score(r).toFixed(4))
  return out
}
const aebF1 = (r: AebResult): number => {
  const p = r.precision ?? 0
  const rc = r.recall ?? 0
  return p + rc === 0 ? 0 : (2 * p * rc) / (p + rc)
}
const wcxbPerPage = perPage(wcxb, (r) => r.f1)
for (const page of wcxbPages) {
  const entry = wcxbPerPage[page.id]
  if (entry !== undefined) entry["type"] = page.type
}

const resultsDir = new URL("../results/", import.meta.url)
mkdirSync(resultsDir, { recursive: true })
writeFileSync(new URL("main-content-quality.json", resultsDir), `${JSON.stringify({
  benchmark: "main-content-quality",
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  aeb: aebSummary,
  wcxb: wcxbSummary,
  timing: { whileScoring: timeWhileScoring, stages },
  pages: { aeb: perPage(aeb, aebF1), wcxb: wcxbPerPage }
}, null, 1)}\n`)
process.stderr.write("wrote results/main-content-quality.json\n")
