/**
 * The scrape result (API.md §2.6) as the API answers it. Fields appear only for the formats that
 * were asked for; `metadata` always. Metadata carries the page's own meta tags under their names,
 * so it is an open record beside the fields Gleaner sets.
 */
import { Schema } from "effect"

export const DocumentMetadata = Schema.Struct(
  {
    title: Schema.optional(Schema.String),
    description: Schema.optional(Schema.String),
    language: Schema.optional(Schema.String),
    sourceURL: Schema.String,
    url: Schema.String,
    statusCode: Schema.Number,
    error: Schema.optional(Schema.String),
    scrapeId: Schema.String,
    contentType: Schema.optional(Schema.String),
    proxyUsed: Schema.Literal("basic", "stealth"),
    cacheState: Schema.optional(Schema.Literal("hit", "miss")),
    cachedAt: Schema.optional(Schema.String),
    creditsUsed: Schema.Number,
    numPages: Schema.optional(Schema.Number),
    concurrencyLimited: Schema.optional(Schema.Boolean),
    concurrencyQueueDurationMs: Schema.optional(Schema.Number)
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).annotations({ identifier: "DocumentMetadata" })
export type DocumentMetadata = typeof DocumentMetadata.Type

export const ChangeTrackingResult = Schema.Struct({
  previousScrapeAt: Schema.NullOr(Schema.String),
  changeStatus: Schema.Literal("new", "same", "changed", "removed"),
  visibility: Schema.Literal("visible", "hidden"),
  diff: Schema.optional(Schema.Unknown),
  json: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "ChangeTracking" })

/** What a scrape's actions produced (API.md §2.4): files as URLs, in the order they were made. */
export const DocumentActions = Schema.Struct({
  screenshots: Schema.Array(Schema.String),
  scrapes: Schema.Array(Schema.Struct({ url: Schema.String, html: Schema.String })),
  javascriptReturns: Schema.Array(Schema.Struct({ type: Schema.String, value: Schema.Unknown })),
  pdfs: Schema.Array(Schema.String)
}).annotations({ identifier: "DocumentActions" })

export const Document = Schema.Struct({
  markdown: Schema.optional(Schema.String),
  html: Schema.optional(Schema.String),
  rawHtml: Schema.optional(Schema.String),
  links: Schema.optional(Schema.Array(Schema.String)),
  images: Schema.optional(Schema.Array(Schema.String)),
  summary: Schema.optional(Schema.String),
  json: Schema.optional(Schema.Unknown),
  attributes: Schema.optional(Schema.Array(Schema.Struct({
    selector: Schema.String,
    attribute: Schema.String,
    values: Schema.Array(Schema.String)
  }))),
  screenshot: Schema.optional(Schema.String),
  actions: Schema.optional(DocumentActions),
  changeTracking: Schema.optional(ChangeTrackingResult),
  pages: Schema.optional(Schema.Array(Schema.Struct({ pageNumber: Schema.Number, markdown: Schema.String }))),
  warning: Schema.optional(Schema.String),
  metadata: DocumentMetadata
}).annotations({ identifier: "Document" })
export type Document = typeof Document.Type

export const ScrapeResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Document
}).annotations({ identifier: "ScrapeResponse" })
