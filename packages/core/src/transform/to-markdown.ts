/**
 * HTML → GitHub-flavoured markdown, the text Firecrawl's `markdown` format returns.
 *
 * Turndown walks the DOM; the rules in `./markdown/` decide the output: ATX headings, `-` bullets,
 * fenced code with its language, GFM tables, strikethrough and task lists, links resolved against
 * the page address, no raw HTML. The scrape pipeline parses a page once with linkedom and hands
 * its cleaned content root here, so a node is converted as it is (turndown works on a clone); a
 * string is parsed with linkedom first. Pure: no I/O, no state kept between calls.
 */
import { parseHTML } from "linkedom"
import TurndownService from "turndown"
import { codeBlockRule } from "./markdown/code-block.js"
import { childElements, DOCUMENT_TYPE_NODE, isDocument, type HtmlDocument, type HtmlNode } from "./markdown/dom.js"
import { escapeMarkdownText } from "./markdown/escape.js"
import { emphasisRule, inlineCodeRule, strikethroughRule, strongRule } from "./markdown/inline-rules.js"
import { blockReplacement, headingRule, html5BlockRule, lineBreakRule, listItemRule, paragraphRule, termRule } from "./markdown/block-rules.js"
import { checkboxRule, imageRule, linkRule, withBaseUrl } from "./markdown/links.js"
import { tidyMarkdown } from "./markdown/post-process.js"
import { tableCaptionRule, tableCellRule, tableRule } from "./markdown/table.js"

/** What `htmlToMarkdown` accepts besides a string: any DOM node (linkedom's, a browser's). */
export type MarkdownSourceNode = HtmlNode

export interface HtmlToMarkdownOptions {
  /** Address the page was fetched from; relative links and image sources are resolved against it. Default: left as written. */
  readonly baseUrl?: string
}

// Elements whose text is not page content: code, styling, metadata, form widgets, vector art.
const dropped: Array<TurndownService.TagName> = [
  "script", "style", "noscript", "template", "head", "title", "meta", "link", "svg", "select", "canvas", "object"
]

const rules: ReadonlyArray<readonly [string, TurndownService.Rule]> = [
  ["html5Block", html5BlockRule],
  ["term", termRule],
  ["tableCaption", tableCaptionRule],
  ["table", tableRule],
  ["tableCell", tableCellRule],
  ["strikethrough", strikethroughRule],
  ["checkbox", checkboxRule],
  ["codeBlock", codeBlockRule],
  ["inlineCode", inlineCodeRule],
  ["heading", headingRule],
  ["lineBreak", lineBreakRule],
  ["emphasis", emphasisRule],
  ["strong", strongRule],
  ["image", imageRule],
  ["paragraph", paragraphRule],
  ["listItem", listItemRule],
  ["link", linkRule]
]

const createService = (): TurndownService => {
  const service = new TurndownService({
    headingStyle: "atx",
    hr: "---",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
    fence: "```",
    emDelimiter: "*",
    strongDelimiter: "**",
    linkStyle: "inlined",
    defaultReplacement: blockReplacement
  })
  service.escape = escapeMarkdownText
  service.remove(dropped)
  // addRule puts a rule in front of the others, so the last one added is tried first.
  for (const [name, rule] of rules) service.addRule(name, rule)
  return service
}

const service = createService()

const fullDocument = /^(?:\s|<!--[\s\S]*?-->)*<(?:!doctype|html|head|body)[\s>]/i

// A string is parsed into a tree of our own, which can be prepared in place.
const parseRoot = (html: string): HtmlNode | undefined => {
  const page = fullDocument.test(html) ? html : `<!DOCTYPE html><html><body>${html}</body></html>`
  const document: HtmlDocument = parseHTML(page).document
  return contentRoot(document)
}

// A document converts through its body: turndown cannot detach a doctype, and <head> is not
// content. linkedom makes the first element the document element, which is not always <html>
// (a stray <script> before it); a document built from a fragment has no <html> at all.
const contentRoot = (node: HtmlNode): HtmlNode | undefined => {
  if (!isDocument(node)) return node
  const html = node.documentElement?.nodeName === "HTML" ? node.documentElement : node.getElementsByTagName("html")[0]
  if (html !== undefined) return childElements(html, ["BODY"])[0] ?? html
  const hasDoctype = Array.from(node.childNodes).some((child) => child.nodeType === DOCUMENT_TYPE_NODE)
  return hasDoctype ? node.documentElement ?? undefined : node
}

/**
 * Turndown converts `input.cloneNode(true)`. The caller's tree is copied once here (never
 * changed) and normalised, and turndown is handed a stand-in whose clone is that copy, so a node
 * is not copied twice; a tree parsed from a string is ours already and is not copied at all.
 */
const turndownInput = (tree: HtmlNode): { readonly nodeType: number; readonly cloneNode: () => HtmlNode } => {
  tree.normalize?.()
  return { nodeType: tree.nodeType, cloneNode: () => tree }
}

/** Markdown of an HTML string or of a DOM node (a linkedom Document/Element), GFM flavoured. */
export const htmlToMarkdown = (input: string | MarkdownSourceNode, options?: HtmlToMarkdownOptions): string => {
  const root = typeof input === "string" ? parseRoot(input) : contentRoot(input)?.cloneNode(true)
  if (root === undefined) return ""
  return tidyMarkdown(withBaseUrl(options?.baseUrl, () => service.turndown(turndownInput(root))))
}
