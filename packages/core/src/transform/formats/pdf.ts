/**
 * PDF → markdown for scraped PDFs and the PDF parser option (API.md §2.2 `parsers`, §5 credits
 * per page). The text layer is read with unpdf (PDF.js built for servers; no worker, no canvas)
 * in the order the document draws it, which is the reading order for nearly all producers. Text
 * runs are joined into lines by baseline; lines set larger than the document's body size become
 * headings (`#` for the largest size, then `##`, `###`); body lines are joined into paragraphs
 * with hyphenated line breaks mended; lines whose runs sit far apart (table rows) stay lines of
 * their own, cells separated by ` | `. `maxPages` limits the pages read; `numPages` is always the
 * document's total. There is no OCR engine: scanned pages yield no text in any mode, and a
 * caller that was asked for `mode: "ocr"` adds `PDF_OCR_UNAVAILABLE_WARNING` to the response.
 */
import { getDocumentProxy } from "unpdf"

export interface PdfToMarkdownOptions {
  /** Most pages read from the start of the document. Default: all. */
  readonly maxPages?: number
  /** Parser mode of the request; all modes read the text layer (no OCR engine is bundled). */
  readonly mode?: "fast" | "auto" | "ocr"
}

export interface PdfMarkdown {
  readonly markdown: string
  /** Pages in the document, read or not. */
  readonly numPages: number
  /** The pages read, in order. */
  readonly pages: Array<{ pageNumber: number; markdown: string }>
}

export const PDF_OCR_UNAVAILABLE_WARNING =
  "OCR is not available on this server: the PDF's embedded text layer was used, so scanned pages may be missing text."

interface TextRun {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly size: number
  readonly endsLine: boolean
}

interface Line {
  readonly text: string
  readonly y: number
  readonly size: number
  readonly tabular: boolean
}

const toRun = (item: unknown): TextRun | undefined => {
  if (typeof item !== "object" || item === null || !("str" in item) || typeof item.str !== "string") return undefined
  const transform: ReadonlyArray<unknown> = "transform" in item && Array.isArray(item.transform) ? item.transform : []
  const [a, b, c, d, x, y] = transform.map(Number)
  const width = "width" in item ? Number(item.width) : 0
  const size = Math.max(Math.hypot(a ?? 0, b ?? 0), Math.hypot(c ?? 0, d ?? 0))
  const endsLine = "hasEOL" in item && item.hasEOL === true
  return { text: item.str, x: x ?? 0, y: y ?? 0, width: Number.isFinite(width) ? width : 0, size: Number.isFinite(size) ? size : 0, endsLine }
}

/** Joins runs into lines: a new line starts where the baseline moves or a run ends a line. */
const toLines = (runs: ReadonlyArray<TextRun>): Array<Line> => {
  const lines: Array<Line> = []
  let parts: Array<TextRun> = []
  const flush = () => {
    const visible = parts.filter((run) => run.text.trim() !== "")
    const first = visible[0]
    if (first !== undefined) {
      let text = ""
      let tabular = false
      let previous: TextRun | undefined
      for (const run of parts) {
        const gap = previous === undefined ? 0 : run.x - (previous.x + previous.width)
        const wide = previous !== undefined && run.text.trim() !== "" && gap > Math.max(run.size, previous.size) * 2.5
        if (wide) tabular = true
        const space = previous !== undefined && gap > run.size * 0.15 && !/\s$/.test(text) && !/^\s/.test(run.text)
        text += wide ? " | " : space ? " " : ""
        text += run.text
        if (run.text.trim() !== "") previous = run
      }
      lines.push({ text: text.replace(/\s+/g, " ").replace(/(?: \| )+/g, " | ").trim(), y: first.y, size: Math.max(...visible.map((r) => r.size)), tabular })
    }
    parts = []
  }
  for (const run of runs) {
    const last = parts[parts.length - 1]
    if (last !== undefined && Math.abs(run.y - last.y) > Math.max(run.size, last.size) * 0.5 && run.text.trim() !== "") flush()
    parts.push(run)
    if (run.endsLine) flush()
  }
  flush()
  return lines
}

