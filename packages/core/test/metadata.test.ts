/**
 * extractMetadata: the named fields of API.md §2.6 (title, description, language, Open Graph,
 * Dublin Core, article times), the favicon, verbatim copies of every other meta tag (repeated
 * tags become arrays) and the fetch facts; the result decodes with the PageMetadata schema.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { extractMetadata, PageMetadata, parseHtml } from "@gleaner/core"

const origin = { url: "https://news.example/2026/03/trains", sourceURL: "news.example/trains", statusCode: 200 }

const head = `
  <title> Night trains return | Courier </title>
  <meta name="description" content="Sleeper service is back.">
  <meta name="keywords" content="trains, valley">
  <meta name="robots" content="index, follow">
  <meta property="og:title" content="Night trains return">
  <meta property="og:description" content="The sleeper is back">
  <meta property="og:url" content="https://news.example/trains">
  <meta property="og:image" content="https://news.example/img/train.jpg">
  <meta property="og:site_name" content="Courier">
  <meta property="og:locale" content="en_GB">
  <meta property="og:locale:alternate" content="fr_FR">
  <meta property="og:locale:alternate" content="de_DE">
  <meta property="og:video" content="https://news.example/v.mp4">
  <meta property="og:audio" content="https://news.example/a.mp3">
  <meta property="og:determiner" content="the">
  <meta name="DC.date.created" content="2026-03-01">
  <meta name="dcterms.created" content="2026-03-02">
  <meta name="dc.date" content="2026-03-03">
  <meta name="dcterms.type" content="Text">
  <meta name="dc.type" content="Article">
  <meta name="dcterms.audience" content="Commuters">
  <meta name="dcterms.subject" content="Transport">
  <meta name="dc.subject" content="Rail">
  <meta name="dc.description" content="DC description">
  <meta name="dcterms.keywords" content="rail, night">
  <meta property="article:published_time" content="2026-03-03T08:00:00Z">
  <meta property="article:modified_time" content="2026-03-03T09:30:00Z">
  <meta property="article:section" content="Transport">
  <meta property="article:tag" content="rail">
  <meta property="article:tag" content="travel">
  <meta name="twitter:card" content="summary_large_image">
  <meta name="author" content="Ada Marsh">
  <meta name="author" content="Ben Ortiz">
  <meta http-equiv="refresh" content="300">
  <link rel="apple-touch-icon" href="/touch.png">
  <link rel="shortcut icon" href="/static/favicon.png">`

const metadataOf = (html: string, page: typeof origin & { contentType?: string } = origin) => extractMetadata(parseHtml(html), page)

describe("extractMetadata", () => {
  const metadata = metadataOf(`<!DOCTYPE html><html lang="en-GB"><head>${head}</head><body><h1>x</h1><div itemprop="x"><meta itemprop="ratingValue" content="4.5"></div></body></html>`)

  it("reads title, description, language, keywords and robots", () => {
    expect(metadata).toMatchObject({
      title: "Night trains return | Courier", description: "Sleeper service is back.", language: "en-GB",
      keywords: "trains, valley", robots: "index, follow"
    })
  })

  it("reads the Open Graph fields, with every alternate locale", () => {
    expect(metadata).toMatchObject({
      ogTitle: "Night trains return", ogDescription: "The sleeper is back", ogUrl: "https://news.example/trains",
      ogImage: "https://news.example/img/train.jpg", ogSiteName: "Courier", ogLocale: "en_GB",
      ogLocaleAlternate: ["fr_FR", "de_DE"], ogVideo: "https://news.example/v.mp4", ogAudio: "https://news.example/a.mp3",
      ogDeterminer: "the"
    })
  })

  it("reads the Dublin Core fields whatever the case of their names", () => {
    expect(metadata).toMatchObject({
      dcDateCreated: "2026-03-01", dcTermsCreated: "2026-03-02", dcDate: "2026-03-03", dcTermsType: "Text", dcType: "Article",
      dcTermsAudience: "Commuters", dcTermsSubject: "Transport", dcSubject: "Rail", dcDescription: "DC description",
      dcTermsKeywords: "rail, night"
    })
  })

  it("reads article times, section and tags (repeated tags joined)", () => {
    expect(metadata).toMatchObject({
      publishedTime: "2026-03-03T08:00:00Z", modifiedTime: "2026-03-03T09:30:00Z", articleSection: "Transport", articleTag: "rail, travel"
    })
  })

  it("copies every other meta tag verbatim, repeated ones as arrays, itemprop ones too", () => {
    expect(metadata["twitter:card"]).toBe("summary_large_image")
    expect(metadata["author"]).toEqual(["Ada Marsh", "Ben Ortiz"])
    expect(metadata["og:title"]).toBe("Night trains return")
    expect(metadata["ratingValue"]).toBe("4.5")
    expect(metadata["refresh"]).toBeUndefined()
  })

  it("gives the favicon as an absolute URL, preferring rel=icon to touch icons", () => {
    expect(metadata.favicon).toBe("https://news.example/static/favicon.png")
  })

  it("falls back to /favicon.ico on the page's origin, as browsers do", () => {
    expect(metadataOf("<html><head><title>t</title></head><body></body></html>").favicon).toBe("https://news.example/favicon.ico")
  })

  it("carries the fetch facts and decodes with the PageMetadata schema", () => {
    const withType = metadataOf(`<html><head>${head}</head></html>`, { ...origin, contentType: "text/html; charset=utf-8" })
    expect(withType).toMatchObject({ url: origin.url, sourceURL: origin.sourceURL, statusCode: 200, contentType: "text/html; charset=utf-8" })
    expect(Schema.decodeUnknownSync(PageMetadata)(withType)).toEqual(withType)
  })

  it("leaves fields out when the page does not have them, and takes og:title when <title> is missing", () => {
    const bare = metadataOf(`<html><head><meta property="og:title" content="Only OG"></head><body><svg><title>icon</title></svg></body></html>`)
    expect(bare.title).toBe("Only OG")
    expect(bare.description).toBeUndefined()
    expect(bare.language).toBeUndefined()
    expect("ogLocaleAlternate" in bare).toBe(false)
  })
})
