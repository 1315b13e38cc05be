/**
 * Links of a page for the `links` format, and the URL resolution every transform shares: a
 * page's relative URLs resolve against its `<base href>` (itself resolved against the page URL)
 * or, without one, against the page URL.
 */
import { headOf, type HtmlDocument } from "./dom.js"

/** `new URL(raw, base)` as a string, or `undefined` when it does not parse. */
export const absoluteUrl = (raw: string, base: string): string | undefined => {
  try {
    return new URL(raw.trim(), base).href
  } catch {
    return undefined
  }
}

/** The URL relative references resolve against: `<base href>` when present and valid. */
export const documentBaseUrl = (document: HtmlDocument, pageUrl: string): string => {
  const href = headOf(document).querySelector("base[href]")?.getAttribute("href")
  if (href === undefined || href === null || href.trim() === "") return pageUrl
  return absoluteUrl(href, pageUrl) ?? pageUrl
}

const isHttp = (url: string): boolean => url.startsWith("http://") || url.startsWith("https://")

/**
 * Absolute http(s) targets of every `a[href]` (and image-map `area[href]`) of the page, in
 * document order, without duplicates. Fragment-only links (`#top`) and `javascript:` are left
 * out, as are other schemes (`mailto:`, `tel:`).
 */
export const extractLinks = (document: HtmlDocument, baseUrl: string): Array<string> => {
  const base = documentBaseUrl(document, baseUrl)
  const seen = new Set<string>()
  for (const anchor of document.querySelectorAll("a[href], area[href]")) {
    const href = (anchor.getAttribute("href") ?? "").trim()
    if (href === "" || href.startsWith("#")) continue
    const url = absoluteUrl(href, base)
    if (url !== undefined && isHttp(url)) seen.add(url)
  }
  return [...seen]
}
