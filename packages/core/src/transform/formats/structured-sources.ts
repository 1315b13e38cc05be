/**
 * Reads the machine-readable facts a page publishes about itself, for the local `json` format:
 * every JSON-LD block (arrays and `@graph` flattened, `@id` references resolved), microdata items
 * (`itemscope`/`itemprop`), RDFa Lite items (`typeof`/`property`) and the meta tags (title,
 * OpenGraph, Twitter, article and product tags, under schema.org-style names). Each becomes an
 * entity: its types, its properties as plain JSON values, and where it came from. Typed objects
 * nested inside an entity (a Product in a WebPage, the items of an ItemList) are entities too, so
 * the best one can be chosen and lists of them found.
 */
import { parseHTML } from "linkedom"

export type FactSource = "json-ld" | "microdata" | "rdfa" | "meta" | "labels"

/** A thing the page describes, with properties as JSON values (`@type` kept as a property). */
export interface FactEntity {
  readonly source: FactSource
  readonly types: ReadonlyArray<string>
  readonly props: Readonly<Record<string, unknown>>
  /** True for typed objects found inside another entity's properties. */
  readonly nested: boolean
  /** Entities of one group (rows of one table) form a list together. */
  readonly group?: string
}

/** The DOM members the fact readers use; linkedom's typings need the DOM lib this package omits. */
export interface FactElement {
  readonly tagName: string
  readonly textContent: string | null
  readonly parentElement: FactElement | null
  readonly children: Iterable<FactElement>
  getAttribute(name: string): string | null
  hasAttribute(name: string): boolean
  closest(selectors: string): FactElement | null
  querySelectorAll(selectors: string): Iterable<FactElement>
}

export interface FactDocument {
  querySelectorAll(selectors: string): Iterable<FactElement>
  querySelector(selectors: string): FactElement | null
}

