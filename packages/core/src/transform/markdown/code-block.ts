/**
 * Fenced code blocks from `<pre>`, with or without `<code>` inside.
 *
 * The text is taken verbatim from the DOM (never escaped), `<br>` inside highlighted code counts as
 * a newline, and the language comes from the class names that highlighters and site generators
 * use on the `<code>`, the `<pre>` or up to two wrapper elements.
 */
import type TurndownService from "turndown"
import { attr, childElements, ELEMENT_NODE, isElement, TEXT_NODE, type HtmlElement, type HtmlNode } from "./dom.js"

const languagePatterns: ReadonlyArray<RegExp> = [
  /(?:^|\s)lang(?:uage)?-([\w+#.-]+)/i, // Prism, highlight.js, Jekyll, Docusaurus, prettify
  /(?:^|\s)highlight-(?:source|text)-([\w+#]+)/i, // GitHub: highlight-source-js, highlight-text-html-basic
  /(?:^|\s)highlight-([\w+#-]+)/i, // Sphinx: highlight-python
  /(?:^|\s)sourceCode\s+([\w+#-]+)/, // Pandoc
  /(?:^|\s)brush:\s*([\w+#-]+)/i // SyntaxHighlighter
]

// Class names that name "no language".
const notLanguages = new Set(["none", "nohighlight", "plain", "plaintext", "text", "default", "txt"])

const languageOf = (element: HtmlElement): string | undefined => {
  const data = attr(element, "data-lang") || attr(element, "data-language")
  if (/^[\w+#.-]+$/.test(data)) return data
  const className = attr(element, "class")
  if (className === "") return undefined
  for (const pattern of languagePatterns) {
    const match = pattern.exec(className)
    if (match?.[1] !== undefined) return match[1]
  }
  return undefined
}

const codeLanguage = (pre: HtmlElement): string => {
  const candidates: Array<HtmlElement> = [...childElements(pre, ["CODE"]), pre]
  for (let up = pre.parentNode, depth = 0; isElement(up) && depth < 2; up = up.parentNode, depth++) candidates.push(up)
  for (const candidate of candidates) {
    const language = languageOf(candidate)
    if (language !== undefined) return notLanguages.has(language.toLowerCase()) ? "" : language
  }
  return ""
}

const textWithBreaks = (node: HtmlNode): string => {
  let text = ""
  const children = node.childNodes
  for (let i = 0; i < children.length; i++) {
    const child = children[i]
    if (child === undefined) continue
    if (child.nodeType === TEXT_NODE) text += child.textContent ?? ""
    else if (child.nodeName === "BR") text += "\n"
    else if (child.nodeType === ELEMENT_NODE) text += textWithBreaks(child)
  }
  return text
}

const codeText = (pre: HtmlElement): string => {
  let text = pre.getElementsByTagName("br").length > 0 ? textWithBreaks(pre) : pre.textContent ?? ""
  // An HTML parser drops the newline right after `<pre>`; linkedom keeps it.
  const first = pre.firstChild
  if (first !== null && first.nodeType === TEXT_NODE && text.startsWith("\n")) text = text.slice(1)
  return text.endsWith("\n") ? text.slice(0, -1) : text
}

const longestBacktickRun = (text: string): number =>
  (text.match(/`{3,}/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0)

export const codeBlockRule: TurndownService.Rule = {
  filter: "pre",
  replacement: (_content: string, node: HtmlElement): string => {
    const code = codeText(node)
    if (code.trim() === "") return "\n\n"
    const fence = "`".repeat(Math.max(3, longestBacktickRun(code) + 1))
    return `\n\n${fence}${codeLanguage(node)}\n${code}\n${fence}\n\n`
  }
}
