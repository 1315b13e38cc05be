/**
 * Wire types of crawling (API.md §2.5, §3.6): the crawl request with every option, the webhook
 * object, and the responses of start, status, cancel, errors and the active list.
 */
import { Schema } from "effect"
import { strictBody } from "./common.js"
import { Document } from "./document.js"
import { checkScrapeOptions, removedInV2, ScrapeOptions, scrapeOptionFields } from "./scrape-options.js"

/**
 * The object form of a webhook: its URL, the caller's headers (not the signature header, which
 * the server sets) and metadata, and an event filter of the names `isEvent` accepts.
 */
export const webhookObject = (isEvent: (name: string) => boolean, known: string) =>
  Schema.Struct({
    url: Schema.String.pipe(Schema.minLength(1)),
    headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
    metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
    events: Schema.optional(Schema.Array(Schema.String))
  }).pipe(
    Schema.filter((w) => {
      const problems: Array<{ path: ReadonlyArray<string>; message: string }> = []
      if (Object.keys(w.headers ?? {}).some((h) => h.toLowerCase() === "x-firecrawl-signature")) {
        problems.push({ path: ["headers"], message: "The x-firecrawl-signature header is set by the server and cannot be given" })
      }
      for (const [i, event] of (w.events ?? []).entries()) {
        if (!isEvent(event)) problems.push({ path: ["events", String(i)], message: `Unknown webhook event "${event}"; events: ${known}` })
      }
      return problems
    })
  )

const webhookEvents = ["completed", "failed", "page", "started"] as const

/** Short (`page`) or long (`crawl.page`, `batch_scrape.page`) event names. */
const WebhookObject = webhookObject(
  (event) => (webhookEvents as ReadonlyArray<string>).includes(event.includes(".") ? event.slice(event.indexOf(".") + 1) : event),
  webhookEvents.join(", ")
)

/** A webhook: a URL, or the object form with headers, metadata and an event filter. */
export const Webhook = Schema.Union(
  Schema.String.pipe(Schema.minLength(1)),
  WebhookObject
).annotations({ identifier: "Webhook" })
export type Webhook = typeof Webhook.Type

const regexes = Schema.Array(Schema.String)

/** The crawler options (also accepted by map and shown in params-preview). */
export const crawlerOptionFields = {
  includePaths: Schema.optional(regexes),
  excludePaths: Schema.optional(regexes),
  maxDiscoveryDepth: Schema.optional(Schema.Int.pipe(Schema.nonNegative())),
  crawlEntireDomain: Schema.optional(Schema.Boolean),
  allowExternalLinks: Schema.optional(Schema.Boolean),
  allowSubdomains: Schema.optional(Schema.Boolean),
  ignoreRobotsTxt: Schema.optional(Schema.Boolean),
  robotsUserAgent: Schema.optional(Schema.String),
  deduplicateSimilarURLs: Schema.optional(Schema.Boolean),
  ignoreQueryParameters: Schema.optional(Schema.Boolean),
  regexOnFullURL: Schema.optional(Schema.Boolean),
  /** Seconds between requests (> 0, ≤ 60). */
  delay: Schema.optional(Schema.Number.pipe(
    Schema.greaterThan(0),
    Schema.lessThanOrEqualTo(60, { message: () => "The delay parameter is measured in seconds and cannot exceed 60 seconds." })
  ))
}

/** `POST /v2/crawl`. */
export const CrawlRequest = strictBody({
  url: Schema.String.pipe(Schema.minLength(1)),
  prompt: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000))),
  ...crawlerOptionFields,
  limit: Schema.optional(Schema.Int.pipe(Schema.positive())),
  sitemap: Schema.optional(Schema.Literal("skip", "include", "only")),
  maxConcurrency: Schema.optional(Schema.Int.pipe(Schema.positive())),
  scrapeOptions: Schema.optional(ScrapeOptions),
  webhook: Schema.optional(Webhook),
  zeroDataRetention: Schema.optional(Schema.Boolean),
  // v1 fields, refused with their replacement
  maxDepth: removedInV2("maxDepth is v1; use maxDiscoveryDepth"),
  allowBackwardLinks: removedInV2("allowBackwardLinks is v1; use crawlEntireDomain"),
  ignoreSitemap: removedInV2("ignoreSitemap is v1; use sitemap: \"skip\" (or \"include\")"),
  crawlerOptions: removedInV2("crawlerOptions is v1; its fields now sit at the top level")
}).annotations({ identifier: "CrawlRequest" })
export type CrawlRequest = typeof CrawlRequest.Type

