/**
 * The `json` format without an LLM (API.md §2.3): structured data from what the page itself
 * publishes — JSON-LD, microdata, RDFa Lite, meta tags — and what it states in labelled text
 * (definition lists, two-column tables, `Label: value` lines). With a `schema`, every property is
 * filled by name (synonyms and schema.org paths included) and coerced to its type; what the page
 * does not say is `null`, so the result always has the schema's shape. Without a schema, the
 * page's main entity is returned merged with its meta and labelled facts, narrowed to the keys the
 * `prompt` mentions when that leaves anything. A prompt next to a schema is not used: no model
 * reads it. `sources` names the kinds of data that supplied values.
 */
import { labelledEntities } from "./labelled-facts.js"
import type { JsonSchemaObject } from "./schema-coerce.js"
import { type FactRecord, type FillContext, fillObject, fillProperty } from "./schema-fill.js"
import { keyMentions, keyWords, lookupKey, matchScore, normalizeKey } from "./schema-match.js"
import { type FactEntity, type FactSource, isRecord, parseFactDocument, structuredEntities } from "./structured-sources.js"

/** What the `json` format asked for, plus the page it applies to. */
export interface StructuredJsonRequest {
  readonly schema?: JsonSchemaObject
  readonly prompt?: string
  /** The page's final URL, for resolving relative links and images. */
  readonly pageUrl: string
  /** The page's markdown, for labelled lines and lists. */
  readonly markdown: string
}

export interface StructuredJsonResult {
  readonly json: unknown
  /** The kinds of data that supplied values: json-ld, microdata, rdfa, meta, labels. */
  readonly sources: ReadonlyArray<string>
}

const MAIN_TYPES = new Set(
  ("Product ProductGroup IndividualProduct Article NewsArticle BlogPosting TechArticle ScholarlyArticle Report Recipe Event " +
    "JobPosting Book Movie TVSeries Course SoftwareApplication MobileApplication WebApplication VideoObject LocalBusiness " +
    "Restaurant Hotel Store HowTo FAQPage QAPage Dataset Review MusicAlbum MusicRecording PodcastEpisode Vehicle Car " +
    "RealEstateListing Service TouristAttraction CreativeWork").split(" ")
)
const PAGE_TYPES = new Set("WebPage ItemPage AboutPage ProfilePage CollectionPage ContactPage SearchResultsPage CheckoutPage".split(" "))
const MINOR_TYPES = new Set(
  ("WebSite Organization Corporation BreadcrumbList ListItem ItemList SearchAction EntryPoint SiteNavigationElement WPHeader " +
    "WPFooter WPSideBar ImageObject Person Brand Offer AggregateOffer AggregateRating Rating PostalAddress ContactPoint " +
    "PropertyValue QuantitativeValue MonetaryAmount PriceSpecification UnitPriceSpecification ReadAction TableRow").split(" ")
)

const typeScore = (entity: FactEntity): number => {
  if (entity.types.length === 0) return 1
  if (entity.types.some((t) => MAIN_TYPES.has(t))) return 3
  if (entity.types.every((t) => MINOR_TYPES.has(t))) return 0
  return entity.types.some((t) => PAGE_TYPES.has(t)) ? 1 : 2
}

const SOURCE_RANK: Record<FactSource, number> = { "json-ld": 0, microdata: 1, rdfa: 2, meta: 3, labels: 4 }
const isStructured = (entity: FactEntity) => entity.source !== "meta" && entity.source !== "labels"

/** Entities of one type (or one table) that occur more than once, as candidate lists. */
const entityGroups = (entities: ReadonlyArray<FactEntity>): Array<Array<FactEntity>> => {
  const groups = new Map<string, Array<FactEntity>>()
  for (const entity of entities) {
    const key = entity.group ?? `${entity.source}:${entity.types.join(",")}`
    if (entity.types.length === 0 || entity.types.includes("ListItem")) continue
    groups.set(key, [...(groups.get(key) ?? []), entity])
  }
  return [...groups.values()].filter((group) => group.length >= 2)
}

/** Sources ordered for a schema: the entity answering most properties first. */
const rankForSchema = (entities: ReadonlyArray<FactEntity>, schema: JsonSchemaObject): Array<FactRecord> => {
  const properties = isRecord(schema["properties"]) ? Object.keys(schema["properties"]) : []
  const scored = entities
    .filter((entity) => entity.group === undefined)
    .map((entity) => ({ entity, ...matchScore(entity.props, properties) }))
  scored.sort((a, b) =>
    b.matches - a.matches || Number(isStructured(b.entity)) - Number(isStructured(a.entity)) || b.exact - a.exact ||
    typeScore(b.entity) - typeScore(a.entity) || SOURCE_RANK[a.entity.source] - SOURCE_RANK[b.entity.source] ||
    Number(a.entity.nested) - Number(b.entity.nested))
  return scored.map(({ entity }) => ({ props: entity.props, source: entity.source }))
}

