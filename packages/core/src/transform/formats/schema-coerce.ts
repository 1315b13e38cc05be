/**
 * JSON Schema helpers and value coercion for the local `json` format: reads a (sub)schema's type,
 * properties, items and enum (following local `$ref`s and the first non-null branch of
 * `anyOf`/`oneOf`), and turns a found fact into that type — a number from "$1,299.00" or
 * "1.299,00 €", a boolean from "Yes" or `https://schema.org/InStock`, a string from a schema.org
 * object (its name, or its url for images), an ISO date for `format: date-time`, an absolute URL
 * for `format: uri`. A value that cannot be coerced becomes `null`.
 */
import { normalizeKey } from "./schema-match.js"
import { isRecord } from "./structured-sources.js"

/** A JSON Schema object, as the `json` format's `schema` carries it. */
export type JsonSchemaObject = Readonly<Record<string, unknown>>

export type SchemaType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null"

const SCHEMA_TYPES: ReadonlyArray<string> = ["object", "array", "string", "number", "integer", "boolean", "null"]

const isSchemaType = (value: unknown): value is SchemaType => typeof value === "string" && SCHEMA_TYPES.includes(value)

/** Follows `$ref` (local pointers only) and picks the first non-null `anyOf`/`oneOf`/`allOf` branch. */
export const resolveSchema = (schema: unknown, root: JsonSchemaObject, depth = 0): JsonSchemaObject => {
  if (!isRecord(schema) || depth > 8) return {}
  const ref = schema["$ref"]
  if (typeof ref === "string" && ref.startsWith("#/")) {
    const target = ref
      .slice(2)
      .split("/")
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<unknown>((node, part) => (isRecord(node) ? node[part] : undefined), root)
    return resolveSchema(target, root, depth + 1)
  }
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = schema[keyword]
    if (schema["type"] === undefined && Array.isArray(branches)) {
      const branch = branches.map((b) => resolveSchema(b, root, depth + 1)).find((b) => schemaType(b) !== "null")
      if (branch !== undefined) return branch
    }
  }
  return schema
}

/** The schema's type (the first non-null one of a list), inferred from its keywords if unstated. */
export const schemaType = (schema: JsonSchemaObject): SchemaType | undefined => {
  const type = schema["type"]
  if (isSchemaType(type)) return type
  if (Array.isArray(type)) return type.filter(isSchemaType).find((t) => t !== "null") ?? (type.includes("null") ? "null" : undefined)
  if (isRecord(schema["properties"])) return "object"
  if (schema["items"] !== undefined) return "array"
  const enumValues = schema["enum"]
  if (Array.isArray(enumValues) && enumValues.length > 0) {
    const first: unknown = enumValues[0]
    return typeof first === "number" ? "number" : typeof first === "boolean" ? "boolean" : "string"
  }
  return undefined
}

export const schemaProperties = (schema: JsonSchemaObject): Array<[string, unknown]> => {
  const properties = schema["properties"]
  return isRecord(properties) ? Object.entries(properties) : []
}

export const schemaItems = (schema: JsonSchemaObject, root: JsonSchemaObject): JsonSchemaObject => resolveSchema(schema["items"], root)

// ---- scalars ------------------------------------------------------------------------------------

