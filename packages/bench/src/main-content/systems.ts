/**
 * The systems compared on main-content quality, each a function from a page to plain text:
 * Gleaner's `onlyMainContent` markdown (stripped to text), @mozilla/readability over linkedom,
 * and the whole page's text as the floor.
 */
import { Readability } from "@mozilla/readability"
import { parseHTML } from "linkedom"
import { domText, markdownToText, type TextNodeLike } from "./text.js"

export interface PageInput {
  readonly html: string
  readonly url: string
}

export interface System {
  readonly name: string
  readonly run: (page: PageInput) => string
}

/** Gleaner, given the function that turns a page into its main-content markdown. */
export const gleanerSystem = (toMarkdown: (page: PageInput) => string): System => ({
  name: "gleaner",
  // The benchmarks' truths leave the page title out; Gleaner puts it on top, so it is dropped here.
  run: (page) => markdownToText(toMarkdown(page), { dropLeadingH1: true })
})

const withBase = (html: string, url: string): string => {
  const base = `<base href="${url.replace(/"/g, "&quot;")}">`
  const head = /<head(?:\s[^>]*)?>/i.exec(html)
  if (head === null) return `${base}${html}`
  const end = head.index + head[0].length
  return html.slice(0, end) + base + html.slice(end)
}

interface ReadabilityDocument {
  readonly nodeType: number
}

const parseDocument = (html: string): ReadabilityDocument & TextNodeLike => {
  const { document }: { document: ReadabilityDocument & TextNodeLike } = parseHTML(html)
  return document
}

/** @mozilla/readability 0.6 with default options over linkedom; its `textContent` is the text. */
export const readabilitySystem: System = {
  name: "readability",
  run: (page) => {
    const document = parseDocument(withBase(page.html, page.url))
    const article = new Readability(document).parse()
    return article?.textContent ?? ""
  }
}

interface BodyDocument {
  readonly body: TextNodeLike | null
}

/** Everything in `<body>` but scripts and styles. */
export const wholePageSystem: System = {
  name: "whole-page",
  run: (page) => {
    const { document }: { document: BodyDocument } = parseHTML(page.html)
    return document.body === null ? "" : domText(document.body)
  }
}
