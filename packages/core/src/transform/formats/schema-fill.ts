/**
 * Fills a JSON Schema from a page's facts for the local `json` format. Every property of an object
 * schema gets a value or `null` — never goes missing — so the result has the schema's shape.
 * Scalars take the first source (best entity first) whose value coerces to the property's type.
 * Nested objects are filled from the object found under their key (a string found there becomes
 * its `name`), or, for wrapper keys such as `product` or `data`, from the page itself. Arrays of
 * objects come from the best-fitting list on the page: an array under the key, an `ItemList`, a
 * set of entities of one type, or the rows of a table; arrays of scalars from arrays, `ItemList`
 * names or comma-separated text.
 */
import { coerceScalar, type JsonSchemaObject, resolveSchema, schemaItems, schemaProperties, schemaType } from "./schema-coerce.js"
import { keyWords, lookupKey, matchScore, normalizeKey } from "./schema-match.js"
import { type FactEntity, type FactSource, isRecord } from "./structured-sources.js"

/** A record to look facts up in, and where it came from. */
export interface FactRecord {
  readonly props: Readonly<Record<string, unknown>>
  readonly source: FactSource
}

export interface FillContext {
  readonly root: JsonSchemaObject
  readonly pageUrl: string
  /** Lists of entities found on the page (same type, same table). */
  readonly groups: ReadonlyArray<ReadonlyArray<FactEntity>>
  /** Sources that supplied at least one value; filled in as a side record. */
  readonly used: Set<FactSource>
}

const MAX_DEPTH = 6
const WRAPPER_KEYS = new Set(["data", "result", "results", "page", "info", "details", "item", "main", "content", "entity", "record", "product", "article", "post", "listing", "recipe", "event", "job", "book", "course"])

const hasValue = (value: unknown): boolean =>
  value !== null && (!isRecord(value) || Object.values(value).some(hasValue)) && (!Array.isArray(value) || value.length > 0)

const filledCount = (value: unknown): number => (isRecord(value) ? Object.values(value).filter(hasValue).length : 0)

/** ItemList elements (their `item` where given), an array's records, or a lone record. */
const listElements = (value: unknown): Array<Record<string, unknown>> => {
  if (Array.isArray(value)) return value.flatMap(listElements)
  if (!isRecord(value)) return []
  const elements = value["itemListElement"]
  if (elements !== undefined) return (Array.isArray(elements) ? elements : [elements]).flatMap(listElements)
  const item = value["item"]
  return [isRecord(item) ? { ...value, ...item } : value]
}

const scalarList = (value: unknown, items: JsonSchemaObject, key: string, ctx: FillContext): Array<unknown> => {
  const raw = Array.isArray(value)
    ? value
    : isRecord(value) && value["itemListElement"] !== undefined
      ? listElements(value)
      : typeof value === "string" && schemaType(items) !== "object"
        ? value.split(/\s*(?:[,;|\n]|\s·\s)\s*/)
        : [value]
  const coerced = raw.map((item) => coerceScalar(item, items, key, ctx.pageUrl)).filter((item) => item !== null && item !== "")
  return [...new Map(coerced.map((item) => [JSON.stringify(item), item])).values()]
}

const singular = (word: string): string => word.replace(/ies$/, "y").replace(/(?<=[^s])s$/, "")

const objectList = (key: string, items: JsonSchemaObject, sources: ReadonlyArray<FactRecord>, ctx: FillContext, depth: number): Array<unknown> | null => {
  const wanted = singular(normalizeKey(keyWords(key).at(-1) ?? key))
  const candidates: Array<{ elements: Array<FactRecord>; bonus: number }> = []
  for (const source of sources) {
    const found = lookupKey(source.props, key)
    if (found !== undefined) candidates.push({ elements: listElements(found).map((props) => ({ props, source: source.source })), bonus: 0.5 })
  }
  for (const group of ctx.groups) {
    const typeMatches = group.some((entity) => entity.types.some((t) => normalizeKey(t) === wanted))
    candidates.push({ elements: group.map((entity) => ({ props: entity.props, source: entity.source })), bonus: typeMatches ? 0.5 : 0 })
  }
  const propertyCount = Math.max(1, schemaProperties(items).length)
  let best: { rows: Array<unknown>; score: number; used: Set<FactSource> } | undefined
  for (const { elements, bonus } of candidates) {
    // Each candidate is tried on a scratch record of sources, so only the chosen list counts.
    const scratch: FillContext = { ...ctx, used: new Set() }
    const rows = elements.map((element) => fillObject(items, [element], scratch, depth + 1, false)).filter((row) => filledCount(row) > 0)
    if (rows.length === 0) continue
    const score = rows.reduce<number>((sum, row) => sum + filledCount(row), 0) / (rows.length * propertyCount) + bonus
    if (best === undefined || score > best.score) best = { rows, score, used: scratch.used }
  }
  if (best === undefined) return null
  for (const source of best.used) ctx.used.add(source)
  return best.rows
}

