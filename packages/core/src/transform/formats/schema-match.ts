/**
 * How the local `json` format finds the value for a schema property among a page's facts: keys are
 * compared case- and format-insensitively (`date_published`, `datePublished` and `Date published`
 * are one key), each key also tries its synonyms and schema.org paths (`price` → `offers.price`,
 * `rating` → `aggregateRating.ratingValue`, `authorName` → `author.name`), a prefix naming the
 * entity is dropped (`productName` → `name`), and distinctive keys are also looked up in nested
 * objects. Values are returned as found; coercion to the schema's types is `schema-coerce.ts`.
 */
import { isRecord } from "./structured-sources.js"

/** `datePublished`, `date_published`, `Date published` → `datepublished`. */
export const normalizeKey = (key: string): string => key.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")

/** `authorName`, `author_name`, `Author name` → `["author", "name"]`. */
export const keyWords = (key: string): Array<string> =>
  key
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "")

// Normalised key → other paths that hold the same fact (dot-separated, normalised segments).
const SYNONYM_GROUPS: ReadonlyArray<ReadonlyArray<string>> = [
  ["name", "title", "headline", "productname", "ogtitle"],
  ["price", "offers.price", "offers.lowprice", "offers.pricespecification.price", "priceamount", "productpriceamount", "saleprice", "cost"],
  ["currency", "pricecurrency", "offers.pricecurrency", "offers.pricespecification.pricecurrency", "productpricecurrency"],
  ["author", "author.name", "creator", "creator.name", "byline", "writer", "articleauthor", "by"],
  ["date", "datepublished", "publishdate", "publisheddate", "publishedat", "published", "publishedtime", "pubdate", "datecreated", "uploaddate", "releasedate", "startdate"],
  ["updated", "datemodified", "modified", "modifieddate", "lastmodified", "updatedat", "modifiedtime", "lastupdated"],
  ["description", "summary", "abstract", "ogdescription", "excerpt", "subtitle", "about"],
  ["image", "image.url", "imageurl", "thumbnail", "thumbnailurl", "photo", "picture", "ogimage", "mainimage"],
  ["sku", "productid", "mpn", "itemnumber", "partnumber", "modelnumber", "model"],
  ["brand", "brand.name", "manufacturer", "manufacturer.name", "make"],
  ["rating", "aggregaterating.ratingvalue", "ratingvalue", "reviewrating.ratingvalue", "stars", "averagerating", "score"],
  ["reviewcount", "aggregaterating.reviewcount", "aggregaterating.ratingcount", "ratingcount", "reviews", "numberofreviews"],
  ["availability", "offers.availability", "instock", "stock", "stockstatus"],
  ["url", "link", "ogurl", "canonical", "permalink", "mainentityofpage"],
  ["category", "articlesection", "section", "genre", "categories"],
  ["tags", "keywords", "articletag", "topics"],
  ["publisher", "publisher.name", "sitename", "ogsitename", "source"],
  ["phone", "telephone", "phonenumber", "tel", "contactpoint.telephone"],
  ["email", "emailaddress", "contactpoint.email"],
  ["address", "location", "location.address", "streetaddress"],
  ["language", "inlanguage", "lang", "locale"],
  ["content", "body", "articlebody", "text"],
  ["company", "organization", "hiringorganization", "hiringorganization.name", "employer"],
  ["salary", "basesalary", "basesalary.value.value", "estimatedsalary"],
  ["duration", "totaltime", "timerequired"],
  ["ingredients", "recipeingredient"],
  ["steps", "instructions", "recipeinstructions"]
]

const SYNONYMS: ReadonlyMap<string, ReadonlyArray<string>> = new Map(
  SYNONYM_GROUPS.flatMap((group) => group.filter((path) => !path.includes(".")).map((key) => [key, group.filter((p) => p !== key)] as const))
)

// Words that name the entity rather than the fact: `productName` → `name`.
const ENTITY_WORDS = new Set(["product", "item", "article", "post", "page", "book", "event", "job", "recipe", "video", "course", "company", "listing", "offer"])

// Keys too generic to search for in nested objects (a brand's name is not the product's name).
const SHALLOW_KEYS = new Set(["name", "title", "url", "type", "description", "image", "id", "text", "value", "date", "link"])