export const parseFactDocument = (html: string): FactDocument => {
  const source = /<html[\s>]|<body[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><body>${html}</body></html>`
  const document: FactDocument = parseHTML(source).document
  return document
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const textOf = (element: FactElement): string => (element.textContent ?? "").replace(/\s+/g, " ").trim()

const absolute = (value: string, pageUrl: string): string => {
  try {
    return new URL(value, pageUrl).href
  } catch {
    return value
  }
}

const typesOf = (value: unknown): Array<string> =>
  (Array.isArray(value) ? value : [value])
    .filter((t): t is string => typeof t === "string")
    .map((t) => t.replace(/^.*[/#:]/, ""))
    .filter((t) => t !== "")

// ---- JSON-LD -----------------------------------------------------------------------------------

const parseJsonLoose = (text: string): unknown => {
  const attempts = [text, text.replace(/^\s*(?:<!--|\/\/\s*<!\[CDATA\[)|(?:-->|\/\/\s*\]\]>)\s*$/g, "").replace(/[\u0000-\u001f]+/g, " ")]
  for (const attempt of attempts) {
    try {
      const parsed: unknown = JSON.parse(attempt)
      return parsed
    } catch {
      continue
    }
  }
  return undefined
}

const flattenJsonLd = (value: unknown): Array<Record<string, unknown>> => {
  if (Array.isArray(value)) return value.flatMap(flattenJsonLd)
  if (!isRecord(value)) return []
  const graph = value["@graph"]
  if (graph === undefined) return [value]
  const { "@graph": _graph, "@context": _context, ...rest } = value
  return [...(Object.keys(rest).length > 0 ? [rest] : []), ...flattenJsonLd(graph)]
}

/** Replaces `{ "@id": x }` stubs by the node with that id (a few levels deep, no cycles). */
const resolveReferences = (value: unknown, byId: ReadonlyMap<string, Record<string, unknown>>, depth: number): unknown => {
  if (depth > 4) return value
  if (Array.isArray(value)) return value.map((item) => resolveReferences(item, byId, depth + 1))
  if (!isRecord(value)) return value
  const id = value["@id"]
  const target = typeof id === "string" && Object.keys(value).length === 1 ? byId.get(id) : undefined
  const source = target ?? value
  return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, resolveReferences(v, byId, depth + 1)]))
}

const jsonLdNodes = (document: FactDocument): Array<Record<string, unknown>> => {
  const nodes: Array<Record<string, unknown>> = []
  for (const script of document.querySelectorAll("script")) {
    if (!/^\s*application\/ld\+json/i.test(script.getAttribute("type") ?? "")) continue
    nodes.push(...flattenJsonLd(parseJsonLoose(script.textContent ?? "")))
  }
  const byId = new Map<string, Record<string, unknown>>()
  for (const node of nodes) if (typeof node["@id"] === "string" && Object.keys(node).length > 1) byId.set(node["@id"], node)
  return nodes.map((node) => {
    const resolved = resolveReferences(node, byId, 0)
    return isRecord(resolved) ? resolved : node
  })
}

// ---- microdata and RDFa Lite -------------------------------------------------------------------

interface ItemSyntax {
  readonly source: FactSource
  readonly scope: string
  readonly prop: string
  readonly type: string
}

const MICRODATA: ItemSyntax = { source: "microdata", scope: "itemscope", prop: "itemprop", type: "itemtype" }
const RDFA: ItemSyntax = { source: "rdfa", scope: "typeof", prop: "property", type: "typeof" }

const URL_ATTRIBUTE: Record<string, string> = {
  A: "href", AREA: "href", LINK: "href", IMG: "src", AUDIO: "src", VIDEO: "src", SOURCE: "src", TRACK: "src", IFRAME: "src", EMBED: "src", OBJECT: "data"
}

const propertyValue = (element: FactElement, syntax: ItemSyntax, pageUrl: string, depth: number): unknown => {
  if (element.hasAttribute(syntax.scope) && depth < 6) return itemObject(element, syntax, pageUrl, depth + 1)
  const tag = element.tagName.toUpperCase()
  const content = element.getAttribute("content") ?? (syntax === RDFA ? element.getAttribute("resource") : null)
  if (content !== null) return content.trim()
  const urlAttribute = URL_ATTRIBUTE[tag]
  const url = urlAttribute === undefined ? null : element.getAttribute(urlAttribute)
  if (url !== null) return absolute(url.trim(), pageUrl)
  if (tag === "TIME") return element.getAttribute("datetime") ?? textOf(element)
  if (tag === "DATA" || tag === "METER") return element.getAttribute("value") ?? textOf(element)
  return textOf(element)
}

const itemObject = (item: FactElement, syntax: ItemSyntax, pageUrl: string, depth: number): Record<string, unknown> => {
  const props: Record<string, unknown> = {}
  const types = typesOf((item.getAttribute(syntax.type) ?? "").split(/\s+/))
  if (types.length > 0) props["@type"] = types.length === 1 ? types[0] : types
  for (const element of item.querySelectorAll(`[${syntax.prop}]`)) {
    if (element.parentElement?.closest(`[${syntax.scope}]`) !== item) continue
    const value = propertyValue(element, syntax, pageUrl, depth)
    for (const name of (element.getAttribute(syntax.prop) ?? "").split(/\s+/)) {
      const key = name.replace(/^.*[/#:]/, "")
      if (key === "") continue
      const existing = props[key]
      props[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]
    }
  }
  return props
}

const items = (document: FactDocument, syntax: ItemSyntax, pageUrl: string): Array<Record<string, unknown>> =>
  [...document.querySelectorAll(`[${syntax.scope}]`)]
    .filter((element) => !element.hasAttribute(syntax.prop))
    .map((element) => itemObject(element, syntax, pageUrl, 0))
    .filter((props) => Object.keys(props).some((k) => k !== "@type"))

// ---- meta tags ---------------------------------------------------------------------------------

// Meta names mapped to the schema.org-style names the rest of the extractor matches on.
const META_ALIASES: Record<string, string> = {
  "og:title": "title", "twitter:title": "title", "description": "description", "og:description": "description",
  "twitter:description": "description", "og:image": "image", "og:image:url": "image", "twitter:image": "image",
  "og:url": "url", "og:site_name": "siteName", "author": "author", "article:author": "author",
  "article:published_time": "datePublished", "article:modified_time": "dateModified", "og:updated_time": "dateModified",
  "product:price:amount": "price", "og:price:amount": "price", "product:price:currency": "priceCurrency",
  "og:price:currency": "priceCurrency", "keywords": "keywords", "article:section": "category", "article:tag": "tags",
  "og:locale": "inLanguage", "product:brand": "brand", "product:availability": "availability", "og:type": "ogType"
}

const URL_META = new Set(["image", "url"])

const metaProps = (document: FactDocument, pageUrl: string): Record<string, unknown> => {
  const props: Record<string, unknown> = {}
  const title = document.querySelector("title")
  if (title !== null && textOf(title) !== "") props["title"] = textOf(title)
  const canonical = document.querySelector('link[rel="canonical"]')?.getAttribute("href")
  for (const meta of document.querySelectorAll("meta")) {
    const name = (meta.getAttribute("property") ?? meta.getAttribute("name") ?? meta.getAttribute("itemprop") ?? "").trim().toLowerCase()
    const content = meta.getAttribute("content")?.trim()
    if (name === "" || content === undefined || content === "") continue
    const alias = META_ALIASES[name]
    const value = alias !== undefined && URL_META.has(alias) ? absolute(content, pageUrl) : content
    if (props[name] === undefined) props[name] = value
    // og:title is the page's own name for itself; prefer it over <title>, which carries the site.
    if (alias !== undefined && (props[alias] === undefined || name === "og:title")) props[alias] = value
  }
  if (canonical !== undefined && canonical !== null && props["url"] === undefined) props["url"] = absolute(canonical, pageUrl)
  return props
}

// ---- assembly ----------------------------------------------------------------------------------

/** Typed objects inside an entity's properties, as nested entities. */
const nestedEntities = (source: FactSource, value: unknown, depth: number): Array<FactEntity> => {
  if (depth > 4) return []
  if (Array.isArray(value)) return value.flatMap((item) => nestedEntities(source, item, depth + 1))
  if (!isRecord(value)) return []
  const inner = Object.entries(value).flatMap(([key, v]) => (key.startsWith("@") ? [] : nestedEntities(source, v, depth + 1)))
  const types = typesOf(value["@type"])
  return depth > 0 && types.length > 0 ? [{ source, types, props: value, nested: true }, ...inner] : inner
}

const asEntities = (source: FactSource, nodes: ReadonlyArray<Record<string, unknown>>): Array<FactEntity> =>
  nodes.flatMap((props) => [{ source, types: typesOf(props["@type"]), props, nested: false }, ...nestedEntities(source, props, 0)])

/** Every structured entity of a page plus one entity for its meta tags. */
export const structuredEntities = (document: FactDocument, pageUrl: string): Array<FactEntity> => {
  const meta = metaProps(document, pageUrl)
  return [
    ...asEntities("json-ld", jsonLdNodes(document)),
    ...asEntities("microdata", items(document, MICRODATA, pageUrl)),
    ...asEntities("rdfa", items(document, RDFA, pageUrl)),
    ...(Object.keys(meta).length > 0 ? [{ source: "meta" as const, types: [], props: meta, nested: false }] : [])
  ]
}
