/**
 * Block rules: ATX headings, list items with correct nesting indentation, line breaks, and the
 * HTML5 blocks turndown does not know (definition lists, details/summary).
 */
import type TurndownService from "turndown"
import { attr, isElement, TEXT_NODE, type HtmlElement, type HtmlNode } from "./dom.js"
import { bold, flattenLines, HARD_BREAK } from "./lines.js"

const isSpaceOrTab = (code: number): boolean => code === 32 || code === 9

// A void or dropped element at the start of a block leaves the text's leading space behind.
// (Index scan, not an end-anchored regex: blocks nest, so this runs over the same text often.)
const trimBlock = (content: string): string => {
  let start = 0
  let end = content.length
  while (start < end && isSpaceOrTab(content.charCodeAt(start))) start++
  while (end > start && isSpaceOrTab(content.charCodeAt(end - 1))) end--
  return start === 0 && end === content.length ? content : content.slice(start, end)
}

/** Paragraphs and unknown block elements: their content between blank lines. */
export const blockReplacement = (content: string, node: HtmlElement): string =>
  node.isBlock === true ? `\n\n${trimBlock(content)}\n\n` : content

export const paragraphRule: TurndownService.Rule = { filter: "p", replacement: blockReplacement }

export const headingRule: TurndownService.Rule = {
  filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
  replacement: (content: string, node: HtmlElement): string => {
    const text = flattenLines(content, " ")
    if (text === "") return "\n\n"
    // A trailing run of `#` would be read as the optional closing sequence and vanish.
    const safe = text.replace(/(^|\s)(#+)$/, "$1\\$2")
    return `\n\n${"#".repeat(Number(node.nodeName.charAt(1)))} ${safe}\n\n`
  }
}

export const lineBreakRule: TurndownService.Rule = { filter: "br", replacement: () => HARD_BREAK }

// Position of each item among its sibling items; items are converted in order, so each lookup
// finds its predecessor cached and long lists stay linear.
const itemIndex = new WeakMap<object, number>()

const indexAmongItems = (item: HtmlElement): number => {
  let index = 0
  for (let previous = item.previousElementSibling; previous !== null; previous = previous.previousElementSibling) {
    if (previous.nodeName !== "LI") continue
    const known = itemIndex.get(previous)
    if (known !== undefined) {
      index += known + 1
      break
    }
    index++
  }
  itemIndex.set(item, index)
  return index
}

// Two lists in a row would read as one list; CommonMark starts a new list when the bullet or the
// number delimiter changes, so a list right after a list of the same kind uses the other marker.
const alternate = new WeakMap<object, boolean>()

// Blank text and empty elements (`<p> </p>`, `<ul></ul>`) print nothing, so they do not separate
// two lists. Only childless elements are looked at, which keeps the check cheap.
const printsNothing = (node: HtmlNode): boolean =>
  (!isElement(node) || (node.children.length === 0 && node.nodeName !== "IMG")) && (node.textContent ?? "").trim() === ""

const previousPrinted = (node: HtmlNode): HtmlNode | null => {
  let previous = node.previousSibling
  while (previous !== null && printsNothing(previous)) previous = previous.previousSibling
  return previous
}

const usesAlternateMarker = (list: HtmlElement): boolean => {
  const known = alternate.get(list)
  if (known !== undefined) return known
  const previous = previousPrinted(list)
  const result = isElement(previous) && previous.nodeName === list.nodeName && !usesAlternateMarker(previous)
  alternate.set(list, result)
  return result
}

const itemMarker = (item: HtmlElement): string => {
  const list = item.parentNode
  if (!isElement(list)) return "- "
  const other = usesAlternateMarker(list)
  if (list.nodeName !== "OL") return other ? "* " : "- "
  const start = Number.parseInt(attr(list, "start"), 10)
  return `${(Number.isFinite(start) ? start : 1) + indexAmongItems(item)}${other ? ")" : "."} `
}

const taskMarker = /^\[([ x])\]\s+/
const trimNewlines = (text: string): string => text.replace(/^\n+/, "").replace(/\n+$/, "")

/**
 * A list item: continuation lines are indented by the marker's width, which is what CommonMark
 * needs to keep nested lists, paragraphs and code blocks inside the item. An item that ends with a
 * block keeps a blank line after it (a loose item).
 */
export const listItemRule: TurndownService.Rule = {
  filter: "li",
  replacement: (content: string, node: HtmlElement): string => {
    const marker = itemMarker(node)
    const loose = content.endsWith("\n")
    // A checkbox's own space plus the text's leading space would read as "[x]  done".
    const text = trimNewlines(content).replace(/^\s+/, "").replace(taskMarker, "[$1] ")
    const body = (text + (loose ? "\n" : "")).replace(/\n/g, `\n${" ".repeat(marker.length)}`)
    // Text loose in a list (invalid, but seen) must not run into the marker.
    const previous = node.previousSibling
    const newLine = previous !== null && previous.nodeType === TEXT_NODE && (previous.textContent ?? "").trim() !== "" ? "\n" : ""
    return `${newLine}${marker}${body}${node.nextSibling !== null ? "\n" : ""}`
  }
}

/** A definition term or a `<summary>`: a bold line of its own. */
export const termRule: TurndownService.Rule = {
  filter: ["dt", "summary"],
  replacement: (content: string): string => `\n\n${bold(flattenLines(content, " "))}\n\n`
}

/** Blocks turndown treats as inline (it predates HTML5): paragraphs around their content. */
export const html5BlockRule: TurndownService.Rule = {
  filter: ["details", "dialog", "search", "hgroup"],
  replacement: (content: string): string => `\n\n${trimBlock(content)}\n\n`
}
