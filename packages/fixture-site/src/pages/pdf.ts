/**
 * `/pdf`: a small valid PDF written by hand — catalog, page tree, one Helvetica font and one
 * text content stream per page — with its cross-reference table computed from the real byte
 * offsets, so strict parsers accept it. `fixturePdfPages` holds the text of each page.
 */
import { route, send } from "../http.js"

export interface PdfPage {
  readonly heading: string
  readonly lines: ReadonlyArray<string>
}

export const fixturePdfPages: ReadonlyArray<PdfPage> = [
  { heading: "Gleaner Fixture Report", lines: ["This document was written by hand for tests.", "It has three pages of plain text."] },
  { heading: "Second Page: Findings", lines: ["Starters slow down below 18 degrees.", "Feed them less flour and keep them warm."] },
  { heading: "Third Page: Conclusion", lines: ["Patience is the baker's best tool.", "End of the fixture report."] }
]

/** A PDF literal string: backslash, parentheses escaped; ASCII only. */
const literal = (text: string): string => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`

const contentStream = (p: PdfPage): string =>
  [
    "BT",
    "/F1 20 Tf",
    "72 720 Td",
    `${literal(p.heading)} Tj`,
    "/F1 12 Tf",
    ...p.lines.flatMap((line) => ["0 -28 Td", `${literal(line)} Tj`]),
    "ET"
  ].join("\n")

/** The object bodies, numbered from 1: catalog, page tree, font, then (page, content) pairs. */
const objects = (pages: ReadonlyArray<PdfPage>): Array<string> => {
  const pageIds = pages.map((_, i) => 4 + i * 2)
  const result = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
  ]
  for (const [i, p] of pages.entries()) {
    const stream = contentStream(p)
    const contentId = 5 + i * 2
    result.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`
    )
  }
  return result
}

/** Builds the PDF. It is written as Latin-1, one byte per character, so offsets are string lengths. */
export const buildPdf = (pages: ReadonlyArray<PdfPage> = fixturePdfPages): Uint8Array => {
  let out = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n"
  const offsets: Array<number> = []
  for (const [i, body] of objects(pages).entries()) {
    offsets.push(Buffer.byteLength(out, "latin1"))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  }
  const xrefAt = Buffer.byteLength(out, "latin1")
  const entries = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n\r\n`).join("")
  out += `xref\n0 ${offsets.length + 1}\n0000000000 65535 f\r\n${entries}`
  out += `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`
  return new Uint8Array(Buffer.from(out, "latin1"))
}

const pdf = buildPdf()

/** The fixture PDF's bytes (a copy). */
export const fixturePdf = (): Uint8Array => new Uint8Array(pdf)

export const pdfRoutes = [route(/^\/pdf$/, ({ res }) => send(res, 200, { "content-type": "application/pdf" }, pdf))]
