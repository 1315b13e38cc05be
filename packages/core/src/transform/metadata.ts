/**
 * Reads what a page says about itself into `document.metadata` (API.md §2.6): `<title>`,
 * `<html lang>`, the favicon, the Open Graph, Dublin Core and `article:` meta tags under their
 * Firecrawl names, and every other `<meta name|property|itemprop>` verbatim under its own key.
 */
import type { PageMetadata } from "../schema/metadata.js"
import { collapseWhitespace, headOf, type HtmlDocument, type HtmlElement } from "./dom.js"
import { absoluteUrl, documentBaseUrl } from "./links.js"

/** Where the page came from; copied into the metadata. */
export interface PageOrigin {
  /** The final URL, after redirects. */
  readonly url: string
  /** The URL as the caller sent it. */
  readonly sourceURL: string
  readonly statusCode: number
  readonly contentType?: string
}

/** Named fields and the meta keys (lower case) they are read from, first match wins. */
const namedFields = [
  ["description", ["description"]],
  ["keywords", ["keywords"]],
  ["robots", ["robots"]],
  ["ogTitle", ["og:title"]],
  ["ogDescription", ["og:description"]],
  ["ogUrl", ["og:url"]],
  ["ogImage", ["og:image", "og:image:url", "og:image:secure_url"]],
  ["ogAudio", ["og:audio", "og:audio:url"]],
  ["ogDeterminer", ["og:determiner"]],
  ["ogLocale", ["og:locale"]],
  ["ogSiteName", ["og:site_name"]],
  ["ogVideo", ["og:video", "og:video:url"]],
  ["dcTermsCreated", ["dcterms.created"]],
  ["dcDateCreated", ["dc.date.created"]],
  ["dcDate", ["dc.date"]],
  ["dcTermsType", ["dcterms.type"]],
  ["dcType", ["dc.type"]],
  ["dcTermsAudience", ["dcterms.audience"]],
  ["dcTermsSubject", ["dcterms.subject"]],
  ["dcSubject", ["dc.subject"]],
  ["dcDescription", ["dc.description"]],
  ["dcTermsKeywords", ["dcterms.keywords"]],
  ["modifiedTime", ["article:modified_time"]],
  ["publishedTime", ["article:published_time"]],
  ["articleTag", ["article:tag"]],
  ["articleSection", ["article:section"]]
] as const satisfies ReadonlyArray<readonly [keyof PageMetadata, ReadonlyArray<string>]>

/** Metadata fields that hold one string. */
type StringField = (typeof namedFields)[number][0]

/** Fields whose repeated tags are joined into one string (the others take the first value). */
const joinedFields: ReadonlySet<StringField> = new Set(["articleTag", "keywords"])

/** Every `<meta>` with a key and a `content`, as [key as written, value] in page order. */
const metaEntries = (document: HtmlDocument): Array<readonly [string, string]> =>
  document.getElementsByTagName("meta").flatMap((meta) => {
    const key = meta.getAttribute("name") ?? meta.getAttribute("property") ?? meta.getAttribute("itemprop")
    const content = meta.getAttribute("content")
    return key === null || key.trim() === "" || content === null ? [] : [[key.trim(), content.trim()] as const]
  })

const groupByKey = (entries: ReadonlyArray<readonly [string, string]>, lowerCase: boolean): Map<string, Array<string>> => {
  const groups = new Map<string, Array<string>>()
  for (const [key, value] of entries) {
    const k = lowerCase ? key.toLowerCase() : key
    const list = groups.get(k)
    if (list === undefined) groups.set(k, [value])
    else list.push(value)
  }
  return groups
}

const titleOf = (document: HtmlDocument): string | undefined => {
  const element = document.querySelector("head > title") ??
    document.querySelectorAll("title").find((t) => t.closest("svg") === null)
  const text = collapseWhitespace(element?.textContent ?? "")
  return text === "" ? undefined : text
}

const languageOf = (document: HtmlDocument): string | undefined => {
  const lang = document.documentElement?.getAttribute("lang") ?? document.querySelector("html")?.getAttribute("lang")
  const fallback = headOf(document).querySelector("meta[http-equiv='content-language' i]")?.getAttribute("content")
  const value = (lang ?? fallback ?? "").trim()
  return value === "" ? undefined : value
}

const iconRank = (link: HtmlElement): number => {
  const rel = (link.getAttribute("rel") ?? "").toLowerCase().split(/\s+/)
  if (rel.includes("icon")) return 0
  if (rel.includes("apple-touch-icon") || rel.includes("apple-touch-icon-precomposed")) return 1
  return rel.includes("mask-icon") ? 2 : 3
}

/**
 * The favicon as an absolute URL: the page's `<link rel="icon">` (or `shortcut icon`, then an
 * Apple touch icon); without one, `/favicon.ico` on the page's origin, which is what browsers
 * fetch. Pages that are not http(s) get none.
 */
const faviconOf = (document: HtmlDocument, pageUrl: string): string | undefined => {
  const links = headOf(document).querySelectorAll("link[rel][href]").filter((l) => iconRank(l) < 3)
  const best = links.sort((a, b) => iconRank(a) - iconRank(b))[0]
  const href = best?.getAttribute("href")
  if (href !== undefined && href !== null && href.trim() !== "") return absoluteUrl(href, documentBaseUrl(document, pageUrl))
  return /^https?:/.test(pageUrl) ? absoluteUrl("/favicon.ico", pageUrl) : undefined
}

const namedValues = (byKey: ReadonlyMap<string, ReadonlyArray<string>>): Partial<Record<StringField, string>> => {
  const out: Partial<Record<StringField, string>> = {}
  for (const [field, keys] of namedFields) {
    const values = keys.map((k) => byKey.get(k)).find((v) => v !== undefined && v.length > 0)
    if (values === undefined || values[0] === undefined) continue
    out[field] = joinedFields.has(field) ? values.join(", ") : values[0]
  }
  return out
}

/** The page's metadata; named fields are present only when the page has them. */
export const extractMetadata = (document: HtmlDocument, page: PageOrigin): PageMetadata => {
  const entries = metaEntries(document)
  const byLowerKey = groupByKey(entries, true)
  const named = namedValues(byLowerKey)
  const verbatim: Record<string, string | ReadonlyArray<string>> = {}
  for (const [key, values] of groupByKey(entries, false)) {
    if (key in named || values[0] === undefined) continue
    verbatim[key] = values.length === 1 ? values[0] : values
  }
  const title = titleOf(document) ?? named.ogTitle
  const language = languageOf(document)
  const favicon = faviconOf(document, page.url)
  const alternates = byLowerKey.get("og:locale:alternate")
  return {
    ...verbatim,
    ...named,
    ...(title === undefined ? {} : { title }),
    ...(language === undefined ? {} : { language }),
    ...(favicon === undefined ? {} : { favicon }),
    ...(alternates === undefined ? {} : { ogLocaleAlternate: alternates }),
    sourceURL: page.sourceURL,
    url: page.url,
    statusCode: page.statusCode,
    ...(page.contentType === undefined ? {} : { contentType: page.contentType })
  }
}
