/**
 * The `attributes` format (API.md §2.3): for each `{selector, attribute}` pair, the values of that
 * attribute on every element the CSS selector matches, in document order. Only real attributes
 * are read (`href`, `data-id`, `content` …); pseudo-attributes such as `textContent` or
 * `innerText` are not properties we look up, so they yield no values. Elements that match but lack
 * the attribute are skipped; an attribute present with an empty value contributes `""`. Names are
 * matched case-insensitively, as in HTML. A selector the CSS engine rejects yields an empty list
 * rather than failing the whole scrape.
 */
import { parseHTML } from "linkedom"

/** One requested pair, as the `attributes` format object carries it. */
export interface AttributeSelector {
  /** A CSS selector (css-select dialect). */
  readonly selector: string
  /** The attribute name, compared case-insensitively as HTML does. */
  readonly attribute: string
}

/** One result entry of `document.attributes`. */
export interface AttributeValues {
  readonly selector: string
  readonly attribute: string
  readonly values: Array<string>
}

// The few DOM members used here; linkedom's own typings rely on the DOM lib this package omits.
interface AttributeElement {
  getAttribute(name: string): string | null
  getAttributeNames(): Iterable<string>
}
interface AttributeDocument {
  querySelectorAll(selectors: string): Iterable<AttributeElement>
}

const parseDocument = (html: string): AttributeDocument => {
  // linkedom keeps a bare fragment's first element as the document element; a shell keeps every
  // top-level element reachable by selectors such as `body > a`.
  const source = /<html[\s>]|<body[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><body>${html}</body></html>`
  const document: AttributeDocument = parseHTML(source).document
  return document
}

// HTML attribute names are case-insensitive, but linkedom keeps them as the source wrote them
// (`<IMG SRC>`), so a name that is not found as given is looked for in any case.
const attributeValue = (element: AttributeElement, name: string): string | null => {
  const exact = element.getAttribute(name) ?? element.getAttribute(name.toLowerCase())
  if (exact !== null) return exact
  const lower = name.toLowerCase()
  for (const candidate of element.getAttributeNames()) if (candidate.toLowerCase() === lower) return element.getAttribute(candidate)
  return null
}

const valuesFor = (document: AttributeDocument, { selector, attribute }: AttributeSelector): Array<string> => {
  if (selector.trim() === "" || attribute.trim() === "") return []
  let matched: Iterable<AttributeElement>
  try {
    matched = document.querySelectorAll(selector)
  } catch {
    return []
  }
  const values: Array<string> = []
  for (const element of matched) {
    const value = attributeValue(element, attribute.trim())
    if (value !== null) values.push(value)
  }
  return values
}

/** Reads the requested attributes from an HTML page; never throws on a bad selector. */
export const extractAttributes = (html: string, selectors: ReadonlyArray<AttributeSelector>): Array<AttributeValues> => {
  const document = parseDocument(html)
  return selectors.map((pair) => ({ selector: pair.selector, attribute: pair.attribute, values: valuesFor(document, pair) }))
}
