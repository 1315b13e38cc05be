/**
 * `document.metadata` of a scrape result (API.md §2.6): the named fields Firecrawl clients read,
 * plus every other `<meta name|property|itemprop>` of the page copied verbatim under its own
 * key (a tag that appears several times becomes an array). Job bookkeeping fields (scrapeId,
 * creditsUsed, cache state …) are added by the scraper, not by the page transform.
 */
import { Schema } from "effect"

const Text = Schema.optional(Schema.String)

/** A meta value: one string, or all values in page order when a tag repeats. */
export const MetaValue = Schema.Union(Schema.String, Schema.Array(Schema.String))
export type MetaValue = typeof MetaValue.Type

export const PageMetadata = Schema.Struct(
  {
    title: Text,
    description: Text,
    language: Text,
    keywords: Text,
    robots: Text,
    ogTitle: Text,
    ogDescription: Text,
    ogUrl: Text,
    ogImage: Text,
    ogAudio: Text,
    ogDeterminer: Text,
    ogLocale: Text,
    ogLocaleAlternate: Schema.optional(Schema.Array(Schema.String)),
    ogSiteName: Text,
    ogVideo: Text,
    favicon: Text,
    dcTermsCreated: Text,
    dcDateCreated: Text,
    dcDate: Text,
    dcTermsType: Text,
    dcType: Text,
    dcTermsAudience: Text,
    dcTermsSubject: Text,
    dcSubject: Text,
    dcDescription: Text,
    dcTermsKeywords: Text,
    modifiedTime: Text,
    publishedTime: Text,
    articleTag: Text,
    articleSection: Text,
    /** The URL as the caller sent it. */
    sourceURL: Schema.String,
    /** The final URL, after redirects. */
    url: Schema.String,
    statusCode: Schema.Number,
    contentType: Text
  },
  Schema.Record({ key: Schema.String, value: Schema.Union(MetaValue, Schema.Number) })
).annotations({ identifier: "PageMetadata", description: "What the page says about itself, and where it was fetched" })
export type PageMetadata = typeof PageMetadata.Type
