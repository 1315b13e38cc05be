/**
 * What main-content extraction costs, measured on the same pages as the quality scores: parsing
 * alone, plain conversion of the whole body to markdown, cleaning with main-content detection
 * alone, and the full `transformPage` pipeline (parse, metadata, clean, main content, markdown).
 */
import { performance } from "node:perf_hooks"
import { bodyOf, cleanDocument, htmlToMarkdown, parseHtml, transformPage } from "@gleaner/core"
import { timingOf } from "./evaluate.js"

export interface PageSource {
  readonly url: string
  readonly html: () => string
}

const timeIt = <A>(f: () => A): [A, number] => {
  const start = performance.now()
  const value = f()
  return [value, performance.now() - start]
}

/** Per-page milliseconds of each stage, summarized (mean, median, p95). */
export const measureStages = (pages: ReadonlyArray<PageSource>) => {
  const parse: Array<number> = []
  const plain: Array<number> = []
  const clean: Array<number> = []
  const pipeline: Array<number> = []
  for (const page of pages) {
    const html = page.html()
    const [document, parseMs] = timeIt(() => parseHtml(html))
    const body = bodyOf(document)
    parse.push(parseMs)
    plain.push(parseMs + timeIt(() => (body === null ? "" : htmlToMarkdown(body, { baseUrl: page.url })))[1])
    const fresh = parseHtml(html)
    clean.push(timeIt(() => cleanDocument(fresh, {
      baseUrl: page.url, onlyMainContent: true, removeBase64Images: true, blockAds: true
    }))[1])
    pipeline.push(timeIt(() => transformPage(html, {
      url: page.url, sourceURL: page.url, statusCode: 200, onlyMainContent: true, removeBase64Images: true, blockAds: true,
      want: { markdown: true, html: false, links: false, images: false }
    }))[1])
  }
  const stages = {
    parse: timingOf(parse),
    plainMarkdown: timingOf(plain),
    cleanAndMainContent: timingOf(clean),
    pipeline: timingOf(pipeline)
  }
  return { pages: pages.length, ...stages, pipelineOverPlain: stages.pipeline.meanMs / stages.plainMarkdown.meanMs }
}
