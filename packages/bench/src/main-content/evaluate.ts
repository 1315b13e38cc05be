/**
 * Runs systems over the two datasets and scores every page: AEB with shingle F1, WCXB with word
 * F1 per page type. Pages are read once and handed to every system in turn, so all systems see
 * the same input in the same run.
 */
import { performance } from "node:perf_hooks"
import type { AebPage, WcxbPage } from "./datasets.js"
import { scoreShingles, scoreWords, type ShinglePage, summarizeShingles, summarizeWords, type WordPage } from "./scoring.js"
import type { System } from "./systems.js"

export interface AebResult extends ShinglePage {
  readonly id: string
  readonly ms: number
  readonly text: string
}

export interface WcxbResult extends WordPage {
  readonly id: string
  readonly type: string
  readonly ms: number
  readonly text: string
}

const timed = (system: System, html: string, url: string): { text: string; ms: number } => {
  const start = performance.now()
  let text: string
  try {
    text = system.run({ html, url })
  } catch (error) {
    process.stderr.write(`${system.name} failed on ${url}: ${String(error)}\n`)
    text = ""
  }
  return { text, ms: performance.now() - start }
}

export const runAeb = (pages: ReadonlyArray<AebPage>, systems: ReadonlyArray<System>): Map<string, Array<AebResult>> => {
  const results = new Map(systems.map((s) => [s.name, [] as Array<AebResult>]))
  for (const page of pages) {
    const html = page.html()
    for (const system of systems) {
      const { text, ms } = timed(system, html, page.url)
      results.get(system.name)?.push({ id: page.id, ms, text, ...scoreShingles(text, page.truth) })
    }
  }
  return results
}

export const runWcxb = (pages: ReadonlyArray<WcxbPage>, systems: ReadonlyArray<System>): Map<string, Array<WcxbResult>> => {
  const results = new Map(systems.map((s) => [s.name, [] as Array<WcxbResult>]))
  for (const page of pages) {
    const html = page.html()
    for (const system of systems) {
      const { text, ms } = timed(system, html, page.url)
      results.get(system.name)?.push({ id: page.id, type: page.type, ms, text, ...scoreWords(text, page.truth, page) })
    }
  }
  return results
}

export const wcxbTypes = ["article", "collection", "documentation", "forum", "listing", "product", "service"] as const

/** Summary per page type and overall ("all"). */
export const summarizeWcxb = (results: ReadonlyArray<WcxbResult>) => {
  const byType: Record<string, ReturnType<typeof summarizeWords>> = { all: summarizeWords(results) }
  for (const type of wcxbTypes) byType[type] = summarizeWords(results.filter((r) => r.type === type))
  return byType
}

export const summarizeAeb = (results: ReadonlyArray<AebResult>) => summarizeShingles(results)

const sorted = (values: ReadonlyArray<number>): Array<number> => [...values].sort((a, b) => a - b)

/** Mean, median and 95th percentile of per-page milliseconds. */
export const timingOf = (ms: ReadonlyArray<number>) => {
  const s = sorted(ms)
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0
  return { meanMs: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length), medianMs: at(0.5), p95Ms: at(0.95) }
}
