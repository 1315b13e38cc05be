import { describe, expect, it } from "vitest"
import { pdfToMarkdown } from "../../src/transform/formats/pdf.js"
import { buildPdf } from "./minimal-pdf.js"

const document = buildPdf([
  [
    { text: "Annual Report", size: 24, x: 72, y: 720, bold: true },
    { text: "This is the body text of the first page and it con-", size: 11, x: 72, y: 690 },
    { text: "tinues on the next line.", size: 11, x: 72, y: 676 },
    { text: "A second paragraph (with parentheses).", size: 11, x: 72, y: 640 }
  ],
  [
    { text: "Prices", size: 16, x: 72, y: 720 },
    { text: "Item", size: 11, x: 72, y: 690 },
    { text: "Price", size: 11, x: 300, y: 690 },
    { text: "Widget", size: 11, x: 72, y: 676 },
    { text: "$10", size: 11, x: 300, y: 676 },
    { text: "Closing words of the second page.", size: 11, x: 72, y: 640 }
  ],
  [{ text: "The third page has body text only, which keeps the body size obvious.", size: 11, x: 72, y: 720 }]
])

describe("pdfToMarkdown", () => {
  it("reads headings by size, paragraphs, mended hyphenation and table rows", async () => {
    const result = await pdfToMarkdown(document, {})
    expect(result.numPages).toBe(3)
    expect(result.pages.map((p) => p.pageNumber)).toEqual([1, 2, 3])
    expect(result.pages[0]?.markdown).toBe(
      "# Annual Report\n\nThis is the body text of the first page and it continues on the next line.\n\nA second paragraph (with parentheses)."
    )
    expect(result.pages[1]?.markdown).toBe("## Prices\n\nItem | Price\nWidget | $10\n\nClosing words of the second page.")
    expect(result.markdown).toBe(result.pages.map((p) => p.markdown).join("\n\n"))
  })

  it("reads at most maxPages pages but reports the document's page count", async () => {
    const result = await pdfToMarkdown(document, { maxPages: 1, mode: "ocr" })
    expect(result.numPages).toBe(3)
    expect(result.pages).toHaveLength(1)
    expect(result.markdown.startsWith("# Annual Report")).toBe(true)
  })

  it("leaves the caller's bytes usable and rejects what is not a PDF", async () => {
    await pdfToMarkdown(document, {})
    expect((await pdfToMarkdown(document, { maxPages: 1 })).numPages).toBe(3)
    await expect(pdfToMarkdown(new TextEncoder().encode("not a pdf"), {})).rejects.toThrow()
  })
})
