/**
 * From fetched bytes to the document's content: HTML through the page pipeline (html-content.ts,
 * run by the caller's `HtmlTransform`), PDFs through the PDF reader, plain text and JSON as they
 * are. No storage, no billing.
 */
import { Effect } from "effect"
import { ScrapeSiteError, ScrapeUnsupportedFileError } from "../errors.js"
import { decodeBody } from "../transform/charset.js"
import { pdfToMarkdown } from "../transform/formats/pdf.js"
import { summarizeExtractive } from "../transform/formats/summary.js"
import { classifyContent } from "./content.js"
import { type FetchedPage, htmlRecipe, type HtmlRecipe, pageMetadata, type Produced } from "./html-content.js"
import type { ScrapePlan } from "./plan.js"

export type { FetchedPage, Produced } from "./html-content.js"

/** Runs the HTML pipeline (in a transform thread or in this one). */
export type HtmlTransform = (recipe: HtmlRecipe, page: FetchedPage) => Effect.Effect<Produced>

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
    metadata: pageMetadata(plan.sourceUrl, page),
    fullMarkdown: markdown,
    warnings: []
  }
}

const fromPdf = (plan: ScrapePlan, page: FetchedPage) =>
  Effect.gen(function*() {
    if (!plan.pdf.enabled) {
      return {
        ...(plan.want.markdown ? { markdown: "" } : {}),
        metadata: pageMetadata(plan.sourceUrl, page),
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
      metadata: { ...pageMetadata(plan.sourceUrl, page), numPages: pdf.numPages },
      fullMarkdown: pdf.markdown,
      pdfPages: pdf.pages.length,
      warnings: []
    } satisfies Produced
  })

/** The content of a fetched page, or 400-ish refusal for a file type Gleaner cannot read yet. */
export const produce = (
  plan: ScrapePlan,
  page: FetchedPage,
  html: HtmlTransform
): Effect.Effect<Produced, ScrapeSiteError | ScrapeUnsupportedFileError> => {
  const content = classifyContent(page.contentType, page.body, page.url)
  switch (content.kind) {
    case "html":
      return html(htmlRecipe(plan), page)
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