const fillSchema = (schema: JsonSchemaObject, entities: ReadonlyArray<FactEntity>, pageUrl: string): StructuredJsonResult => {
  const ctx: FillContext = { root: schema, pageUrl, groups: entityGroups(entities), used: new Set() }
  const sources = rankForSchema(entities, schema)
  const json = isRecord(schema["properties"])
    ? fillObject(schema, sources, ctx, 0, false)
    : fillProperty("items", schema, sources, ctx, 0, true)
  return { json, sources: [...ctx.used] }
}

// ---- without a schema -----------------------------------------------------------------------------

const withoutJsonLdKeywords = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutJsonLdKeywords)
  if (!isRecord(value)) return value
  return Object.fromEntries(
    Object.entries(value).filter(([key]) => key !== "@context" && key !== "@id").map(([key, v]) => [key, withoutJsonLdKeywords(v)])
  )
}

const camelKey = (label: string): string =>
  keyWords(label)
    .map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join("")

const mergeFacts = (entities: ReadonlyArray<FactEntity>): { facts: Record<string, unknown>; used: Set<FactSource> } => {
  const used = new Set<FactSource>()
  const candidates = entities.filter((e) => isStructured(e) && e.group === undefined)
  const primary = [...candidates].sort((a, b) =>
    typeScore(b) - typeScore(a) || Number(a.nested) - Number(b.nested) || Object.keys(b.props).length - Object.keys(a.props).length)[0]
  const facts: Record<string, unknown> = {}
  const primaryProps = primary?.props ?? {}
  if (primary !== undefined) {
    const cleaned = withoutJsonLdKeywords(primaryProps)
    if (isRecord(cleaned)) Object.assign(facts, cleaned)
    used.add(primary.source)
  }
  const added = new Set<string>()
  for (const entity of entities.filter((e) => (e.source === "meta" || e.source === "labels") && e.group === undefined)) {
    for (const [key, value] of Object.entries(entity.props)) {
      // Raw meta names (og:title, twitter:card …) are already merged under their plain names.
      if (entity.source === "meta" && key.includes(":")) continue
      const name = entity.source === "labels" ? camelKey(key) : key
      // A fact the main entity states under any name (title ~ name) is not repeated.
      if (name === "" || added.has(normalizeKey(name)) || lookupKey(primaryProps, name) !== undefined) continue
      added.add(normalizeKey(name))
      facts[name] = value
      used.add(entity.source)
    }
  }
  const related = candidates.filter((e) => e !== primary && !e.nested && typeScore(e) >= 2).map((e) => withoutJsonLdKeywords(e.props))
  if (related.length > 0) facts["related"] = related
  return { facts, used }
}

const STOP_WORDS = new Set("the and for from with that this what which page extract get find list all any give return their its about each".split(" "))

const promptWords = (prompt: string): Set<string> =>
  new Set(
    (prompt.toLowerCase().match(/\p{L}[\p{L}\p{N}]+/gu) ?? [])
      .filter((word) => word.length >= 3 && !STOP_WORDS.has(word))
      .map((word) => (word.length > 4 ? word.replace(/ies$/, "y").replace(/s$/, "") : word))
  )

/** The facts whose keys (or nested keys) the prompt's words mention. */
const narrowToPrompt = (value: unknown, words: ReadonlySet<string>, depth: number): unknown => {
  if (depth > 4) return undefined
  if (Array.isArray(value)) {
    const kept = value.map((item) => narrowToPrompt(item, words, depth + 1)).filter((item) => item !== undefined)
    return kept.length > 0 ? kept : undefined
  }
  if (!isRecord(value)) return undefined
  const kept: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (keyMentions(key, words)) kept[key] = v
    else {
      const inner = narrowToPrompt(v, words, depth + 1)
      if (inner !== undefined) kept[key] = inner
    }
  }
  return Object.keys(kept).length > 0 ? kept : undefined
}

/** Structured data for the `json` format, from the page alone (no LLM). */
export const extractStructuredJson = (html: string, request: StructuredJsonRequest): StructuredJsonResult => {
  const document = parseFactDocument(html)
  const entities = [...structuredEntities(document, request.pageUrl), ...labelledEntities(document, request.markdown)]
  // A schema without properties (`{}`, `{ type: "object" }`) names no fields: the facts are returned as without one.
  const schema = request.schema
  if (schema !== undefined && (isRecord(schema["properties"]) || schema["type"] === "array")) return fillSchema(schema, entities, request.pageUrl)
  const { facts, used } = mergeFacts(entities)
  const words = request.prompt === undefined ? new Set<string>() : promptWords(request.prompt)
  const narrowed = words.size > 0 ? narrowToPrompt(facts, words, 0) : undefined
  return { json: narrowed ?? facts, sources: [...used] }
}

