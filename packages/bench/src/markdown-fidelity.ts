/**
 * Markdown fidelity: Gleaner's `htmlToMarkdown` against the html2md conformance suites in
 * ../shared/bench-data/html2md-fixtures (turndown core, turndown-plugin-gfm, the Go
 * html-to-markdown golden files), compared style-agnostically (see fidelity-compare.ts).
 *
 * Cases whose upstream *options* change what the output means are listed as not applicable, with
 * the reason; cases where Gleaner deliberately differs from the upstream converter stay counted as
 * failures and carry the reason. Prints per-suite numbers and writes results/markdown-fidelity.json.
 *
 *   pnpm --filter @gleaner/bench bench:markdown-fidelity [--verbose]
 *
 * --verbose prints, for each failing case, the rendered blocks that differ. The results file
 * holds case ids and scores only, never fixture text (it stays in bench-data).
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { htmlToMarkdown } from "@gleaner/core"
import { readJkGolden, readTurndownSuite, type FixtureCase } from "./bench-data.js"
import { differenceKinds, matchedBlocks, renderNormalised, topLevelBlocks } from "./fidelity-compare.js"

/** Why a case cannot judge Gleaner, or undefined when it can. */
const notApplicable = (fixture: FixtureCase): string | undefined => {
  if (fixture.options["preformattedCode"] === true) {
    return "option preformattedCode keeps source whitespace inside inline code; Gleaner collapses it as a browser renders it"
  }
  if (fixture.id === "turndown-gfm:s") {
    return "expects single-tilde ~strikethrough~, which GFM accepts but markdown-it (the judge) renders as text"
  }
  return undefined
}

/** Cases where Gleaner differs from the upstream converter on purpose (still counted as failures). */
const byDesign: Readonly<Record<string, string>> = {
  "turndown:escaping ~~~": "a bare <pre> becomes a fenced code block (turndown leaves it as text)",
  "turndown-gfm:non-definitive heading row (not converted)": "a table without <th> becomes a pipe table with the first row as header (the plugin keeps raw HTML)",
  "turndown-gfm:non-definitive heading row with th (not converted)": "a table without a full <th> row becomes a pipe table with the first row as header (the plugin keeps raw HTML)"
}

/** One case's verdict. Only ids and scores: fixture text stays in bench-data, out of this repo. */
interface CaseResult {
  readonly id: string
  readonly status: "pass" | "fail" | "n/a"
  readonly reason?: string
  readonly kinds?: ReadonlyArray<string>
  readonly blocks?: { readonly matched: number; readonly expected: number }
}

// With --verbose, the rendered blocks that differ are printed (never written to the results file).
const showDifference = (id: string, expected: ReadonlyArray<string>, actual: ReadonlyArray<string>): void => {
  const inActual = new Set(actual)
  const inExpected = new Set(expected)
  console.log(`--- ${id}`)
  for (const block of expected) if (!inActual.has(block)) console.log(`  expected: ${block}`)
  for (const block of actual) if (!inExpected.has(block)) console.log(`  ours:     ${block}`)
}

const judge = (fixture: FixtureCase, verbose: boolean): CaseResult => {
  const reason = notApplicable(fixture)
  if (reason !== undefined) return { id: fixture.id, status: "n/a", reason }
  const expectedHtml = renderNormalised(fixture.expected)
  const actualHtml = renderNormalised(htmlToMarkdown(fixture.input))
  const expectedBlocks = topLevelBlocks(expectedHtml)
  const actualBlocks = topLevelBlocks(actualHtml)
  const blocks = { matched: matchedBlocks(expectedBlocks, actualBlocks), expected: expectedBlocks.length }
  if (expectedHtml === actualHtml) return { id: fixture.id, status: "pass", blocks }
  if (verbose) showDifference(fixture.id, expectedBlocks, actualBlocks)
  const designReason = byDesign[fixture.id]
  return {
    id: fixture.id,
    status: "fail",
    ...(designReason === undefined ? {} : { reason: `by design: ${designReason}` }),
    kinds: differenceKinds(expectedHtml, actualHtml),
    blocks
  }
}

interface SuiteSummary {
  readonly suite: string
  readonly applicable: number
  readonly passed: number
  readonly passRate: number
  readonly notApplicable: number
  /** Top-level blocks of the expected rendering found, in order, in ours (summed over cases). */
  readonly blocksMatched: number
  readonly blocksExpected: number
  readonly cases: ReadonlyArray<CaseResult>
}

const runSuite = (suite: string, fixtures: ReadonlyArray<FixtureCase>, verbose: boolean): SuiteSummary => {
  const cases = fixtures.map((fixture) => judge(fixture, verbose))
  const applicable = cases.filter((c) => c.status !== "n/a")
  const passed = applicable.filter((c) => c.status === "pass").length
  return {
    suite,
    applicable: applicable.length,
    passed,
    passRate: applicable.length === 0 ? 0 : passed / applicable.length,
    notApplicable: cases.length - applicable.length,
    blocksMatched: applicable.reduce((sum, c) => sum + (c.blocks?.matched ?? 0), 0),
    blocksExpected: applicable.reduce((sum, c) => sum + (c.blocks?.expected ?? 0), 0),
    cases
  }
}

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`

const printSuite = (summary: SuiteSummary): void => {
  console.log(`\n${summary.suite}: ${summary.passed}/${summary.applicable} applicable cases pass (${percent(summary.passRate)}),` +
    ` ${summary.notApplicable} not applicable; blocks matched ${summary.blocksMatched}/${summary.blocksExpected}` +
    ` (${percent(summary.blocksMatched / Math.max(1, summary.blocksExpected))})`)
  for (const c of summary.cases) {
    if (c.status === "fail") {
      console.log(`  FAIL ${c.id} [${(c.kinds ?? []).join(", ")}] blocks ${c.blocks?.matched}/${c.blocks?.expected}${c.reason === undefined ? "" : ` — ${c.reason}`}`)
    } else if (c.status === "n/a") console.log(`  n/a  ${c.id} — ${c.reason}`)
  }
}

const main = (): void => {
  const verbose = parseArgs({ options: { verbose: { type: "boolean", default: false } } }).values.verbose === true
  const suites = [
    runSuite("turndown-core", readTurndownSuite("turndown-core.json"), verbose),
    runSuite("turndown-gfm", readTurndownSuite("turndown-gfm.json"), verbose),
    runSuite("jk-golden", readJkGolden(), verbose)
  ]
  suites.forEach(printSuite)
  const resultsDir = new URL("../results/", import.meta.url)
  mkdirSync(resultsDir, { recursive: true })
  const report = { benchmark: "markdown-fidelity", date: new Date().toISOString(), node: process.version, suites }
  writeFileSync(new URL("markdown-fidelity.json", resultsDir), `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nwrote ${new URL("markdown-fidelity.json", resultsDir).pathname}`)
}

main()
