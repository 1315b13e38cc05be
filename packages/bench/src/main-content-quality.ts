/**
 * Main-content quality, in one run: Gleaner's `onlyMainContent` markdown (stripped to text),
 * @mozilla/readability over linkedom, and the whole page's text, on the dev parts of the
 * Scrapinghub article-extraction benchmark (shingle F1) and WCXB (word F1 by page type). The
 * pages are read in place from ../shared/bench-data; the result is printed and written to
 * results/main-content-quality.json.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { transformPage } from "@gleaner/core"
import { loadAeb, loadWcxb } from "./main-content/datasets.js"
import { runAeb, runWcxb, summarizeAeb, summarizeWcxb, timingOf, wcxbTypes } from "./main-content/evaluate.js"
import { gleanerSystem, readabilitySystem, wholePageSystem } from "./main-content/systems.js"

const gleaner = gleanerSystem((page) =>
  transformPage(page.html, {
    url: page.url,
    sourceURL: page.url,
    statusCode: 200,
    onlyMainContent: true,
    removeBase64Images: true,
    blockAds: true,
    want: { markdown: true, html: false, links: false, images: false }
  }).markdown ?? "")

const systems = [gleaner, readabilitySystem, wholePageSystem]
const f = (x: number) => x.toFixed(3)

const aeb = runAeb(loadAeb(), systems)
const wcxb = runWcxb(loadWcxb(), systems)

const result = {
  benchmark: "main-content-quality",
  date: new Date().toISOString(),
  node: process.version,
  aeb: Object.fromEntries([...aeb].map(([name, rs]) => [name, { ...summarizeAeb(rs), pages: rs.length, timing: timingOf(rs.map((r) => r.ms)) }])),
  wcxb: Object.fromEntries([...wcxb].map(([name, rs]) => [name, { byType: summarizeWcxb(rs), pages: rs.length, timing: timingOf(rs.map((r) => r.ms)) }]))
}

console.log("AEB dev (shingle F1)")
for (const [name, s] of Object.entries(result.aeb)) {
  console.log(`  ${name.padEnd(12)} F1 ${f(s.f1)}  P ${f(s.precision)}  R ${f(s.recall)}  (${s.pages} pages, ${s.timing.meanMs.toFixed(1)} ms/page)`)
}
console.log(`WCXB dev (word F1)      all    ${wcxbTypes.map((t) => t.slice(0, 6).padEnd(6)).join(" ")}`)
for (const [name, s] of Object.entries(result.wcxb)) {
  const row = ["all", ...wcxbTypes].map((t) => f(s.byType[t]?.f1 ?? 0)).join("  ")
  console.log(`  ${name.padEnd(20)} ${row}  (${s.pages} pages, ${s.timing.meanMs.toFixed(1)} ms/page)`)
}

mkdirSync(new URL("../results/", import.meta.url), { recursive: true })
writeFileSync(new URL("../results/main-content-quality.json", import.meta.url), `${JSON.stringify(result, null, 2)}\n`)