const fillArray = (key: string, schema: JsonSchemaObject, sources: ReadonlyArray<FactRecord>, ctx: FillContext, depth: number): unknown => {
  const items = schemaItems(schema, ctx.root)
  if (schemaType(items) === "object" && schemaProperties(items).length > 0) return objectList(key, items, sources, ctx, depth)
  for (const source of sources) {
    const found = lookupKey(source.props, key)
    if (found === undefined) continue
    const list = scalarList(found, items, key, ctx)
    if (list.length > 0) {
      ctx.used.add(source.source)
      return list
    }
  }
  return null
}

const fillNestedObject = (key: string, schema: JsonSchemaObject, sources: ReadonlyArray<FactRecord>, ctx: FillContext, depth: number, onlyChild: boolean): unknown => {
  for (const source of sources) {
    const found = lookupKey(source.props, key)
    const record = Array.isArray(found) ? found.find(isRecord) : found
    if (isRecord(record)) {
      const filled = fillObject(schema, [{ props: record, source: source.source }], ctx, depth + 1, false)
      if (filledCount(filled) > 0) return filled
    } else if (typeof found === "string" || typeof found === "number") {
      // A plain value where an object is asked for (`"author": "Jane"`) names the object.
      const nameKey = schemaProperties(schema).map(([k]) => k).find((k) => ["name", "title", "value", "text", "label"].includes(normalizeKey(k)))
      if (nameKey !== undefined) return fillObject(schema, [{ props: { [nameKey]: found }, source: source.source }], ctx, depth + 1, false)
    }
  }
  const wrapper = onlyChild || WRAPPER_KEYS.has(normalizeKey(key)) ||
    ctx.groups.flat().some((entity) => entity.types.some((t) => normalizeKey(t) === singular(normalizeKey(key))))
  if (!wrapper) return null
  // The page's sources again, best for this object's own keys first (a `page` wrapper's `title`
  // is the page's title rather than the name of the first product on it).
  const keys = schemaProperties(schema).map(([k]) => k)
  const scored = sources.map((source, index) => ({ source, index, ...matchScore(source.props, keys) }))
  scored.sort((a, b) => b.matches - a.matches || b.exact - a.exact || a.index - b.index)
  const filled = fillObject(schema, scored.map(({ source }) => source), ctx, depth + 1, false)
  return filledCount(filled) > 0 ? filled : null
}

const fillScalar = (key: string, schema: JsonSchemaObject, sources: ReadonlyArray<FactRecord>, ctx: FillContext): unknown => {
  const untyped = schemaType(schema) === undefined && schema["enum"] === undefined
  for (const source of sources) {
    const found = lookupKey(source.props, key)
    if (found === undefined) continue
    const value = untyped ? found : coerceScalar(found, schema, key, ctx.pageUrl)
    if (value !== null) {
      ctx.used.add(source.source)
      return value
    }
  }
  return null
}

/** The value of one property: filled by its type from the sources, or null. */
export const fillProperty = (key: string, rawSchema: unknown, sources: ReadonlyArray<FactRecord>, ctx: FillContext, depth: number, onlyChild: boolean): unknown => {
  const schema = resolveSchema(rawSchema, ctx.root)
  const type = schemaType(schema)
  if (depth > MAX_DEPTH) return null
  if (type === "object" && schemaProperties(schema).length > 0) return fillNestedObject(key, schema, sources, ctx, depth, onlyChild)
  if (type === "array") return fillArray(key, schema, sources, ctx, depth)
  return fillScalar(key, schema, sources, ctx)
}

/** An object with every property of the schema, each filled or null. */
export const fillObject = (schema: JsonSchemaObject, sources: ReadonlyArray<FactRecord>, ctx: FillContext, depth: number, onlyChild: boolean): Record<string, unknown> => {
  const properties = schemaProperties(schema)
  const single = onlyChild || properties.length === 1
  return Object.fromEntries(properties.map(([key, propertySchema]) => [key, fillProperty(key, propertySchema, sources, ctx, depth, single)]))
}