/** The size most characters are set in. */
const bodySize = (lines: ReadonlyArray<Line>): number => {
  const weights = new Map<number, number>()
  for (const line of lines) {
    const size = Math.round(line.size * 2) / 2
    weights.set(size, (weights.get(size) ?? 0) + line.text.length)
  }
  let best = 0
  let bestWeight = -1
  for (const [size, weight] of weights) if (weight > bestWeight || (weight === bestWeight && size < best)) [best, bestWeight] = [size, weight]
  return best
}

/** Heading level per rounded size: the largest heading size is 1, down to 3. */
const headingLevels = (lines: ReadonlyArray<Line>, body: number): Map<number, number> => {
  const sizes = [...new Set(lines.filter((l) => isHeadingCandidate(l, body)).map((l) => Math.round(l.size * 2) / 2))].sort((a, b) => b - a)
  return new Map(sizes.map((size, i) => [size, Math.min(i + 1, 3)]))
}

const isHeadingCandidate = (line: Line, body: number): boolean =>
  body > 0 && line.size >= body * 1.15 && line.text.length <= 150 && !line.tabular && /\p{L}/u.test(line.text)

const joinLine = (paragraph: string, line: string): string =>
  /\p{L}-$/u.test(paragraph) && /^\p{Ll}/u.test(line) ? paragraph.slice(0, -1) + line : `${paragraph} ${line}`

/** Markdown for one page's lines, given the document's body size and heading levels. */
const pageMarkdown = (lines: ReadonlyArray<Line>, body: number, levels: ReadonlyMap<number, number>): string => {
  const blocks: Array<string> = []
  let paragraph: string | undefined
  let previous: Line | undefined
  const flush = () => {
    if (paragraph !== undefined) blocks.push(paragraph)
    paragraph = undefined
  }
  for (const line of lines) {
    const level = isHeadingCandidate(line, body) ? levels.get(Math.round(line.size * 2) / 2) : undefined
    if (level !== undefined) {
      // Consecutive lines of one heading (a wrapped title) stay one heading.
      const last = blocks[blocks.length - 1]
      if (paragraph === undefined && previous !== undefined && previous.size === line.size && last?.startsWith("#") === true) {
        blocks[blocks.length - 1] = `${last} ${line.text}`
      } else {
        flush()
        blocks.push(`${"#".repeat(level)} ${line.text}`)
      }
    } else if (line.tabular) {
      flush()
      blocks.push(line.text)
    } else {
      const gap = previous === undefined ? 0 : Math.abs(previous.y - line.y)
      const newParagraph = previous === undefined || previous.tabular || gap > Math.max(line.size, previous.size) * 1.8 || Math.abs(previous.size - line.size) > 0.5
      if (newParagraph) flush()
      paragraph = paragraph === undefined ? line.text : joinLine(paragraph, line.text)
    }
    previous = line
  }
  flush()
  // Table rows read best as consecutive lines, other blocks as paragraphs.
  return blocks.reduce((out, block, i) => (i === 0 ? block : `${out}${block.includes(" | ") && (blocks[i - 1] ?? "").includes(" | ") ? "\n" : "\n\n"}${block}`), "")
}

/** Reads a PDF's text layer into markdown, page by page. */
export const pdfToMarkdown = async (bytes: Uint8Array, options: PdfToMarkdownOptions = {}): Promise<PdfMarkdown> => {
  // PDF.js may take ownership of the buffer it is given; it gets a copy.
  const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false })
  try {
    const numPages = document.numPages
    const limit = Math.min(numPages, Math.max(0, Math.floor(options.maxPages ?? numPages)))
    const pageLines: Array<Array<Line>> = []
    for (let pageNumber = 1; pageNumber <= limit; pageNumber++) {
      const page = await document.getPage(pageNumber)
      const content = await page.getTextContent()
      pageLines.push(toLines(content.items.flatMap((item: unknown) => toRun(item) ?? [])))
      page.cleanup()
    }
    const body = bodySize(pageLines.flat())
    const levels = headingLevels(pageLines.flat(), body)
    const pages = pageLines.map((lines, i) => ({ pageNumber: i + 1, markdown: pageMarkdown(lines, body, levels) }))
    return { markdown: pages.map((p) => p.markdown).filter((m) => m !== "").join("\n\n"), numPages, pages }
  } finally {
    await document.destroy()
  }
}
