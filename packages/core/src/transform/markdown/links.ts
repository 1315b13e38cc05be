/**
 * Links and images: relative URLs resolved against the page address, no empty-link noise, no
 * `javascript:` links, and destinations and titles written so that any CommonMark parser reads
 * them back unchanged.
 *
 * The base URL is per call while the Turndown service is built once, so it lives in a module
 * variable set around each synchronous conversion (`withBaseUrl`); nothing can interleave.
 */
import type TurndownService from "turndown"
import { attr, closestAncestor, type HtmlElement } from "./dom.js"
import { collapseWhitespace, escapeMarkdownText } from "./escape.js"
import { flattenLines } from "./lines.js"

let activeBase: URL | undefined

/** Runs `convert` with relative URLs resolved against `baseUrl` (left as written when absent or invalid). */
export const withBaseUrl = <A>(baseUrl: string | undefined, convert: () => A): A => {
  const previous = activeBase
  activeBase = parseBase(baseUrl)
  try {
    return convert()
  } finally {
    activeBase = previous
  }
}

const parseBase = (baseUrl: string | undefined): URL | undefined => {
  if (baseUrl === undefined || !URL.canParse(baseUrl)) return undefined
  return new URL(baseUrl)
}

const hasScheme = /^[a-z][a-z0-9+.-]*:/i
const scriptScheme = /^(?:javascript|vbscript):/i

const resolveUrl = (raw: string): string => {
  // Browsers drop tabs and newlines inside URLs; so does the URL parser.
  const url = raw.trim().replace(/[\t\n\r]/g, "")
  if (activeBase === undefined || url === "" || hasScheme.test(url)) return url
  return URL.canParse(url, activeBase.href) ? new URL(url, activeBase).href : url
}

const parensBalanced = (url: string): boolean => {
  let depth = 0
  for (const char of url) {
    if (char === "(") depth++
    else if (char === ")" && --depth < 0) return false
  }
  return depth === 0
}

/**
 * A link destination. Spaces and angle brackets are percent-encoded (what a browser sends anyway),
 * which keeps the destination one plain token; parentheses are escaped only when unbalanced,
 * so `wiki/Foo_(bar)` stays readable.
 */
const destination = (url: string): string => {
  const encoded = url.replace(/[\s<>]/g, (char) => encodeURIComponent(char))
  return parensBalanced(encoded) ? encoded : encoded.replace(/[()]/g, "\\$&")
}

const titlePart = (element: HtmlElement): string => {
  const title = collapseWhitespace(attr(element, "title"))
  return title === "" ? "" : ` "${title.replace(/["\\]/g, "\\$&")}"`
}

const singleHeading = /^(#{1,6}) ([^\n]+)$/

export const linkRule: TurndownService.Rule = {
  filter: "a",
  replacement: (content: string, node: HtmlElement): string => {
    const trimmed = content.trim()
    if (trimmed === "") return ""
    const href = attr(node, "href").trim()
    if (href === "" || href === "#" || scriptScheme.test(href)) return content
    const target = `(${destination(resolveUrl(href))}${titlePart(node)})`
    // A card link wrapping a lone heading keeps the heading, with the link inside it.
    const heading = singleHeading.exec(trimmed)
    if (heading !== null) return `\n\n${heading[1]} [${heading[2]}]${target}\n\n`
    return `[${flattenLines(trimmed, " ")}]${target}`
  }
}

const placeholderSrc = /^data:|^about:blank/i
const lazySources = ["data-src", "data-lazy-src", "data-original"]

// Lazy-loading pages put a placeholder in src and the real address in a data attribute.
const imageSource = (image: HtmlElement): string => {
  const src = attr(image, "src").trim()
  if (src !== "" && !placeholderSrc.test(src)) return src
  for (const name of lazySources) {
    const lazy = attr(image, name).trim()
    if (lazy !== "") return lazy
  }
  return src
}

export const imageRule: TurndownService.Rule = {
  filter: "img",
  replacement: (_content: string, node: HtmlElement): string => {
    const src = imageSource(node)
    if (src === "") return ""
    const alt = escapeMarkdownText(collapseWhitespace(attr(node, "alt")))
    return `![${alt}](${destination(resolveUrl(src))}${titlePart(node)})`
  }
}

/** GFM task-list markers, for checkboxes inside list items. */
export const checkboxRule: TurndownService.Rule = {
  filter: (node: HtmlElement): boolean =>
    node.nodeName === "INPUT" && attr(node, "type").toLowerCase() === "checkbox" && closestAncestor(node, ["LI"]) !== undefined,
  replacement: (_content: string, node: HtmlElement): string => (node.getAttribute("checked") === null ? "[ ] " : "[x] ")
}
