/**
 * Cleans a parsed page before it is converted: removes what never renders as content (scripts,
 * styles, templates, inline SVG, comments), applies the caller's `includeTags`/`excludeTags`,
 * blocks ads and trackers, narrows to the main content, makes link and image URLs absolute and
 * drops inline base64 images. It mutates the document and returns the element to convert.
 */
import { adAttributes, hasAdToken, isAdHost } from "./block-list.js"
import { bodyOf, collapseWhitespace, COMMENT_NODE, type HtmlDocument, type HtmlElement, type HtmlNode, isElement } from "./dom.js"
import { hintText } from "./hints.js"
import { imageSource } from "./images.js"
import { absoluteUrl, documentBaseUrl } from "./links.js"
import { extractMainContent } from "./main-content.js"

/** How {@link cleanDocument} treats a page (the scrape options of API.md §2.2). */
export interface CleanOptions {
  /** The page's URL; relative links and images resolve against it (or its `<base href>`). */
  readonly baseUrl: string
  /** Keep only the main content (see `extractMainContent`). Ignored when `includeTags` is set. */
  readonly onlyMainContent: boolean
  /**
   * CSS selectors; when non-empty only the matching elements are kept, in document order. The
   * explicit selection replaces main-content detection. Iframes stay `<iframe>` elements, so
   * the word `iframe` in a selector matches iframes as written.
   */
  readonly includeTags?: ReadonlyArray<string>
  /** CSS selectors of elements to remove (invalid selectors are ignored). */
  readonly excludeTags?: ReadonlyArray<string>
  /** Replace inline `data:` images by their alt text. */
  readonly removeBase64Images: boolean
  /** Remove ad slots, sponsored widgets and ad/tracker iframes, images and links. */
  readonly blockAds: boolean
}

/** Elements that never carry readable content. */
const noiseTags: ReadonlySet<string> = new Set([
  "script", "style", "meta", "link", "template", "svg", "canvas", "base", "title", "head"
])

/**
 * Below this much text a `<noscript>` is a fallback image or an "enable JavaScript" notice and
 * goes; above it, it is the page itself (script-rendered sites serve their crawler view there).
 */
const minNoscriptContentChars = 200

const unwrap = (element: HtmlElement): void => {
  const parent = element.parentNode
  if (parent === null) return
  while (element.firstChild !== null) parent.insertBefore(element.firstChild, element)
  element.remove()
}

const safeQueryAll = (root: HtmlElement, selector: string): ReadonlyArray<HtmlElement> => {
  try {
    return root.querySelectorAll(selector)
  } catch {
    return []
  }
}

/** Host of an absolute or scheme-relative URL ("" for relative ones: those are first-party). */
const hostOf = (url: string | null): string => /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#:@\s]+)/i.exec(url ?? "")?.[1] ?? ""

const isTrackingPixel = (img: HtmlElement): boolean =>
  ["width", "height"].every((a) => /^[01](?:px)?$/.test((img.getAttribute(a) ?? "").trim()))

/** Tags whose `src` (or `data`) may point at an ad or tracker host. */
const embeddingTags: ReadonlySet<string> = new Set(["iframe", "img", "embed", "object", "source"])

/** Tags that carry ad-slot attributes (checked on these only: attribute reads add up). */
const adHolderTags: ReadonlySet<string> = new Set(["div", "ins", "aside", "section", "span", "iframe"])

const isAd = (element: HtmlElement): boolean => {
  const tag = element.localName
  if (adHolderTags.has(tag) && adAttributes.some((a) => element.hasAttribute(a))) return true
  if (hasAdToken(hintText(element))) return true
  if (embeddingTags.has(tag) && isAdHost(hostOf(element.getAttribute("src") ?? element.getAttribute("data")))) return true
  if (tag === "a" && isAdHost(hostOf(element.getAttribute("href")))) return true
  return tag === "img" && isTrackingPixel(element)
}

/** Text outside links, to spare a content block whose class merely mentions ads ("has-ads"). */
const proseLength = (element: HtmlElement): number => {
  const links = element.querySelectorAll("a").reduce((n, a) => n + (a.textContent ?? "").length, 0)
  return (element.textContent ?? "").length - links
}

/** Ad slots hold little prose of their own; anything with more is page content. */
const maxAdProseChars = 600

