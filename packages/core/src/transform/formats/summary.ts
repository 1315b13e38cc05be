/**
 * The local fallback for the `summary` format (API.md §2.3) when no LLM is configured: an
 * extractive summary of the page's markdown. Prose is split into sentences; headings, tables,
 * code, link lists and short list items are skipped as navigation or layout noise. Each sentence
 * is scored by the document frequency of its content words (stop words removed, so the words the
 * page is about weigh most), normalised by length, with a bonus for sentences early in the page or
 * first in their paragraph. The best sentences are returned in document order, which keeps the
 * summary readable.
 */

/** Options of `summarizeExtractive`. */
export interface ExtractiveSummaryOptions {
  /** Most sentences returned. Default 5. */
  readonly maxSentences?: number
  /** Word budget: sentences stop being added once the summary would exceed it (the first
   * sentence is always kept). Default 120 words. */
  readonly maxWords?: number
}

interface Sentence {
  readonly text: string
  readonly index: number
  readonly firstInParagraph: boolean
  readonly words: ReadonlyArray<string>
}

const STOP_WORDS = new Set(
  ("a about above after again against all also am an and any are as at be because been before being below between both but by can " +
    "could did do does doing down during each few for from further had has have having he her here hers herself him himself his how " +
    "i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out " +
    "over own same she should so some such than that the their theirs them themselves then there these they this those through to " +
    "too under until up very was we were what when where which while who whom why will with would you your yours yourself " +
    "yourselves may might must shall us one two new get got use used using like well even many much").split(" ")
)

const ABBREVIATIONS = /\b(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|inc|ltd|co|corp|no|fig|approx|e\.g|i\.e|u\.s|a\.m|p\.m)\.$/i

/** Markdown without the syntax that is not prose, one paragraph per entry. */
const proseParagraphs = (markdown: string): Array<string> => {
  const withoutCode = markdown.replace(/\r\n?/g, "\n").replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "\n")
  const paragraphs: Array<string> = []
  let current: Array<string> = []
  const flush = () => {
    if (current.length > 0) paragraphs.push(current.join(" "))
    current = []
  }
  for (const rawLine of withoutCode.split("\n")) {
    const line = rawLine.trim()
    if (line === "" || /^#{1,6}\s/.test(line) || /^\|/.test(line) || /^([-*_=]\s*){3,}$/.test(line)) {
      flush()
      continue
    }
    const listItem = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line)
    if (listItem !== null) {
      flush()
      // Short list items are menus and link lists; long ones are prose written as bullets.
      const body = listItem[1] ?? ""
      if (plainText(body).split(/\s+/).length >= 8) paragraphs.push(body)
      continue
    }
    current.push(line.replace(/^>\s?/, ""))
  }
  flush()
  return paragraphs.map(plainText).filter((p) => p !== "")
}

/** Inline markdown reduced to its visible text. */
const plainText = (text: string): string =>
  text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[*_`~]+/g, "")
    .replace(/\s+/g, " ")
    .trim()

const splitSentences = (paragraph: string): Array<string> => {
  const sentences: Array<string> = []
  let start = 0
  const boundary = /[.!?]["')\]]?(?=\s+["'(\[]?[A-Z0-9À-Ý])/g
  for (let match = boundary.exec(paragraph); match !== null; match = boundary.exec(paragraph)) {
    const end = match.index + match[0].length
    const candidate = paragraph.slice(start, end)
    if (ABBREVIATIONS.test(candidate) || /\b[A-Z]\.$/.test(candidate)) continue
    sentences.push(candidate.trim())
    start = end
  }
  sentences.push(paragraph.slice(start).trim())
  return sentences.filter((s) => s !== "")
}

const contentWords = (sentence: string): Array<string> =>
  (sentence.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [])
    .map((w) => w.replace(/['’]s$/, ""))
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w))

const collectSentences = (markdown: string): Array<Sentence> => {
  const seen = new Set<string>()
  const sentences: Array<Sentence> = []
  for (const paragraph of proseParagraphs(markdown)) {
    splitSentences(paragraph).forEach((text, i) => {
      const wordCount = text.split(/\s+/).length
      const key = text.toLowerCase()
      if (wordCount < 4 || seen.has(key)) return
      seen.add(key)
      sentences.push({ text, index: sentences.length, firstInParagraph: i === 0, words: contentWords(text) })
    })
  }
  return sentences
}

const scoreSentences = (sentences: ReadonlyArray<Sentence>): Array<number> => {
  const frequency = new Map<string, number>()
  for (const sentence of sentences) {
    for (const word of new Set(sentence.words)) frequency.set(word, (frequency.get(word) ?? 0) + 1)
  }
  const maxFrequency = Math.max(1, ...frequency.values())
  return sentences.map((sentence) => {
    if (sentence.words.length === 0) return 0
    const weight = sentence.words.reduce((sum, word) => sum + (frequency.get(word) ?? 0) / maxFrequency, 0)
    const position = sentence.index === 0 ? 0.6 : sentence.index < 3 ? 0.3 : 0
    const paragraphStart = sentence.firstInParagraph ? 0.15 : 0
    const wordCount = sentence.text.split(/\s+/).length
    const lengthPenalty = wordCount > 45 ? 0.6 : 1
    return (weight / Math.sqrt(sentence.words.length)) * lengthPenalty + position + paragraphStart
  })
}

/** An extractive summary of markdown: its best sentences in document order, or "" for no prose. */
export const summarizeExtractive = (markdown: string, options: ExtractiveSummaryOptions = {}): string => {
  const maxSentences = Math.max(1, Math.floor(options.maxSentences ?? 5))
  const maxWords = Math.max(1, options.maxWords ?? 120)
  const sentences = collectSentences(markdown)
  const scores = scoreSentences(sentences)
  const ranked = sentences.map((s, i) => ({ sentence: s, score: scores[i] ?? 0 })).sort((a, b) => b.score - a.score || a.sentence.index - b.sentence.index)
  const chosen: Array<Sentence> = []
  let words = 0
  for (const { sentence } of ranked) {
    if (chosen.length >= maxSentences) break
    const count = sentence.text.split(/\s+/).length
    if (chosen.length > 0 && words + count > maxWords) continue
    chosen.push(sentence)
    words += count
  }
  return chosen
    .sort((a, b) => a.index - b.index)
    .map((s) => s.text)
    .join(" ")
}
