/**
 * The one place HTML becomes a DOM. Gleaner parses pages with linkedom (fast, no browser
 * globals) and describes the part of the DOM its transforms use with the small structural types
 * below, so the rest of `transform/` is typed without the DOM lib and without `any`.
 */
import { parseHTML } from "linkedom"

/** Node types the transforms look at (the DOM's `nodeType` numbers). */
export const ELEMENT_NODE = 1
export const TEXT_NODE = 3
export const COMMENT_NODE = 8

/** A DOM node as linkedom gives it (element, text, comment or document). */
export interface HtmlNode {
  readonly nodeType: number
  readonly nodeName: string
  readonly parentNode: HtmlNode | null
  readonly parentElement: HtmlElement | null
  readonly childNodes: ReadonlyArray<HtmlNode>
  readonly firstChild: HtmlNode | null
  readonly lastChild: HtmlNode | null
  readonly nextSibling: HtmlNode | null
  readonly previousSibling: HtmlNode | null
  readonly ownerDocument: HtmlDocument | null
  readonly isConnected: boolean
  textContent: string | null
  remove(): void
  appendChild<T extends HtmlNode>(child: T): T
  insertBefore<T extends HtmlNode>(child: T, reference: HtmlNode | null): T
  removeChild<T extends HtmlNode>(child: T): T
  contains(other: HtmlNode | null): boolean
  cloneNode(deep?: boolean): this
}

/**
 * The element methods the transforms use; selectors are CSS selectors (css-select dialect).
 * Read `class` with {@link classOf}: linkedom builds a token list on every `className` read,
 * and `getAttribute("class")` goes through `className`.
 */
export interface HtmlElement extends HtmlNode {
  readonly tagName: string
  readonly localName: string
  readonly children: ReadonlyArray<HtmlElement>
  readonly firstElementChild: HtmlElement | null
  readonly nextElementSibling: HtmlElement | null
  readonly previousElementSibling: HtmlElement | null
  innerHTML: string
  readonly outerHTML: string
  getAttribute(name: string): string | null
  getAttributeNode(name: string): { readonly value: string } | null
  setAttribute(name: string, value: string): void
  removeAttribute(name: string): void
  hasAttribute(name: string): boolean
  getAttributeNames(): ReadonlyArray<string>
  querySelector(selectors: string): HtmlElement | null
  querySelectorAll(selectors: string): ReadonlyArray<HtmlElement>
  getElementsByTagName(name: string): ReadonlyArray<HtmlElement>
  matches(selectors: string): boolean
  closest(selectors: string): HtmlElement | null
  replaceWith(...nodes: ReadonlyArray<HtmlNode | string>): void
  append(...nodes: ReadonlyArray<HtmlNode | string>): void
}

/** A parsed page. `body` may be absent for documents that have none. */
export interface HtmlDocument extends HtmlNode {
  readonly documentElement: HtmlElement | null
  readonly head: HtmlElement | null
  readonly body: HtmlElement | null
  readonly title: string
  createElement(tagName: string): HtmlElement
  createTextNode(data: string): HtmlNode
  querySelector(selectors: string): HtmlElement | null
  querySelectorAll(selectors: string): ReadonlyArray<HtmlElement>
  getElementsByTagName(name: string): ReadonlyArray<HtmlElement>
}

const documentShell = /<html[\s>]|<body[\s>]/i

const isHtmlDocument = (value: unknown): value is HtmlDocument =>
  typeof value === "object" && value !== null && "nodeType" in value && value.nodeType === 9 &&
  "querySelectorAll" in value && typeof value.querySelectorAll === "function"

/**
 * Parses an HTML page (or a fragment) into a document. linkedom builds the tree as written and
 * does not add the `html`/`body` shell the HTML parsing algorithm would, so fragments are
 * wrapped in one first; otherwise their first element would become the document element.
 */
export const parseHtml = (html: string): HtmlDocument => {
  const source = documentShell.test(html.slice(0, 4096)) || documentShell.test(html)
    ? html
    : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`
  const { document }: { document: unknown } = parseHTML(source)
  if (!isHtmlDocument(document)) throw new Error("linkedom returned no document")
  return document
}

/** The element to treat as the page body: `<body>`, else the document element. */
export const bodyOf = (document: HtmlDocument): HtmlElement | null =>
  document.querySelector("body") ?? document.documentElement

/**
 * Where head-only elements (`<base>`, `<link>`, `<title>`) are looked for: the `<head>` when the
 * page has one (a query over a large body costs milliseconds), else the whole document.
 */
export const headOf = (document: HtmlDocument): HtmlDocument | HtmlElement => document.querySelector("head") ?? document

/** True when the node is an element (narrows the type). */
export const isElement = (node: HtmlNode): node is HtmlElement => node.nodeType === ELEMENT_NODE

/** The `class` attribute's value ("" when absent), read without building a token list. */
export const classOf = (element: HtmlElement): string => element.getAttributeNode("class")?.value ?? ""

/** Collapses runs of whitespace to one space and trims. */
export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, " ").trim()
