/**
 * What main-content extraction costs, on the same pages as the quality scores. Per page, each
 * stage runs twice and the faster run counts (the machines are shared; the slower run mostly
 * measures the neighbours): linkedom parsing; plain turndown (default options) and Gleaner's
 * `htmlToMarkdown` over the whole `<body>` of a parsed page; cleaning with main-content detection;
 * and the full `transformPage` pipeline (parse, metadata, clean, main content, markdown).
 */
import { performance } from "node:perf_hooks"
import { bodyOf, cleanDocument, htmlToMarkdown, parseHtml, transformPage } from "@gleaner/core"
import TurndownService from "turndown"
import { timingOf } from "./evaluate.js"

export interface PageSource {
  readonly url: string
  readonly html: () => string
}

const plainTurndown = new TurndownService()

/** Milliseconds of `work` (given fresh input from `setup`), the faster of two runs. */
const fastest = <A>(setup: () => A, work: (input: A) => unknown): number => {
  const once = (): number => {
    const input = setup()
    const start = performance.now()
    work(input)
    return performance.now() - start
  }
  return Math.min(once(), once())
}

const pipelineOptions = (url: string) => ({
  url, sourceURL: url, statusCode: 200, onlyMainContent: true, removeBase64Images: true, blockAds: true,
  want: { markdown: true, html: false, links: false, images: false }
})

/** Per-page milliseconds of each stage, summarized (mean, median, p95), and the cost ratios. */
export const measureStages = (pages: ReadonlyArray<PageSource>) => {
  const ms: Record<"parse" | "turndownBody" | "markdownBody" | "cleanAndMainContent" | "pipeline", Array<number>> = {
    parse: [], turndownBody: [], markdownBody: [], cleanAndMainContent: [], pipeline: []
  }
  for (const page of pages) {
    const html = page.html()
    const body = () => bodyOf(parseHtml(html)) ?? parseHtml("")
    ms.parse.push(fastest(() => html, parseHtml))
    ms.turndownBody.push(fastest(body, (b) => plainTurndown.turndown(b)))
    ms.markdownBody.push(fastest(body, (b) => htmlToMarkdown(b, { baseUrl: page.url })))
    ms.cleanAndMainContent.push(fastest(() => parseHtml(html), (d) => cleanDocument(d, {
      baseUrl: page.url, onlyMainContent: true, removeBase64Images: true, blockAds: true
    })))
    ms.pipeline.push(fastest(() => html, (h) => transformPage(h, pipelineOptions(page.url))))
  }
  const total = (values: ReadonlyArray<number>): number => values.reduce((a, b) => a + b, 0)
  return {
    pages: pages.length,
    parse: timingOf(ms.parse),
    turndownBody: timingOf(ms.turndownBody),
    markdownBody: timingOf(ms.markdownBody),
    cleanAndMainContent: timingOf(ms.cleanAndMainContent),
    pipeline: timingOf(ms.pipeline),
    /** The pipeline without its own parse, against plain turndown on an already parsed DOM. */
    pipelineWithoutParseOverTurndown: (total(ms.pipeline) - total(ms.parse)) / total(ms.turndownBody),
    /** The pipeline with its parse, against the same. */
    pipelineOverTurndown: total(ms.pipeline) / total(ms.turndownBody)
  }
}
