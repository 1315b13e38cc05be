/**
 * `/docx`: a small but valid Word document — a ZIP (stored entries, CRC-32s, central directory)
 * holding the minimum OOXML parts: content types, relationships, styles with Heading 1/2, and a
 * body with headings, paragraphs, a bold run and a two-row table. Written by hand here.
 */
import { crc32 } from "node:zlib"
import { route, send } from "../http.js"

export const docxMimeType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

interface ZipEntry {
  readonly name: string
  readonly data: Buffer
}

/** A ZIP archive of stored (uncompressed) entries, dated 1980-01-01. */
export const buildZip = (entries: ReadonlyArray<ZipEntry>): Buffer => {
  const locals: Array<Buffer> = []
  const centrals: Array<Buffer> = []
  let offset = 0
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, "utf8")
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x21, 12) // date: 1980-01-01
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x21, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += local.length + nameBytes.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

const xml = (body: string): Buffer => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`, "utf8")
const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'

const contentTypes = `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`

const rootRels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`

const documentRels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>`

const style = (id: string, name: string) =>
  `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/></w:style>`
const styles = `<w:styles ${w}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>${style("Heading1", "heading 1")}${style("Heading2", "heading 2")}</w:styles>`

const para = (text: string, styleId?: string) =>
  `<w:p>${styleId === undefined ? "" : `<w:pPr><w:pStyle w:val="${styleId}"/></w:pPr>`}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`
const cell = (text: string) => `<w:tc><w:tcPr><w:tcW w:w="2400" w:type="dxa"/></w:tcPr>${para(text)}</w:tc>`
const row = (cells: ReadonlyArray<string>) => `<w:tr>${cells.map(cell).join("")}</w:tr>`

const documentXml = `<w:document ${w}><w:body>
${para("Fixture Memo", "Heading1")}
${para("This Word document was assembled by the fixture site for parser tests.")}
<w:p><w:r><w:t xml:space="preserve">Some words are </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r><w:r><w:t xml:space="preserve"> on purpose.</w:t></w:r></w:p>
${para("Figures", "Heading2")}
<w:tbl><w:tblPr><w:tblW w:w="4800" w:type="dxa"/></w:tblPr>${row(["Flour", "Water"])}${row(["500 g", "375 g"])}</w:tbl>
${para("End of memo.")}
<w:sectPr/></w:body></w:document>`

const docx = buildZip([
  { name: "[Content_Types].xml", data: xml(contentTypes) },
  { name: "_rels/.rels", data: xml(rootRels) },
  { name: "word/_rels/document.xml.rels", data: xml(documentRels) },
  { name: "word/styles.xml", data: xml(styles) },
  { name: "word/document.xml", data: xml(documentXml) }
])

/** The fixture DOCX's bytes (a copy). */
export const fixtureDocx = (): Uint8Array => new Uint8Array(docx)

export const docxRoutes = [route(/^\/docx$/, ({ res }) => send(res, 200, { "content-type": docxMimeType }, docx))]
