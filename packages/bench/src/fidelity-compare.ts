/**
 * Style-agnostic comparison of two markdown texts: both are rendered by one CommonMark + GFM
 * renderer (markdown-it, tables and strikethrough on, raw HTML passed through) and the HTML is
 * normalised. Two outputs that differ only in marker style (setext vs ATX, `*` vs `-`, `_` vs `*`,
 * indented vs fenced code, inline vs reference links, escaping choices) compare equal.
 *
 * Normalisation, all of it:
 * - HTML comments are removed (the Go golden files keep their case separators as raw HTML
 *   comments, an upstream test setting; Gleaner never emits comments);
 * - outside `<pre>`, each run of ASCII whitespace becomes one space, and whitespace next to a
 *   block-level tag (p, li, h1-h6, table parts, br, hr …) is removed — markdown-it puts newlines
 *   there and their number carries no meaning; whitespace between inline elements is kept;
 * - `<br />` / `<hr />` style self-closing slashes are dropped (only raw HTML passed through from
 *   an expected file can hold them).
 * Nothing else: `&nbsp;` stays a no-break space, distinct from a space; attribute order needs no
 * normalising because markdown-it always writes attributes in the same order; text inside `<pre>`
 * is compared byte for byte.
 */
import MarkdownIt from "markdown-it"

const renderer = new MarkdownIt("default", { html: true })

const blockTags = "p|div|ul|ol|li|h[1-6]|blockquote|pre|table|thead|tbody|tfoot|tr|th|td|hr|br|dl|dt|dd"
const aroundBlockTag = new RegExp(`\\s*(</?(?:${blockTags})(?:\\s[^>]*)?/?>)\\s*`, "g")

const normaliseOutsidePre = (html: string): string =>
  html.replace(/[ \t\r\n]+/g, " ").replace(aroundBlockTag, "$1").replace(/\s*\/>/g, ">")

/** The normalised HTML rendering of `markdown`. */
export const renderNormalised = (markdown: string): string => {
  const html = renderer.render(markdown).replace(/<!--[\s\S]*?-->/g, "")
  // Odd indexes are <pre> elements, kept verbatim.
  return html.split(/(<pre[\s>][\s\S]*?<\/pre>)/).map((part, i) => (i % 2 === 1 ? part : normaliseOutsidePre(part))).join("").trim()
}

/** The top-level blocks of normalised HTML, for a finer score than all-or-nothing. */
export const topLevelBlocks = (html: string): Array<string> => {
  const blocks: Array<string> = []
  const tag = /<(\/?)([a-z][a-z0-9]*)[^>]*?(\/?)>/gi
  let depth = 0
  let start = 0
  for (let match = tag.exec(html); match !== null; match = tag.exec(html)) {
    const [, closing, name = "", selfClosing] = match
    const isVoid = selfClosing === "/" || /^(?:hr|br|img|input)$/i.test(name)
    if (closing === "/") depth--
    else if (!isVoid) depth++
    if (depth === 0) {
      const block = html.slice(start, tag.lastIndex).trim()
      if (block !== "") blocks.push(block)
      start = tag.lastIndex
    }
  }
  const rest = html.slice(start).trim()
  if (rest !== "") blocks.push(rest)
  return blocks
}

/** Length of the longest common subsequence of two block lists: blocks matched in order. */
export const matchedBlocks = (expected: ReadonlyArray<string>, actual: ReadonlyArray<string>): number => {
  let previous = new Array<number>(actual.length + 1).fill(0)
  for (const block of expected) {
    const row = [0]
    for (let j = 0; j < actual.length; j++) {
      row.push(block === actual[j] ? (previous[j] ?? 0) + 1 : Math.max(previous[j + 1] ?? 0, row[j] ?? 0))
    }
    previous = row
  }
  return previous[actual.length] ?? 0
}

const countedTags: ReadonlyArray<readonly [string, RegExp]> = [
  ["table", /<table/g],
  ["table header", /<th[\s>]/g],
  ["link", /<a\s/g],
  ["image", /<img\s/g],
  ["list nesting", /<li[\s>]/g],
  ["code block", /<pre[\s>]/g],
  ["inline code", /<code[\s>]/g],
  ["emphasis", /<(?:em|strong|s)>/g],
  ["heading", /<h[1-6][\s>]/g],
  ["blockquote", /<blockquote/g],
  ["line break", /<br>/g],
  ["paragraphs", /<p>/g]
]

/**
 * The kinds of difference between two normalised renderings, from element counts; when every
 * count agrees the difference is in the text (escaping, whitespace, ordering).
 */
export const differenceKinds = (expected: string, actual: string): Array<string> => {
  const kinds = countedTags.flatMap(([kind, pattern]) =>
    (expected.match(pattern)?.length ?? 0) === (actual.match(pattern)?.length ?? 0) ? [] : [kind])
  return kinds.length > 0 ? kinds : ["text or escaping"]
}
