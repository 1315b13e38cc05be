/**
 * Line-level helpers shared by the rules: the hard-break marker and the flattening of block
 * markdown into one line, for places that only hold inline content (headings, link texts, table
 * cells).
 */

/**
 * A `<br>`: a backslash hard break. Two trailing spaces would do the same, but every line of the
 * output has its trailing spaces trimmed, and a visible marker survives copy and paste.
 */
export const HARD_BREAK = "\\\n"

const trailingBackslashes = /\\+$/
const quoteMarker = /^(?:>\s?)+/
const headingLine = /^#{1,6}\s+(.*)$/
// Fences and rules carry no text; as our own output they are never escaped text.
const structuralLine = /^(?:`{3,}|~{3,}|---$)/

/** `line` without a final hard-break backslash (an odd run; an even run is escaped text). */
export const stripHardBreak = (line: string): string => {
  const run = trailingBackslashes.exec(line)
  return run !== null && run[0].length % 2 === 1 ? line.slice(0, -1) : line
}

const inlineLine = (raw: string): string => {
  const line = stripHardBreak(raw.trim()).trim().replace(quoteMarker, "")
  const heading = headingLine.exec(line)?.[1]
  return heading === undefined ? line : bold(heading)
}

/** `text` in strong markers, unless it is empty or bold already. */
export const bold = (text: string): string => (text === "" || (text.startsWith("**") && text.endsWith("**")) ? text : `**${text}**`)

/**
 * One line from block markdown: each line loses its hard break and quote markers, headings become
 * bold, code fences and rules are dropped, and the non-empty lines are joined with `joiner`. List
 * markers are kept because they still say something when read inline.
 */
export const flattenLines = (markdown: string, joiner: string): string => {
  if (!markdown.includes("\n")) return markdown.trim()
  const parts: Array<string> = []
  for (const raw of markdown.split("\n")) {
    const line = inlineLine(raw)
    if (line !== "" && !structuralLine.test(line)) parts.push(line)
  }
  return parts.join(joiner)
}
