/**
 * Facts a page states for people rather than machines, for the local `json` format: definition
 * lists (`<dt>Weight</dt><dd>1.2 kg</dd>`), two-column table rows (`Price | $10`), `Label: value`
 * lines in the markdown (bold labels and list bullets allowed), and a heading or label directly
 * followed by a bullet list (`## Features` + items → an array). Tables with a header row also
 * give one record per body row, grouped per table, so a schema asking for a list of objects can
 * be filled from a pricing or comparison table.
 */
import { type FactDocument, type FactElement, type FactEntity, textOf } from "./structured-sources.js"

const MAX_LABEL_CHARS = 60
const MAX_LABEL_WORDS = 6

const cleanLabel = (label: string): string => label.replace(/[*_`]+/g, "").replace(/\s*:\s*$/, "").replace(/\s+/g, " ").trim()

const plausibleLabel = (label: string): boolean =>
  label !== "" && label.length <= MAX_LABEL_CHARS && label.split(" ").length <= MAX_LABEL_WORDS && /\p{L}/u.test(label) &&
  !/^(?:https?|ftp|mailto|tel|data)$/i.test(label)

const addFact = (facts: Record<string, unknown>, label: string, value: unknown): void => {
  const key = cleanLabel(label)
  if (!plausibleLabel(key) || value === "" || facts[key] !== undefined) return
  facts[key] = value
}

const cellsOf = (row: FactElement): Array<FactElement> =>
  [...row.children].filter((cell) => cell.tagName.toUpperCase() === "TD" || cell.tagName.toUpperCase() === "TH")

// ---- HTML ---------------------------------------------------------------------------------------

const definitionListFacts = (document: FactDocument, facts: Record<string, unknown>): void => {
  for (const list of document.querySelectorAll("dl")) {
    let labels: Array<string> = []
    let values: Array<string> = []
    const flush = () => {
      for (const label of labels) addFact(facts, label, values.length === 1 ? values[0] : values)
      labels = []
      values = []
    }
    for (const child of list.children) {
      const tag = child.tagName.toUpperCase()
      if (tag === "DT") {
        if (values.length > 0) flush()
        labels.push(textOf(child))
      } else if (tag === "DD") values.push(textOf(child))
    }
    if (values.length > 0) flush()
  }
}

const tableFacts = (document: FactDocument, facts: Record<string, unknown>, rows: Array<FactEntity>): void => {
  let tableIndex = 0
  for (const table of document.querySelectorAll("table")) {
    tableIndex++
    const tableRows = [...table.querySelectorAll("tr")].filter((row) => row.closest("table") === table)
    for (const row of tableRows) {
      const cells = cellsOf(row)
      const [label, value] = cells
      if (cells.length === 2 && label !== undefined && value !== undefined) addFact(facts, textOf(label), textOf(value))
    }
    const [head, ...body] = tableRows
    const headerCells = head === undefined ? [] : cellsOf(head)
    const isHeader = headerCells.length >= 2 && (headerCells.every((c) => c.tagName.toUpperCase() === "TH") || head?.closest("thead") !== null)
    if (!isHeader) continue
    const headers = headerCells.map((cell) => cleanLabel(textOf(cell)))
    for (const row of body) {
      const cells = cellsOf(row)
      if (cells.length !== headers.length) continue
      const props: Record<string, unknown> = {}
      headers.forEach((header, i) => {
        const cell = cells[i]
        if (header !== "" && cell !== undefined) props[header] = textOf(cell)
      })
      rows.push({ source: "labels", types: ["TableRow"], props, nested: true, group: `table-${tableIndex}` })
    }
  }
}

// ---- markdown -----------------------------------------------------------------------------------

const LABEL_LINE = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?([^:|\n*_[\]]{1,60}?)(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:|:)\s*(.+?)\s*$/
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(.+?)\s*$/
const LABEL_ONLY = /^\s*(?:#{1,6}\s+(.+?)\s*#*|(?:\*\*|__)(.+?)(?:\*\*|__)\s*:?|([^:|\n]{1,60}):)\s*$/

const inlineText = (text: string): string =>
  text.replace(/!\[[^\]]*\]\([^)]*\)/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*_`]+/g, "").replace(/\s+/g, " ").trim()

/** `## Features` (or `**Features**`, `Features:`) followed by a bullet list → label → items. */
const headingListFacts = (lines: ReadonlyArray<string>, facts: Record<string, unknown>): void => {
  lines.forEach((line, i) => {
    const label = LABEL_ONLY.exec(line)
    if (label === null) return
    let j = i + 1
    while (j < lines.length && (lines[j] ?? "").trim() === "") j++
    const values: Array<string> = []
    for (let item = LIST_ITEM.exec(lines[j] ?? ""); item !== null; item = LIST_ITEM.exec(lines[++j] ?? "")) {
      values.push(inlineText(item[1] ?? ""))
    }
    if (values.length > 0) addFact(facts, inlineText(label[1] ?? label[2] ?? label[3] ?? ""), values)
  })
}

const labelLineFacts = (lines: ReadonlyArray<string>, facts: Record<string, unknown>): void => {
  for (const line of lines) {
    if (/^\s*(?:#|\||>|```)/.test(line)) continue
    const match = LABEL_LINE.exec(line)
    const value = match?.[2]
    if (match === null || value === undefined || value.startsWith("//")) continue
    addFact(facts, match[1] ?? "", inlineText(value))
  }
}

/**
 * The labelled facts of a page: one `labels` entity with label → value (or → items), and one
 * nested entity per table body row, grouped by table.
 */
export const labelledEntities = (document: FactDocument, markdown: string): Array<FactEntity> => {
  const facts: Record<string, unknown> = {}
  const rows: Array<FactEntity> = []
  definitionListFacts(document, facts)
  tableFacts(document, facts, rows)
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n")
  headingListFacts(lines, facts)
  labelLineFacts(lines, facts)
  return [...(Object.keys(facts).length > 0 ? [{ source: "labels" as const, types: [], props: facts, nested: false }] : []), ...rows]
}
