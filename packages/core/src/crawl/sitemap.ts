/**
 * Reads a sitemap (sitemaps.org): a `<urlset>` gives page URLs, a `<sitemapindex>` gives further
 * sitemaps, and a plain-text sitemap gives one URL per line. A sitemap can hold 50,000 URLs, so
 * the XML is read by a single forward scan over its tags rather than a DOM; namespace prefixes
 * (`<ns:loc>`), CDATA and entities are understood, and only `<loc>`/`<lastmod>` directly inside an
 * entry count (an `<image:loc>` inside `<image:image>` is not the page).
 *
 * Gzipped bodies (recognised by their magic bytes, whatever the headers said) are inflated up to
 * `maxSitemapBytes`; anything bigger throws `SitemapTooLargeError` instead of filling memory.
 * Otherwise the parser never throws: what it cannot read yields no entries.
 */
import { gunzipSync } from "node:zlib"

/** The most a gzipped sitemap may inflate to: 50 MiB, the sitemaps.org limit for one file. */
export const maxSitemapBytes = 50 * 1024 * 1024

/** The most entries read from one sitemap by default, the sitemaps.org limit for one file. */
export const defaultMaxSitemapUrls = 50_000

export interface SitemapUrl {
  readonly loc: string
  /** As written (W3C datetime, usually); absent when the entry has none. */
  readonly lastmod?: string
}

export interface Sitemap {
  readonly urls: ReadonlyArray<SitemapUrl>
  /** Locations of child sitemaps, from a `<sitemapindex>`. */
  readonly sitemaps: ReadonlyArray<string>
}

/** A gzipped sitemap that inflates beyond `maxSitemapBytes`: likely a decompression bomb. */
export class SitemapTooLargeError extends Error {
  override readonly name = "SitemapTooLargeError"
  constructor(readonly maxBytes: number) {
    super(`Sitemap is larger than ${maxBytes} bytes once decompressed; it was not read`)
  }
}

const isGzip = (bytes: Uint8Array): boolean => bytes[0] === 0x1f && bytes[1] === 0x8b

/** The inflated bytes, or `undefined` when the gzip stream is corrupt. */
const gunzip = (bytes: Uint8Array): Uint8Array | undefined => {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxSitemapBytes })
  } catch (error) {
    if (error instanceof RangeError || (error instanceof Error && "code" in error && error.code === "ERR_BUFFER_TOO_LARGE")) {
      throw new SitemapTooLargeError(maxSitemapBytes)
    }
    return undefined
  }
}

const toText = (body: Uint8Array | string): string | undefined => {
  if (typeof body === "string") return body
  const bytes = isGzip(body) ? gunzip(body) : body
  return bytes === undefined ? undefined : new TextDecoder("utf-8").decode(bytes)
}

const namedEntities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }

/** XML's five named entities and numeric references; anything else is left as written. */
const decodeEntities = (text: string): string =>
  text.includes("&")
    ? text.replace(/&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|(amp|lt|gt|quot|apos));/g, (match, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
        if (name !== undefined) return namedEntities[name] ?? match
        const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? "", 16)
        const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
        return valid ? String.fromCodePoint(code) : match
      })
    : text

/** The location as written, if it is an absolute http(s) URL. */
const httpLocation = (raw: string): string | undefined => {
  const loc = raw.trim()
  if (!/^https?:\/\//i.test(loc)) return undefined
  try {
    new URL(loc)
    return loc
  } catch {
    return undefined
  }
}

/** A sitemap that is a list of URLs, one a line; lines that are not http(s) URLs are skipped. */
const parseTextSitemap = (text: string, maxUrls: number): Sitemap => {
  const urls: Array<SitemapUrl> = []
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (urls.length >= maxUrls) break
    const loc = httpLocation(line)
    if (loc !== undefined) urls.push({ loc })
  }
  return { urls, sitemaps: [] }
}

type EntryKind = "url" | "sitemap"
type Field = "loc" | "lastmod"

