/**
 * Image sources: which URL an `<img>` really shows (the largest `srcset` candidate, a lazy-load
 * attribute when `src` is only a placeholder, a `<picture>` source when the image has none),
 * and the page's image list for the `images` format.
 */
import type { HtmlDocument, HtmlElement } from "./dom.js"
import { absoluteUrl, documentBaseUrl } from "./links.js"

/** Attributes lazy-loading scripts read the real image URL from, most common first. */
const lazySourceAttributes = [
  "data-src", "data-lazy-src", "data-original", "data-lazy", "data-url", "data-hi-res-src", "data-full-src", "data-img-src"
] as const
const lazySrcsetAttributes = ["data-srcset", "data-lazy-srcset"] as const

/** One `srcset` candidate; `size` is its width (`w`) or pixel density (`x`, default 1). */
export interface SrcsetCandidate {
  readonly url: string
  readonly size: number
  readonly unit: "w" | "x"
}

const descriptorOf = (text: string): { size: number; unit: "w" | "x" } => {
  const match = /(\d+(?:\.\d+)?)\s*([wx])/i.exec(text)
  if (match === null || match[1] === undefined) return { size: 1, unit: "x" }
  return { size: Number(match[1]), unit: match[2]?.toLowerCase() === "w" ? "w" : "x" }
}

/**
 * Parses a `srcset` value. URLs may contain commas (image CDNs use them), so a candidate's URL
 * runs to the next whitespace, as the HTML standard reads it; its descriptor runs to the comma.
 */
export const parseSrcset = (value: string): Array<SrcsetCandidate> => {
  const out: Array<SrcsetCandidate> = []
  let rest = value
  for (;;) {
    rest = rest.replace(/^[\s,]+/, "")
    if (rest === "") return out
    const urlMatch = /^\S+/.exec(rest)
    let url = urlMatch?.[0] ?? ""
    rest = rest.slice(url.length)
    let descriptor = ""
    if (url.endsWith(",")) url = url.replace(/,+$/, "")
    else {
      const end = rest.indexOf(",")
      descriptor = end === -1 ? rest : rest.slice(0, end)
      rest = end === -1 ? "" : rest.slice(end + 1)
    }
    if (url !== "") out.push({ url, ...descriptorOf(descriptor) })
  }
}

/** The largest candidate: by width when any candidate has one, else by density. */
export const largestCandidate = (candidates: ReadonlyArray<SrcsetCandidate>): string | undefined => {
  const unit = candidates.some((c) => c.unit === "w") ? "w" : "x"
  let best: SrcsetCandidate | undefined
  for (const c of candidates) {
    if (c.unit === unit && (best === undefined || c.size > best.size)) best = c
  }
  return best?.url
}

/** A `src` that only reserves space until a script swaps the real image in. */
const isPlaceholder = (src: string): boolean =>
  src === "" || src === "about:blank" ||
  (src.startsWith("data:") && src.length < 400) ||
  /(?:^|[/_.-])(?:blank|spacer|placeholder|pixel|transparent|lazy|loading)[^/]*\.(?:gif|png|svg)(?:$|\?)/i.test(src)

const srcsetsOf = (img: HtmlElement): Array<string> => {
  const own = ["srcset", ...lazySrcsetAttributes].map((a) => img.getAttribute(a) ?? "").filter((v) => v.trim() !== "")
  if (own.length > 0) return own
  const picture = img.parentElement?.localName === "picture" ? img.parentElement : null
  if (picture === null) return []
  return picture.children.filter((c) => c.localName === "source").map((c) => c.getAttribute("srcset") ?? "")
}

/** The raw (unresolved) URL an image shows, or `undefined` when it has none. */
export const imageSource = (img: HtmlElement): string | undefined => {
  const fromSrcset = largestCandidate(srcsetsOf(img).flatMap(parseSrcset))
  if (fromSrcset !== undefined) return fromSrcset
  const src = (img.getAttribute("src") ?? "").trim()
  if (!isPlaceholder(src)) return src
  for (const attribute of lazySourceAttributes) {
    const value = (img.getAttribute(attribute) ?? "").trim()
    if (value !== "") return value
  }
  return src === "" ? undefined : src
}

const metaImageSelector = "meta[property='og:image'], meta[name='og:image'], meta[name='twitter:image'], meta[property='twitter:image']"

/**
 * Absolute http(s) URLs of the page's images, in document order, without duplicates: every
 * `<img>` (as {@link imageSource} picks it) and the images its `og:image`/`twitter:image` meta
 * tags announce. Inline `data:` images are left out.
 */
export const extractImages = (document: HtmlDocument, baseUrl: string): Array<string> => {
  const base = documentBaseUrl(document, baseUrl)
  const raw = [
    ...document.querySelectorAll(metaImageSelector).map((m) => m.getAttribute("content") ?? ""),
    ...document.querySelectorAll("img").map((img) => imageSource(img) ?? "")
  ]
  const seen = new Set<string>()
  for (const value of raw) {
    if (value === "") continue
    const url = absoluteUrl(value, base)
    if (url !== undefined && /^https?:/.test(url)) seen.add(url)
  }
  return [...seen]
}
