/**
 * Inline formatting: emphasis, strong, strikethrough and inline code.
 *
 * Three HTML habits would otherwise produce markers that CommonMark does not read as formatting:
 * - nested duplicates (`<b><b>x</b></b>` → `****x****`): an element inside the same kind of
 *   formatting adds no markers;
 * - adjacent siblings (`<b>a</b><b>b</b>` → `**a****b**`): they share one pair of markers;
 * - a marker between a letter and punctuation (`x<b><code>y</code></b>`): `**` there cannot open
 *   or close, so a space is put between the letter and the marker.
 */
import type TurndownService from "turndown"
import { closestAncestor, ELEMENT_NODE, TEXT_NODE, type HtmlElement, type HtmlNode } from "./dom.js"
import { flattenLines } from "./lines.js"

// Inline formatting never continues across these, so the ancestor walk stops there.
const blockBoundaries = ["P", "DIV", "LI", "TD", "TH", "BLOCKQUOTE", "BODY", "SECTION", "ARTICLE", "H1", "H2", "H3", "H4", "H5", "H6"]

const wordChar = /[\p{L}\p{N}]/u
const punctuation = /[\p{P}\p{S}]/u

const hasText = (node: HtmlNode): boolean => (node.textContent ?? "").trim() !== ""

// Elements whose markdown starts and ends with punctuation of its own (`[`, `!`, `` ` ``, `*`).
const marked = ["A", "IMG", "CODE", "KBD", "SAMP", "TT", "VAR", "B", "STRONG", "EM", "I", "DEL", "S", "STRIKE"]

/** The character next to a marker on the neighbour's side, as far as the DOM tells. */
const edgeChar = (node: HtmlNode | null, edge: "first" | "last"): string => {
  if (node === null || marked.includes(node.nodeName)) return ""
  if (node.nodeType !== TEXT_NODE && node.nodeType !== ELEMENT_NODE) return ""
  const text = node.textContent ?? ""
  return edge === "first" ? text.charAt(0) : text.charAt(text.length - 1)
}

const asteriskMarked = ["B", "STRONG", "EM", "I"]

// `***a***` followed by `*.*` fuses into one delimiter run that no longer closes; a space keeps
// two asterisk-marked neighbours apart (the left one adds it, so there is only one).
const touchesAsterisks = (marker: string, after: HtmlNode | null): boolean =>
  marker.startsWith("*") && after !== null && asteriskMarked.includes(after.nodeName) && hasText(after)

// Wrappers that print nothing of their own, so formatting on either side of them can touch.
const transparent = ["SPAN", "FONT", "U", "MARK", "SMALL", "BIG", "ABBR", "CITE", "TIME", "DATA", "LABEL", "INS", "BDI"]

type Side = "previous" | "next"

const sibling = (node: HtmlNode, side: Side) => (side === "next" ? node.nextSibling : node.previousSibling)

/**
 * The node whose output touches `node`'s output on `side`: the sibling, climbing out of and
 * descending into transparent wrappers. Climbing and descending mirror each other, so if A finds
 * B as its next neighbour, B finds A as its previous one.
 */
const neighbour = (node: HtmlNode, side: Side, stopAt: ReadonlyArray<string>): HtmlNode | null => {
  let current = node
  while (sibling(current, side) === null) {
    const parent = current.parentNode
    if (parent === null || !transparent.includes(parent.nodeName) || stopAt.includes(parent.nodeName)) return null
    current = parent
  }
  let candidate = sibling(current, side)
  while (candidate !== null && transparent.includes(candidate.nodeName)) {
    candidate = side === "next" ? candidate.firstChild : lastChildOf(candidate)
  }
  return candidate
}

const lastChildOf = (node: HtmlNode): HtmlNode | null => node.childNodes[node.childNodes.length - 1] ?? null

const wrapper = (tags: Array<string>, marker: string): TurndownService.Rule => {
  const upper = tags.map((tag) => tag.toUpperCase())
  const sameKind = (node: HtmlNode | null): node is HtmlElement => node !== null && upper.includes(node.nodeName)
  const sharesMarkers = (left: HtmlNode | null, right: HtmlNode | null) =>
    sameKind(left) && sameKind(right) && hasText(left) && hasText(right)
  return {
    filter: tags,
    replacement: (content: string, node: HtmlElement): string => {
      if (closestAncestor(node, upper, blockBoundaries) !== undefined) return content
      const before = neighbour(node, "previous", upper)
      const after = neighbour(node, "next", upper)
      const open = sharesMarkers(before, node) ? "" : marker
      const close = sharesMarkers(node, after) ? "" : marker
      // Only whitespace or line breaks inside: markers around them would print literally.
      if (open !== "" && close !== "" && flattenLines(content, "") === "") return content
      const spaceBefore = open !== "" && punctuation.test(content.charAt(0)) && wordChar.test(edgeChar(before, "last"))
      const spaceAfter = close !== "" && (touchesAsterisks(marker, after) ||
        (punctuation.test(content.charAt(content.length - 1)) && wordChar.test(edgeChar(after, "first"))))
      return `${spaceBefore ? " " : ""}${open}${content}${close}${spaceAfter ? " " : ""}`
    }
  }
}

export const strongRule = wrapper(["strong", "b"], "**")
export const emphasisRule = wrapper(["em", "i"], "*")
export const strikethroughRule = wrapper(["del", "s", "strike"], "~~")

const codeTags = ["CODE", "KBD", "SAMP", "TT", "VAR"]
const isCodeElement = (node: HtmlNode | null): node is HtmlElement => node !== null && codeTags.includes(node.nodeName)

const codeSpan = (text: string): string => {
  let delimiter = "`"
  const runs: ReadonlyArray<string> = text.match(/`+/g) ?? []
  while (runs.includes(delimiter)) delimiter += "`"
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : ""
  return `${delimiter}${pad}${text}${pad}${delimiter}`
}

/**
 * Inline code from the element's text, not from converted children: a link or a highlight span
 * inside `<code>` must not show up as literal markdown inside the code span. Adjacent code
 * elements (`<code>a</code><code>b</code>`) make one span — two spans touching would read as one
 * span with a stray delimiter inside. A `<pre>` inside (invalid, but seen) stays a code block.
 */
export const inlineCodeRule: TurndownService.Rule = {
  filter: ["code", "kbd", "samp", "tt", "var"],
  replacement: (content: string, node: HtmlElement): string => {
    if (closestAncestor(node, codeTags) !== undefined || node.getElementsByTagName("pre").length > 0) return content
    if (isCodeElement(node.previousSibling) && hasText(node.previousSibling)) return ""
    let text = node.textContent ?? ""
    for (let next = node.nextSibling; isCodeElement(next) && hasText(next); next = next.nextSibling) text += next.textContent ?? ""
    text = text.replace(/\s+/g, " ").trim()
    return text === "" ? "" : codeSpan(text)
  }
}