/** The first number in a text, reading thousands and decimal separators as written. */
export const parseLooseNumber = (text: string): number | undefined => {
  const token = /-?\d{1,3}(?:[ '\u00a0\u202f]\d{3})+(?:[.,]\d+)?|-?\d[\d.,]*\d|-?\d/.exec(text)?.[0]
  if (token === undefined) return undefined
  let cleaned = token.replace(/[ '\u00a0\u202f]/g, "")
  const lastComma = cleaned.lastIndexOf(",")
  const lastDot = cleaned.lastIndexOf(".")
  if (lastComma !== -1 && lastDot !== -1) {
    cleaned = lastComma > lastDot ? cleaned.replace(/\./g, "").replace(",", ".") : cleaned.replace(/,/g, "")
  } else if (lastComma !== -1) {
    cleaned = /^-?\d{1,3}(?:,\d{3})+$/.test(cleaned) ? cleaned.replace(/,/g, "") : cleaned.replace(/,/g, ".")
  } else if (/^-?\d{1,3}(?:\.\d{3}){2,}$/.test(cleaned)) {
    cleaned = cleaned.replace(/\./g, "")
  }
  const value = Number(cleaned)
  return Number.isFinite(value) ? value : undefined
}

// Where a schema.org object stands for one scalar, the property that holds it.
const TEXT_KEYS = ["name", "@value", "text", "headline", "title", "url", "contentUrl", "value", "price", "ratingValue", "streetAddress", "addressLocality"]
const NUMBER_KEYS = ["price", "lowPrice", "value", "ratingValue", "@value", "amount", "minValue", "maxValue"]

const pick = (record: Readonly<Record<string, unknown>>, keys: ReadonlyArray<string>): unknown => {
  for (const key of keys) if (record[key] !== undefined && record[key] !== null && record[key] !== "") return record[key]
  return undefined
}

export const toText = (value: unknown, preferUrl: boolean): string | null => {
  if (typeof value === "string") return value.trim() === "" ? null : value.trim()
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value)) {
    const texts = value.map((item) => toText(item, preferUrl)).filter((t): t is string => t !== null)
    if (texts.length === 0) return null
    return preferUrl ? (texts[0] ?? null) : [...new Set(texts)].join(", ")
  }
  if (isRecord(value)) return toText(pick(value, preferUrl ? ["url", "contentUrl", ...TEXT_KEYS] : TEXT_KEYS), preferUrl)
  return null
}

export const toNumber = (value: unknown, integer: boolean): number | null => {
  let result: number | undefined
  if (typeof value === "number") result = value
  else if (typeof value === "string") result = parseLooseNumber(value)
  else if (Array.isArray(value)) result = value.map((v) => toNumber(v, false)).find((n): n is number => n !== null)
  else if (isRecord(value)) return toNumber(pick(value, NUMBER_KEYS), integer)
  if (result === undefined || !Number.isFinite(result)) return null
  return integer ? Math.round(result) : result
}

const TRUE_WORDS = /^(?:true|yes|y|1|on|available|in stock|instock|instoreonly|onlineonly|limitedavailability|preorder|presale|backorder)$/
const FALSE_WORDS = /^(?:false|no|n|0|off|none|out of stock|outofstock|soldout|sold out|discontinued|unavailable)$/

export const toBoolean = (value: unknown): boolean | null => {
  if (typeof value === "boolean") return value
  if (typeof value === "number") return value !== 0
  if (Array.isArray(value)) return value.length === 0 ? null : toBoolean(value[0])
  if (isRecord(value)) return toBoolean(pick(value, ["availability", "value", "@value", "name"]))
  if (typeof value !== "string") return null
  const word = value.trim().toLowerCase().replace(/^.*[/#]/, "")
  return TRUE_WORDS.test(word) ? true : FALSE_WORDS.test(word) ? false : null
}

const matchEnum = (value: unknown, options: ReadonlyArray<unknown>): unknown => {
  if (options.some((option) => option === value)) return value
  const text = toText(value, false)
  if (text === null) return null
  const wanted = normalizeKey(text.replace(/^.*[/#]/, ""))
  return options.find((option) => typeof option === "string" && normalizeKey(option) === wanted) ?? null
}

const formatString = (text: string, format: unknown, pageUrl: string): string => {
  if (format === "date-time" || format === "date") {
    const time = Date.parse(text)
    if (Number.isNaN(time)) return text
    const iso = new Date(time).toISOString()
    return format === "date" ? iso.slice(0, 10) : iso
  }
  if (format === "uri" || format === "url" || format === "uri-reference") {
    try {
      return new URL(text, pageUrl).href
    } catch {
      return text
    }
  }
  return text
}

const URLISH_KEY = /(?:url|link|href|image|img|photo|picture|thumbnail|logo|icon|avatar)$/

/** Coerces a found fact to a scalar schema (string, number, integer, boolean, enum). */
export const coerceScalar = (value: unknown, schema: JsonSchemaObject, key: string, pageUrl: string): unknown => {
  const enumValues = schema["enum"]
  const type = schemaType(schema)
  const coerced =
    type === "number" || type === "integer"
      ? toNumber(value, type === "integer")
      : type === "boolean"
        ? toBoolean(value)
        : type === "null"
          ? null
          : (() => {
              const text = toText(value, URLISH_KEY.test(normalizeKey(key)))
              return text === null ? null : formatString(text, schema["format"], pageUrl)
            })()
  return Array.isArray(enumValues) ? matchEnum(coerced ?? value, enumValues) : coerced
}
