/**
 * Escaping of text nodes so that page text never turns into markdown syntax.
 *
 * Turndown's built-in escaper runs thirteen regular expressions over every text node and escapes
 * every `_`, which litters identifiers like `snake_case` with backslashes. This one makes a single
 * pass, leaves intra-word underscores alone (CommonMark cannot open or close `_` emphasis between
 * two alphanumerics), and also covers what turndown misses: `~~` (GFM strikethrough), `<tag`
 * (raw HTML) and `&name;` (entity references), all of which would otherwise change the rendering.
 */

const inlineSpecials = /[\\*`[\]_~<&]/g
const anySpecial = /[\\*`[\]_~<&]|^[-+=#>\d]/
const wordChar = /[\p{L}\p{N}]/u
const tagStart = /[A-Za-z/!?]/
const entityAt = /&#?[A-Za-z0-9]+;/y

// Markers that only mean something at the start of a line; a text node may start a line.
const lineStartRules: ReadonlyArray<readonly [RegExp, string]> = [
  [/^-/, "\\-"],
  [/^\+(?= |$)/, "\\+"],
  [/^=/, "\\="],
  [/^(#{1,6})(?= |$)/, "\\$1"],
  [/^>/, "\\>"],
  [/^(\d+)([.)])(?= |$)/, "$1\\$2"]
]

const isWordChar = (char: string | undefined): boolean => char !== undefined && wordChar.test(char)

const needsEscape = (char: string, text: string, offset: number): boolean => {
  switch (char) {
    case "_":
      return !(isWordChar(text[offset - 1]) && isWordChar(text[offset + 1]))
    case "~":
      return text[offset - 1] === "~" || text[offset + 1] === "~"
    case "<":
      return tagStart.test(text[offset + 1] ?? "")
    case "&":
      entityAt.lastIndex = offset
      return entityAt.test(text)
    default:
      return true
  }
}

/** `text` with every character that markdown would interpret escaped by a backslash. */
export const escapeMarkdownText = (text: string): string => {
  if (!anySpecial.test(text)) return text
  let escaped = text.replace(inlineSpecials, (char: string, offset: number) =>
    needsEscape(char, text, offset) ? `\\${char}` : char)
  for (const [pattern, replacement] of lineStartRules) escaped = escaped.replace(pattern, replacement)
  return escaped
}

/** Collapses whitespace (alt texts and titles may hold newlines that would break a line). */
export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, " ").trim()