const UNIT_WORDS = new Set(["kg", "g", "lb", "lbs", "oz", "cm", "mm", "m", "km", "in", "inches", "ft", "usd", "eur", "gbp", "ms", "sec", "seconds", "min", "minutes", "hours", "days", "pct", "percent", "gb", "mb", "tb", "w", "mah"])

/** The paths worth trying for a schema key, most specific first. */
export const candidatePaths = (key: string): Array<ReadonlyArray<string>> => {
  const normalized = normalizeKey(key)
  const words = keyWords(key)
  const paths: Array<string> = [normalized, ...(SYNONYMS.get(normalized) ?? [])]
  // A unit at the end names the scale, not the fact: `weight_kg` → `weight`.
  const last = words[words.length - 1]
  if (words.length > 1 && last !== undefined && UNIT_WORDS.has(last)) paths.push(words.slice(0, -1).join(""))
  // A plural key (`images`, `categories`) also looks for the singular fact.
  const singular = normalized.replace(/ies$/, "y").replace(/(?<=[^s])s$/, "")
  if (singular !== normalized) paths.push(singular, ...(SYNONYMS.get(singular) ?? []))
  if (words.length > 1) paths.push(words.join("."))
  const first = words[0]
  if (words.length > 1 && first !== undefined && ENTITY_WORDS.has(first)) {
    const rest = words.slice(1).join("")
    paths.push(rest, ...(SYNONYMS.get(rest) ?? []))
  }
  return [...new Set(paths)].map((path) => path.split("."))
}

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0)

// Fact records are built once and only read afterwards, so each record's index of normalised
// keys is computed on first lookup and kept for the record's lifetime.
const keyIndexes = new WeakMap<object, Map<string, unknown>>()

const keyIndex = (record: Readonly<Record<string, unknown>>): Map<string, unknown> => {
  let index = keyIndexes.get(record)
  if (index === undefined) {
    index = new Map()
    for (const [key, value] of Object.entries(record)) {
      const normalized = normalizeKey(key)
      if (!isEmpty(value) && !index.has(normalized)) index.set(normalized, value)
    }
    keyIndexes.set(record, index)
  }
  return index
}

/** The property of a (never mutated) record whose normalised key is `segment`. */
const child = (record: Readonly<Record<string, unknown>>, segment: string): unknown => keyIndex(record).get(segment)

/** Follows a path through records; through an array it follows the first element that has it. */
export const lookupPath = (value: unknown, path: ReadonlyArray<string>): unknown => {
  const [segment, ...rest] = path
  if (segment === undefined) return isEmpty(value) ? undefined : value
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = lookupPath(item, path)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (!isRecord(value)) return undefined
  const next = child(value, segment)
  return next === undefined ? undefined : lookupPath(next, rest)
}

const deepFind = (value: unknown, normalized: string, depth: number): unknown => {
  if (depth > 3) return undefined
  const items = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : []
  if (isRecord(value)) {
    const direct = child(value, normalized)
    if (direct !== undefined) return direct
  }
  for (const item of items) {
    const found = deepFind(item, normalized, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** The value a record holds for a schema key, or undefined. */
export const lookupKey = (record: Readonly<Record<string, unknown>>, key: string): unknown => {
  for (const path of candidatePaths(key)) {
    const found = lookupPath(record, path)
    if (found !== undefined) return found
  }
  const normalized = normalizeKey(key)
  return normalized.length >= 5 && !SHALLOW_KEYS.has(normalized) ? deepFind(record, normalized, 0) : undefined
}

/** Whether a fact key is about one of the words (used to filter facts by a prompt). */
export const keyMentions = (key: string, words: ReadonlySet<string>): boolean => {
  const normalized = normalizeKey(key)
  const related = [normalized, ...(SYNONYMS.get(normalized) ?? []).map((p) => p.replace(/\./g, ""))]
  return [...words].some((word) => related.some((k) => k.includes(word) || (k.length >= 4 && word.includes(k))))
}

/** How well a record answers a set of schema keys: keys found at all, and keys found verbatim. */
export const matchScore = (record: Readonly<Record<string, unknown>>, keys: ReadonlyArray<string>): { matches: number; exact: number } => ({
  matches: keys.filter((key) => lookupKey(record, key) !== undefined).length,
  exact: keys.filter((key) => child(record, normalizeKey(key)) !== undefined).length
})
