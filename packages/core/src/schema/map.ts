/**
 * Wire types of `POST /v2/map` (API.md §3.7): the request with its own fields plus the crawler
 * options (upstream's map schema extends them), and the list of links it answers.
 */
import { Schema } from "effect"
import { strictBody } from "./common.js"
import { crawlerOptionFields } from "./crawl.js"
import { scrapeOptionFields } from "./scrape-options.js"

/** Results a map returns when the caller gives no `limit`. */
export const defaultMapLimit = 5000

/** The largest `limit` a map accepts. */
export const maxMapLimit = 100_000

/** `POST /v2/map`. */
export const MapRequest = strictBody({
  url: Schema.String.pipe(Schema.minLength(1)),
  ...crawlerOptionFields,
  /** Ranks the links by relevance to these words; matches first. */
  search: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000))),
  /** Where links come from: sitemaps only, sitemaps and links (default `include`), or links only. */
  sitemap: Schema.optional(Schema.Literal("only", "include", "skip")),
  /** Keep links on subdomains of the URL's host. Default `true`. */
  includeSubdomains: Schema.optional(Schema.Boolean),
  /** Drop query strings, so `/a?x=1` and `/a?x=2` are one link. Default `true`. */
  ignoreQueryParameters: Schema.optional(Schema.Boolean),
  /** Links returned at most, 1 to 100,000. Default 5000. */
  limit: Schema.optional(Schema.Int.pipe(Schema.between(1, maxMapLimit))),
  /** Deadline of the whole map in milliseconds; none by default. */
  timeout: Schema.optional(Schema.Int.pipe(Schema.positive())),
  location: scrapeOptionFields.location,
  /** Headers sent with every page fetched while looking for links. */
  headers: scrapeOptionFields.headers,
  /** Accepted; Gleaner keeps no sitemap cache, so every map reads the site afresh. */
  ignoreCache: Schema.optional(Schema.Boolean),
  /** Accepted; Gleaner has no URL index, so this changes nothing. */
  useIndex: Schema.optional(Schema.Boolean),
  /** Keep only links at or below the URL's path. Default `true`; `crawlEntireDomain: true` lifts it. */
  filterByPath: Schema.optional(Schema.Boolean),
  threatProtection: scrapeOptionFields.threatProtection,
  auditMetadata: scrapeOptionFields.auditMetadata
}).annotations({ identifier: "MapRequest" })
export type MapRequest = typeof MapRequest.Type

/** One link of a map: the URL, and the page's title and description when the page was read. */
export const MapLink = Schema.Struct({
  url: Schema.String,
  title: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String)
}).annotations({ identifier: "MapLink" })
export type MapLink = typeof MapLink.Type

export const MapResponse = Schema.Struct({
  success: Schema.Literal(true),
  id: Schema.optional(Schema.String),
  links: Schema.Array(MapLink),
  warning: Schema.optional(Schema.String)
}).annotations({ identifier: "MapResponse" })
export type MapResponse = typeof MapResponse.Type
