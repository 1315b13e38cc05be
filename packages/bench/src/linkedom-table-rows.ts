/**
 * Bench-only shim: linkedom's `<table>` has no `rows` collection, and turndown-plugin-gfm reads
 * `table.rows[0]` for every table, so the plain-turndown baseline would throw on any page with a
 * table. This adds `rows` as the DOM defines it (rows of the table's own thead, then tbody and
 * direct children, then tfoot) and scans only direct children, so it costs the baseline little.
 * linkedom builds `<table>` as a plain HTMLElement, so the getter sits on HTMLElement and answers
 * only for tables. Importing the module installs it; Gleaner's own converter does not use it.
 */
import { HTMLElement } from "linkedom"

interface ElementLike {
  readonly nodeName: string
  readonly children: ArrayLike<ElementLike>
}

const childrenNamed = (parent: ElementLike, name: string): Array<ElementLike> =>
  Array.from(parent.children).filter((child) => child.nodeName === name)

function tableRows(this: ElementLike): Array<ElementLike> | undefined {
  if (this.nodeName !== "TABLE") return undefined
  const sections = Array.from(this.children)
  const rowsOf = (section: ElementLike) => (section.nodeName === "TR" ? [section] : childrenNamed(section, "TR"))
  return [
    ...sections.filter((s) => s.nodeName === "THEAD").flatMap(rowsOf),
    ...sections.filter((s) => s.nodeName === "TBODY" || s.nodeName === "TR").flatMap(rowsOf),
    ...sections.filter((s) => s.nodeName === "TFOOT").flatMap(rowsOf)
  ]
}

Object.defineProperty(HTMLElement.prototype, "rows", { configurable: true, get: tableRows })
