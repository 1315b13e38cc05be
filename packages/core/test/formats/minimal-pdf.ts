/**
 * Writes small, valid PDF files for the PDF tests, by hand: a catalog, a page tree, two standard
 * Type1 fonts (no embedded font programs) and one content stream per page, with the
 * cross-reference table's byte offsets computed from the bytes actually written. Nothing is copied
 * from elsewhere, so the tests own every byte they parse.
 */

/** One line of text drawn on a page. */
export interface PdfLine {
  readonly text: string
  /** Font size in points. */
  readonly size: number
  /** Baseline position from the bottom-left corner, in points. */
  readonly x: number
  readonly y: number
  readonly bold?: boolean
}

const escapePdfString = (text: string): string => text.replace(/[\\()]/g, (c) => `\\${c}`)

const contentStream = (lines: ReadonlyArray<PdfLine>): string =>
  lines
    .map((line) => `BT /${line.bold === true ? "F2" : "F1"} ${line.size} Tf ${line.x} ${line.y} Td (${escapePdfString(line.text)}) Tj ET`)
    .join("\n")

/** Builds a PDF with one page per entry (US Letter, 612 × 792 pt); text must be Latin-1. */
export const buildPdf = (pages: ReadonlyArray<ReadonlyArray<PdfLine>>): Uint8Array => {
  const firstPageObject = 5
  const pageIds = pages.map((_, i) => firstPageObject + i * 2)
  const objects: Array<string> = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
  ]
  pages.forEach((lines, i) => {
    const contentId = (pageIds[i] ?? 0) + 1
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentId} 0 R >>`
    )
    const stream = contentStream(lines)
    objects.push(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`)
  })
  let body = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"))
    body += `${i + 1} 0 obj\n${object}\nendobj\n`
  })
  const xrefOffset = Buffer.byteLength(body, "latin1")
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n `)
  ].join("\n")
  body += `${xref}\ntrailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`
  return new Uint8Array(Buffer.from(body, "latin1"))
}