/** The state of the scan inside one `<url>` or `<sitemap>`. */
interface Entry {
  readonly kind: EntryKind
  /** Elements open inside the entry; its fields are at depth 1. */
  depth: number
  field: Field | undefined
  buffer: string
  loc: string | undefined
  lastmod: string | undefined
}

interface Collected {
  readonly urls: Array<SitemapUrl>
  readonly sitemaps: Array<string>
}

const finishEntry = (entry: Entry, out: Collected): void => {
  const loc = entry.loc === undefined ? undefined : httpLocation(entry.loc)
  if (loc === undefined) return
  if (entry.kind === "sitemap") out.sitemaps.push(loc)
  else {
    const lastmod = entry.lastmod?.trim() ?? ""
    out.urls.push(lastmod === "" ? { loc } : { loc, lastmod })
  }
}

/** Applies one tag (`/name`, `name attr…`, `name/`) to the entry being read; returns the new entry. */
const onTag = (tag: string, entry: Entry | undefined, out: Collected): Entry | undefined => {
  const closing = tag.startsWith("/")
  const selfClosing = tag.endsWith("/")
  const local = (/^\/?\s*([^\s/>]+)/.exec(tag)?.[1] ?? "").replace(/^.*:/, "").toLowerCase()
  if (!closing && (local === "url" || local === "sitemap")) {
    if (entry !== undefined) finishEntry(entry, out)
    return selfClosing ? undefined : { kind: local, depth: 0, field: undefined, buffer: "", loc: undefined, lastmod: undefined }
  }
  if (entry === undefined || selfClosing) return entry
  if (!closing) {
    entry.depth++
    if (entry.depth === 1 && (local === "loc" || local === "lastmod")) {
      entry.field = local
      entry.buffer = ""
    }
    return entry
  }
  if (entry.depth === 0) {
    finishEntry(entry, out)
    return undefined
  }
  if (entry.depth === 1 && entry.field !== undefined) {
    if (local === entry.field) entry[entry.field] = entry.buffer
    entry.field = undefined
  }
  entry.depth--
  return entry
}

/** A forward scan over the tags; text is kept only inside a `<loc>` or `<lastmod>`. */
const parseXmlSitemap = (xml: string, maxUrls: number): Sitemap => {
  const out: Collected = { urls: [], sitemaps: [] }
  let entry: Entry | undefined
  let position = 0
  while (out.urls.length + out.sitemaps.length < maxUrls) {
    const open = xml.indexOf("<", position)
    if (open === -1) break
    if (entry?.field !== undefined) entry.buffer += decodeEntities(xml.slice(position, open))
    if (xml.startsWith("<![CDATA[", open)) {
      const end = xml.indexOf("]]>", open + 9)
      if (end === -1) break
      if (entry?.field !== undefined) entry.buffer += xml.slice(open + 9, end)
      position = end + 3
    } else if (xml.startsWith("<!--", open)) {
      const end = xml.indexOf("-->", open + 4)
      if (end === -1) break
      position = end + 3
    } else {
      const close = xml.indexOf(">", open + 1)
      if (close === -1) break
      const tag = xml.slice(open + 1, close)
      if (!tag.startsWith("?") && !tag.startsWith("!")) entry = onTag(tag.trimEnd(), entry, out)
      position = close + 1
    }
  }
  if (entry !== undefined && out.urls.length + out.sitemaps.length < maxUrls) finishEntry(entry, out)
  return out
}

/**
 * The URLs and child sitemaps of a sitemap body (bytes, possibly gzipped, or text). Only absolute
 * http(s) locations are kept, trimmed but otherwise as written; at most `maxUrls` entries in all
 * are read (default 50,000). Throws `SitemapTooLargeError` for a gzip body beyond `maxSitemapBytes`.
 */
export const parseSitemap = (body: Uint8Array | string, maxUrls: number = defaultMaxSitemapUrls): Sitemap => {
  const text = toText(body)?.replace(/^\uFEFF/, "")
  const limit = Math.max(0, Math.floor(maxUrls))
  if (text === undefined || limit === 0) return { urls: [], sitemaps: [] }
  return /^\s*</.test(text) ? parseXmlSitemap(text, limit) : parseTextSitemap(text, limit)
}