/** What the noise walk does with an element. */
const noiseAction = (element: HtmlElement, blockAds: boolean): "remove" | "unwrap" | "keep" => {
  if (noiseTags.has(element.localName)) return "remove"
  if (element.localName === "noscript") {
    return collapseWhitespace(element.textContent ?? "").length < minNoscriptContentChars ? "remove" : "unwrap"
  }
  return blockAds && isAd(element) && proseLength(element) < maxAdProseChars ? "remove" : "keep"
}

/**
 * One walk over the tree: drops comments and noise elements and, with `blockAds`, ad slots and
 * ad/tracker embeds. (A single walk: css-select over every element costs more than the rest.)
 */
const removeNoise = (node: HtmlNode, blockAds: boolean): void => {
  let child = node.firstChild
  while (child !== null) {
    const next = child.nextSibling
    if (child.nodeType === COMMENT_NODE) child.remove()
    else if (isElement(child)) {
      const action = noiseAction(child, blockAds)
      if (action === "remove") child.remove()
      else {
        removeNoise(child, blockAds)
        if (action === "unwrap") unwrap(child)
      }
    }
    child = next
  }
}

const removeExcluded = (root: HtmlElement, selectors: ReadonlyArray<string>): void => {
  for (const selector of selectors) {
    for (const element of safeQueryAll(root, selector)) element.remove()
  }
}

const hasMatchedAncestor = (element: HtmlElement, matched: ReadonlySet<HtmlElement>): boolean => {
  for (let p = element.parentElement; p !== null; p = p.parentElement) if (matched.has(p)) return true
  return false
}

/** Replaces the body's content by the outermost elements matching any selector. */
const keepIncluded = (document: HtmlDocument, body: HtmlElement, selectors: ReadonlyArray<string>): HtmlElement => {
  const matched = new Set(selectors.flatMap((s) => [...safeQueryAll(body, s)]))
  const order = new Map(body.querySelectorAll("*").map((e, i) => [e, i] as const))
  const outermost = [...matched].filter((e) => !hasMatchedAncestor(e, matched))
    .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
  const container = document.createElement("div")
  for (const element of outermost) container.appendChild(element)
  while (body.firstChild !== null) body.firstChild.remove()
  body.appendChild(container)
  return container
}

const resolveImages = (root: HtmlElement, base: string, removeBase64: boolean, document: HtmlDocument): void => {
  for (const img of root.querySelectorAll("img")) {
    const source = imageSource(img)
    if (source !== undefined) img.setAttribute("src", source.startsWith("data:") ? source : absoluteUrl(source, base) ?? source)
    for (const attribute of ["srcset", "sizes", "data-src", "data-srcset", "data-lazy-src", "data-original"]) img.removeAttribute(attribute)
    if (removeBase64 && (img.getAttribute("src") ?? "").startsWith("data:")) {
      const alt = (img.getAttribute("alt") ?? "").trim()
      if (alt === "") img.remove()
      else img.replaceWith(document.createTextNode(alt))
    }
  }
  for (const source of root.querySelectorAll("picture > source")) source.remove()
}

const resolveLinks = (root: HtmlElement, base: string): void => {
  for (const anchor of root.querySelectorAll("a[href]")) {
    const href = (anchor.getAttribute("href") ?? "").trim()
    if (/^javascript:/i.test(href)) anchor.removeAttribute("href")
    else {
      const url = absoluteUrl(href, base)
      if (url !== undefined) anchor.setAttribute("href", url)
    }
  }
}

/**
 * Cleans `document` in place as `options` say and returns the root element of the content to
 * convert: the body, the main-content subtree, or a container of the `includeTags` matches.
 */
export const cleanDocument = (document: HtmlDocument, options: CleanOptions): HtmlElement => {
  const base = documentBaseUrl(document, options.baseUrl)
  const body = bodyOf(document) ?? document.createElement("body")
  removeNoise(body, options.blockAds)
  removeExcluded(body, options.excludeTags ?? [])
  const includeTags = options.includeTags ?? []
  const root = includeTags.length > 0
    ? keepIncluded(document, body, includeTags)
    : options.onlyMainContent ? extractMainContent(document) : body
  resolveImages(root, base, options.removeBase64Images, document)
  resolveLinks(root, base)
  return root
}
