/**
 * From fetched bytes to the document's content: HTML through the single-parse page pipeline and
 * the format producers, PDFs through the PDF reader, plain text and JSON as they are. Pure apart
 * from the PDF reader's promise; no storage, no billing.
 */
import { STATUS_CODES } from "node:http"
import { Effect } from "effect"
import { ScrapeSiteError, ScrapeUnsupportedFileError } from "../errors.js"
import { decodeBody } from "../transform/charset.js"
import { extractAttributes } from "../transform/formats/attributes.js"
import { pdfToMarkdown } from "../transform/formats/pdf.js"
import { extractStructuredJson } from "../transform/formats/structured-data.js"
import { summarizeExtractive } from "../transform/formats/summary.js"
import { transformPage } from "../transform/page.js"
import { classifyContent } from "./content.js"
import type { ScrapePlan } from "./plan.js"

/** A page as fetched (or read back from the cache). */
export interface FetchedPage {
  readonly url: string
  readonly statusCode: number
  readonly contentType: string | null
  readonly body: Uint8Array
}

/** The content part of a Document; metadata gets its scrape fields later. */
export interface Produced {
  readonly markdown?: string
  readonly html?: string
  readonly rawHtml?: string
  readonly links?: ReadonlyArray<string>
  readonly images?: ReadonlyArray<string>
  readonly summary?: string
  readonly json?: unknown
  readonly attributes?: ReadonlyArray<{ readonly selector: string; readonly attribute: string; readonly values: ReadonlyArray<string> }>
  readonly metadata: Readonly<Record<string, unknown>>
  /** Markdown for change tracking and summaries even when markdown was not asked for. */
  readonly fullMarkdown: string
  /** Pages of a PDF that were read (for billing). */
  readonly pdfPages?: number
  readonly warnings: ReadonlyArray<string>
}

const pageMetadata = (plan: ScrapePlan, page: FetchedPage) => ({
  sourceURL: plan.sourceUrl,
  url: page.url,
  statusCode: page.statusCode,
  ...(page.contentType === null ? {} : { contentType: page.contentType }),
  ...(page.statusCode >= 400 ? { error: STATUS_CODES[page.statusCode] ?? `HTTP ${page.statusCode}` } : {})
})

const fromHtml = (plan: ScrapePlan, page: FetchedPage): Produced => {
  const { text } = decodeBody(page.body, page.contentType ?? undefined)
  const needsMarkdown = plan.want.markdown || plan.want.summary || plan.want.json !== undefined ||
    plan.want.changeTracking !== undefined
  const t = transformPage(text, {
    url: page.url,
    sourceURL: plan.sourceUrl,
    statusCode: page.statusCode,
    ...(page.contentType === null ? {} : { contentType: page.contentType }),
    onlyMainContent: plan.onlyMainContent,
    includeTags: plan.includeTags,
    excludeTags: plan.excludeTags,
    removeBase64Images: plan.removeBase64Images,
    blockAds: plan.blockAds,
    want: { markdown: needsMarkdown, html: plan.want.html, links: plan.want.links, images: plan.want.images }
  })
  const markdown = t.markdown ?? ""
  return {
    ...(plan.want.markdown ? { markdown } : {}),
    ...(plan.want.html && t.html !== undefined ? { html: t.html } : {}),
    ...(plan.want.rawHtml ? { rawHtml: text } : {}),
    ...(plan.want.links ? { links: t.links ?? [] } : {}),
    ...(plan.want.images ? { images: t.images ?? [] } : {}),
    ...(plan.want.summary ? { summary: summarizeExtractive(markdown) } : {}),
    ...(plan.want.json === undefined
      ? {}
      : { json: extractStructuredJson(text, { ...plan.want.json, pageUrl: page.url, markdown }).json }),
    ...(plan.want.attributes === undefined ? {} : { attributes: extractAttributes(text, plan.want.attributes) }),
    metadata: { ...t.metadata, ...pageMetadata(plan, page) },
    fullMarkdown: markdown,
    warnings: []
  }
}

const fromText = (plan: ScrapePlan, page: FetchedPage, language: string): Produced => {
  const { text } = decodeBody(page.body, page.contentType ?? undefined)
  const markdown = language === "" ? text : `\`\`\`${language}\n${text.trimEnd()}\n\`\`\``
  return {
    ...(plan.want.markdown ? { markdown } : {}),
    ...(plan.want.html ? { html: text } : {}),
    ...(plan.want.rawHtml ? { rawHtml: text } : {}),
    ...(plan.want.links ? { links: [] } : {}),
    ...(plan.want.images ? { images: [] } : {}),
    ...(plan.want.summary ? { summary: summarizeExtractive(text) } : {}),
    metadata: pageMetadata(plan, page),
    fullMarkdown: markdown,
    warnings: []
  }
}

const fromPdf = (plan: ScrapePlan, page: FetchedPage) =>
  Effect.gen(function*() {
    if (!plan.pdf.enabled) {
      return {
        ...(plan.want.markdown ? { markdown: "" } : {}),
        metadata: pageMetadata(plan, page),
        fullMarkdown: "",
        warnings: ["PDF parsing is off (parsers: []): the document's text was not extracted."]
      } satisfies Produced
    }
    const pdf = yield* Effect.tryPromise({
      try: () => pdfToMarkdown(page.body, { ...(plan.pdf.maxPages === undefined ? {} : { maxPages: plan.pdf.maxPages }), mode: plan.pdf.mode }),
      catch: (cause) => new ScrapeSiteError({ message: `The PDF at ${page.url} could not be read: ${String(cause)}` })
    })
    return {
      ...(plan.want.markdown ? { markdown: pdf.markdown } : {}),
      ...(plan.want.summary ? { summary: summarizeExtractive(pdf.markdown) } : {}),
      ...(plan.want.links ? { links: [] } : {}),
      ...(plan.want.images ? { images: [] } : {}),
      metadata: { ...pageMetadata(plan, page), numPages: pdf.numPages },
      fullMarkdown: pdf.markdown,
      pdfPages: pdf.pages.length,
      warnings: []
    } satisfies Produced
  })

/** The content of a fetched page, or 400-ish refusal for a file type Gleaner cannot read yet. */
export const produce = (plan: ScrapePlan, page: FetchedPage): Effect.Effect<Produced, ScrapeSiteError | ScrapeUnsupportedFileError> => {
  const content = classifyContent(page.contentType, page.body, page.url)
  switch (content.kind) {
    case "html":
      return Effect.sync(() => fromHtml(plan, page))
    case "text":
      return Effect.sync(() => fromText(plan, page, content.language))
    case "pdf":
      return fromPdf(plan, page)
    case "unsupported":
      return Effect.fail(new ScrapeUnsupportedFileError({
        message: `The URL returned a file type that Gleaner cannot process yet: ${content.label}`
      }))
  }
}
