/**
 * GFM pipe tables.
 *
 * Turndown converts cells before their table, so the cell rule records each cell's markdown and
 * the table rule lays the recorded cells out on a grid: colspans and rowspans become empty cells so
 * columns stay aligned, rows with nothing in them are dropped, and the first remaining row is the
 * header even without `<th>` (a pipe table needs one, and raw HTML is not an option). Cells are
 * flattened to one line (`<br>` between lines) with `|` escaped.
 *
 * Layout tables — role="presentation", a table inside a table, or a single cell — are not data:
 * their cells come out as ordinary blocks.
 */
import type TurndownService from "turndown"
import { attr, childElements, type HtmlElement } from "./dom.js"
import { flattenLines } from "./lines.js"

// Keyed by the DOM node; turndown works on a fresh clone per call, so entries die with it.
const renderedParts = new WeakMap<object, string>()

// What a part contributes when its table is a layout table: block content stays blocks; inline
// content of the cells in a row reads as one line.
const recordPart = (content: string, node: HtmlElement): string => {
  renderedParts.set(node, content)
  return content.includes("\n") ? `\n\n${content}\n\n` : `${content} `
}

export const tableCellRule: TurndownService.Rule = { filter: ["th", "td"], replacement: recordPart }
export const tableCaptionRule: TurndownService.Rule = {
  filter: "caption",
  replacement: (content: string, node: HtmlElement): string => `${recordPart(content, node)}\n\n`
}

type Align = "" | "left" | "center" | "right"

interface GridCell {
  readonly text: string
  readonly align: Align
}

const emptyCell: GridCell = { text: "", align: "" }
const maxSpan = 1000 // the HTML limit for colspan; rowspans only reach the rows that exist

const span = (cell: HtmlElement, name: string): number => {
  const value = Number.parseInt(attr(cell, name), 10)
  return Number.isFinite(value) && value > 1 ? Math.min(value, maxSpan) : 1
}

const alignOf = (cell: HtmlElement): Align => {
  const declared = (attr(cell, "align") || /text-align:\s*(\w+)/i.exec(attr(cell, "style"))?.[1] || "").toLowerCase()
  return declared === "left" || declared === "center" || declared === "right" ? declared : ""
}

const cellText = (cell: HtmlElement): string =>
  flattenLines(renderedParts.get(cell) ?? "", "<br>").replace(/\|/g, "\\|")

const tableRows = (table: HtmlElement): Array<HtmlElement> => {
  const head: Array<HtmlElement> = []
  const body: Array<HtmlElement> = []
  const foot: Array<HtmlElement> = []
  for (const section of childElements(table, ["THEAD", "TBODY", "TFOOT", "TR"])) {
    if (section.nodeName === "TR") body.push(section)
    else (section.nodeName === "THEAD" ? head : section.nodeName === "TFOOT" ? foot : body).push(...childElements(section, ["TR"]))
  }
  return [...head, ...body, ...foot]
}

/** Rows of cells with spans expanded; `pending[c]` counts rows still covered by a rowspan in column c. */
const buildGrid = (rows: ReadonlyArray<HtmlElement>): Array<Array<GridCell>> => {
  const pending: Array<number> = []
  return rows.map((row) => {
    const out: Array<GridCell> = []
    const fillCovered = () => {
      while ((pending[out.length] ?? 0) > 0) {
        pending[out.length] = (pending[out.length] ?? 1) - 1
        out.push(emptyCell)
      }
    }
    for (const cell of childElements(row, ["TD", "TH"])) {
      fillCovered()
      const colspan = span(cell, "colspan")
      const rowspan = span(cell, "rowspan")
      for (let i = 0; i < colspan; i++) {
        pending[out.length] = rowspan - 1
        out.push(i === 0 ? { text: cellText(cell), align: alignOf(cell) } : emptyCell)
      }
    }
    for (let column = out.length; column < pending.length; column++) {
      if ((pending[column] ?? 0) > 0) pending[column] = (pending[column] ?? 1) - 1
      out.push(emptyCell)
    }
    return out
  })
}

const separator = (align: Align): string =>
  align === "left" ? ":---" : align === "center" ? ":---:" : align === "right" ? "---:" : "---"

const renderGrid = (grid: ReadonlyArray<ReadonlyArray<GridCell>>): string => {
  const width = grid.reduce((widest, row) => Math.max(widest, row.length), 0)
  const line = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const padded = grid.map((row) => Array.from({ length: width }, (_, column) => row[column] ?? emptyCell))
  const [header = [], ...body] = padded
  return [
    line(header.map((cell) => cell.text)),
    line(header.map((cell) => separator(cell.align))),
    ...body.map((row) => line(row.map((cell) => cell.text)))
  ].join("\n")
}

const isLayoutTable = (table: HtmlElement): boolean => {
  const role = attr(table, "role").toLowerCase()
  if (role === "presentation" || role === "none") return true
  if (table.getElementsByTagName("table").length > 0) return true
  return table.getElementsByTagName("td").length + table.getElementsByTagName("th").length <= 1
}

export const tableRule: TurndownService.Rule = {
  filter: "table",
  replacement: (content: string, node: HtmlElement): string => {
    if (isLayoutTable(node)) return `\n\n${content}\n\n`
    const caption = childElements(node, ["CAPTION"])[0]
    const captionText = caption === undefined ? "" : flattenLines(renderedParts.get(caption) ?? "", " ")
    const grid = buildGrid(tableRows(node)).filter((row) => row.some((cell) => cell.text !== ""))
    const table = grid.length === 0 ? "" : renderGrid(grid)
    return `\n\n${captionText}\n\n${table}\n\n`
  }
}
