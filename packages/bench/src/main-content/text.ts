/**
 * Plain text for scoring. Markdown is parsed with markdown-it and only its text is kept (no link
 * targets, image URLs or alt text, no markup); raw HTML blocks that a converter left in the
 * markdown contribute their text. DOM subtrees are read with a line break at every block.
 */
import MarkdownIt from "markdown-it"

const markdown = new MarkdownIt({ html: true, linkify: false })

interface MdToken {
  readonly type: string
  readonly content: string
  readonly children: ReadonlyArray<MdToken> | null
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " " }

const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10))
    return entities[name.toLowerCase()] ?? whole
  })

const htmlText = (html: string): string =>
  decodeEntities(html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " "))

const inlineText = (children: ReadonlyArray<MdToken>): string =>
  children.map((t) => {
    switch (t.type) {
      case "text":
      case "code_inline":
        return t.content
      case "softbreak":
      case "hardbreak":
        return "\n"
      case "html_inline":
        return t.content.startsWith("<") ? " " : t.content
      default:
        return ""
    }
  }).join("")

/** Index after a leading `h1` block (0 when the document does not start with one). */
const afterLeadingH1 = (tokens: ReadonlyArray<MdToken & { readonly tag: string }>): number => {
  const first = tokens[0]
  if (first === undefined || first.type !== "heading_open" || first.tag !== "h1") return 0
  const close = tokens.findIndex((t) => t.type === "heading_close")
  return close === -1 ? 0 : close + 1
}

/**
 * The text of a markdown document, one block per paragraph. `dropLeadingH1` leaves out a
 * top-level heading that opens the document (the page title, which the truths exclude).
 */
export const markdownToText = (source: string, options: { readonly dropLeadingH1?: boolean } = {}): string => {
  const tokens: ReadonlyArray<MdToken & { readonly tag: string }> = markdown.parse(source, {})
  const parts: Array<string> = []
  for (const token of tokens.slice(options.dropLeadingH1 === true ? afterLeadingH1(tokens) : 0)) {
    if (token.type === "inline") parts.push(inlineText(token.children ?? []))
    else if (token.type === "fence" || token.type === "code_block") parts.push(token.content)
    else if (token.type === "html_block") parts.push(htmlText(token.content))
    else if (token.type.endsWith("_close")) parts.push("\n")
  }
  return parts.join("").replace(/[ \t]+/g, " ").replace(/\n\s*\n+/g, "\n\n").trim()
}

/** Structural view of a DOM node, enough to read text from linkedom or any DOM. */
export interface TextNodeLike {
  readonly nodeType: number
  readonly nodeName: string
  readonly textContent: string | null
  readonly childNodes: ArrayLike<TextNodeLike>
}

const blockTags = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "BR", "DD", "DETAILS", "DIV", "DL", "DT", "FIELDSET", "FIGCAPTION",
  "FIGURE", "FOOTER", "FORM", "H1", "H2", "H3", "H4", "H5", "H6", "HEADER", "HR", "LI", "MAIN", "NAV", "OL", "P",
  "PRE", "SECTION", "SUMMARY", "TABLE", "TD", "TH", "TR", "UL", "CAPTION", "TBODY", "THEAD", "TFOOT"
])
const skippedTags = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "TITLE", "SVG", "svg"])

const collect = (node: TextNodeLike, parts: Array<string>): void => {
  if (node.nodeType === 3) {
    parts.push(node.textContent ?? "")
    return
  }
  if (node.nodeType !== 1 && node.nodeType !== 9) return
  const name = node.nodeName.toUpperCase()
  if (skippedTags.has(name)) return
  const block = blockTags.has(name)
  if (block) parts.push("\n")
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i]
    if (child !== undefined) collect(child, parts)
  }
  if (block) parts.push("\n")
}

/** The visible text of a subtree with a line break around every block element. */
export const domText = (node: TextNodeLike): string => {
  const parts: Array<string> = []
  collect(node, parts)
  return parts.join("").replace(/[ \t\u00a0]+/g, " ").replace(/\s*\n\s*/g, "\n").trim()
}