export const CrawlStartResponse = Schema.Struct({
  success: Schema.Literal(true),
  id: Schema.String,
  url: Schema.String,
  promptGeneratedOptions: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  finalCrawlerOptions: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  warning: Schema.optional(Schema.String)
}).annotations({ identifier: "CrawlStartResponse" })

const PageNumber = (name: string, min: number, max: number) =>
  Schema.NumberFromString.pipe(
    Schema.int({ message: () => `Invalid pagination: ${name} must be an integer` }),
    Schema.between(min, max, { message: () => `Invalid pagination: ${name} must be between ${min} and ${max}` })
  )

/** `?skip=&limit=` of the status endpoints. */
export const JobStatusParams = Schema.Struct({
  skip: Schema.optional(PageNumber("skip", 0, Number.MAX_SAFE_INTEGER)),
  limit: Schema.optional(PageNumber("limit", 1, 1000))
})

export const CrawlStatusResponse = Schema.Struct({
  success: Schema.Literal(true),
  status: Schema.Literal("scraping", "completed", "cancelled", "failed"),
  completed: Schema.Number,
  total: Schema.Number,
  creditsUsed: Schema.Number,
  expiresAt: Schema.String,
  next: Schema.optional(Schema.String),
  data: Schema.Array(Document),
  createdAt: Schema.optional(Schema.String),
  completedAt: Schema.optional(Schema.String),
  duration: Schema.optional(Schema.Number),
  warning: Schema.optional(Schema.String)
}).annotations({ identifier: "CrawlStatusResponse" })
export type CrawlStatusResponse = typeof CrawlStatusResponse.Type

export const CancelResponse = Schema.Struct({ status: Schema.Literal("cancelled") }).annotations({ identifier: "CancelResponse" })

export const JobErrorsResponse = Schema.Struct({
  errors: Schema.Array(Schema.Struct({
    id: Schema.String,
    timestamp: Schema.optional(Schema.String),
    url: Schema.String,
    code: Schema.optional(Schema.String),
    error: Schema.String
  })),
  robotsBlocked: Schema.Array(Schema.String)
}).annotations({ identifier: "JobErrorsResponse" })
export type JobErrorsResponse = typeof JobErrorsResponse.Type

export const ActiveCrawlsResponse = Schema.Struct({
  success: Schema.Literal(true),
  crawls: Schema.Array(Schema.Struct({
    id: Schema.String,
    teamId: Schema.String,
    url: Schema.String,
    created_at: Schema.String,
    options: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  }))
}).annotations({ identifier: "ActiveCrawlsResponse" })

/** `POST /v2/crawl/params-preview`. */
export const ParamsPreviewRequest = Schema.Struct({
  url: Schema.String.pipe(Schema.minLength(1)),
  prompt: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(10_000))
}).annotations({ identifier: "ParamsPreviewRequest" })

export const ParamsPreviewResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  warning: Schema.optional(Schema.String)
}).annotations({ identifier: "ParamsPreviewResponse" })

/** `POST /v2/batch/scrape`: the scrape options at the top level plus the URLs. */
export const BatchScrapeRequest = strictBody({
  urls: Schema.Array(Schema.String).pipe(Schema.minItems(1)),
  webhook: Schema.optional(Webhook),
  appendToId: Schema.optional(Schema.String),
  ignoreInvalidURLs: Schema.optional(Schema.Boolean),
  maxConcurrency: Schema.optional(Schema.Int.pipe(Schema.positive())),
  zeroDataRetention: Schema.optional(Schema.Boolean),
  ...scrapeOptionFields
}).pipe(
  Schema.filter((o) => checkScrapeOptions(o).map((p) => ({ path: p.path, message: p.message })))
).annotations({ identifier: "BatchScrapeRequest" })
export type BatchScrapeRequest = typeof BatchScrapeRequest.Type

export const BatchScrapeStartResponse = Schema.Struct({
  success: Schema.Literal(true),
  id: Schema.String,
  url: Schema.String,
  invalidURLs: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "BatchScrapeStartResponse" })
