/**
 * An HTML page's content: the single-parse page pipeline and the format producers, from a recipe
 * (the plan's content options, plain data) and the fetched page. Pure and synchronous, so it runs
 * the same in the main thread and in a transform thread (html-threads.ts); the recipe, the page
 * and the result are Schemas because they cross the thread boundary.
 */
import { STATUS_CODES } from "node:http"
import { Schema } from "effect"
import { decodeBody } from "../transform/charset.js"
import { extractAttributes } from "../transform/formats/attributes.js"
import { extractStructuredJson } from "../transform/formats/structured-data.js"
import { summarizeExtractive } from "../transform/formats/summary.js"
import { transformPage } from "../transform/page.js"
import type { ScrapePlan } from "./plan.js"

/** Optional fields are absent, never `undefined`. */
const exact = { exact: true } as const

/** A page as fetched (or read back from the cache). */
export const FetchedPage = Schema.Struct({
  url: Schema.String,
  statusCode: Schema.Number,
  contentType: Schema.NullOr(Schema.String),
  body: Schema.Uint8ArrayFromSelf
})
export type FetchedPage = typeof FetchedPage.Type

/** What the HTML pipeline needs to know of a plan. */
export const HtmlRecipe = Schema.Struct({
  sourceUrl: Schema.String,
  onlyMainContent: Schema.Boolean,
  includeTags: Schema.Array(Schema.String),
  excludeTags: Schema.Array(Schema.String),
  removeBase64Images: Schema.Boolean,
  blockAds: Schema.Boolean,
  want: Schema.Struct({
    markdown: Schema.Boolean,
    html: Schema.Boolean,
    rawHtml: Schema.Boolean,
    links: Schema.Boolean,
    images: Schema.Boolean,
    summary: Schema.Boolean,
    /** Markdown is needed for change tracking even when not asked for. */
    changeTracking: Schema.Boolean,
    json: Schema.optionalWith(Schema.Struct({
      schema: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), exact),
      prompt: Schema.optionalWith(Schema.String, exact)
    }), exact),
    attributes: Schema.optionalWith(Schema.Array(Schema.Struct({ selector: Schema.String, attribute: Schema.String })), exact)
  })
})
export type HtmlRecipe = typeof HtmlRecipe.Type

/** The content part of a Document; metadata gets its scrape fields later. */
export const Produced = Schema.Struct({
  markdown: Schema.optionalWith(Schema.String, exact),
  html: Schema.optionalWith(Schema.String, exact),
  rawHtml: Schema.optionalWith(Schema.String, exact),
  links: Schema.optionalWith(Schema.Array(Schema.String), exact),
  images: Schema.optionalWith(Schema.Array(Schema.String), exact),
  summary: Schema.optionalWith(Schema.String, exact),
  json: Schema.optionalWith(Schema.Unknown, exact),
  attributes: Schema.optionalWith(Schema.Array(Schema.Struct({
    selector: Schema.String,
    attribute: Schema.String,
    values: Schema.Array(Schema.String)
  })), exact),
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** Markdown for change tracking and summaries even when markdown was not asked for. */
  fullMarkdown: Schema.String,
  /** Pages of a PDF that were read (for billing). */
  pdfPages: Schema.optionalWith(Schema.Number, exact),
  warnings: Schema.Array(Schema.String)
})
export type Produced = typeof Produced.Type

export const htmlRecipe = (plan: ScrapePlan): HtmlRecipe => ({
  sourceUrl: plan.sourceUrl,
  onlyMainContent: plan.onlyMainContent,
  includeTags: plan.includeTags,
  excludeTags: plan.excludeTags,
  removeBase64Images: plan.removeBase64Images,
  blockAds: plan.blockAds,
  want: {
    markdown: plan.want.markdown,
    html: plan.want.html,
    rawHtml: plan.want.rawHtml,
    links: plan.want.links,
    images: plan.want.images,
    summary: plan.want.summary,
    changeTracking: plan.want.changeTracking !== undefined,
    ...(plan.want.json === undefined ? {} : { json: plan.want.json }),
    ...(plan.want.attributes === undefined ? {} : { attributes: plan.want.attributes })
  }
})

/** The metadata every kind of page has. */
export const pageMetadata = (sourceUrl: string, page: FetchedPage) => ({
  sourceURL: sourceUrl,
  url: page.url,
  statusCode: page.statusCode,
  ...(page.contentType === null ? {} : { contentType: page.contentType }),
  ...(page.statusCode >= 400 ? { error: STATUS_CODES[page.statusCode] ?? `HTTP ${page.statusCode}` } : {})
})

export const htmlContent = (recipe: HtmlRecipe, page: FetchedPage): Produced => {
  const { want } = recipe
  const { text } = decodeBody(page.body, page.contentType ?? undefined)
  const needsMarkdown = want.markdown || want.summary || want.json !== undefined || want.changeTracking
  const t = transformPage(text, {
    url: page.url,
    sourceURL: recipe.sourceUrl,
    statusCode: page.statusCode,
    ...(page.contentType === null ? {} : { contentType: page.contentType }),
    onlyMainContent: recipe.onlyMainContent,
    includeTags: recipe.includeTags,
    excludeTags: recipe.excludeTags,
    removeBase64Images: recipe.removeBase64Images,
    blockAds: recipe.blockAds,
    want: { markdown: needsMarkdown, html: want.html, links: want.links, images: want.images }
  })
  const markdown = t.markdown ?? ""
  return {
    ...(want.markdown ? { markdown } : {}),
    ...(want.html && t.html !== undefined ? { html: t.html } : {}),
    ...(want.rawHtml ? { rawHtml: text } : {}),
    ...(want.links ? { links: t.links ?? [] } : {}),
    ...(want.images ? { images: t.images ?? [] } : {}),
    ...(want.summary ? { summary: summarizeExtractive(markdown) } : {}),
    ...(want.json === undefined
      ? {}
      : { json: extractStructuredJson(text, { ...want.json, pageUrl: page.url, markdown }).json }),
    ...(want.attributes === undefined ? {} : { attributes: extractAttributes(text, want.attributes) }),
    metadata: { ...t.metadata, ...pageMetadata(recipe.sourceUrl, page) },
    fullMarkdown: markdown,
    warnings: []
  }
}

// --- what crosses the thread boundary ---------------------------------------------------------

/** A page for a transform thread to process. */
export const HtmlTask = Schema.Struct({ id: Schema.Number, recipe: HtmlRecipe, page: FetchedPage })

/** A transform thread's messages: ready once loaded, then one reply per task. */
export const HtmlThreadMessage = Schema.Union(
  Schema.TaggedStruct("ready", {}),
  Schema.TaggedStruct("done", { id: Schema.Number, produced: Produced }),
  Schema.TaggedStruct("failed", { id: Schema.Number, message: Schema.String })
)
export type HtmlThreadMessage = typeof HtmlThreadMessage.Type
