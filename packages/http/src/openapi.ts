/**
 * Corrections applied to the generated OpenAPI document (as the API's `OpenApi.Transform`):
 *
 * - The platform lists its built-in `HttpApiDecodeError` as a 400 of every endpoint, but the error
 *   middleware answers schema failures with the Firecrawl envelope; that schema is removed.
 * - `strictBody`'s index signature for hidden `__*` keys makes the JSON Schema generator emit a
 *   `propertyNames` pattern that would forbid the named properties. Strict bodies are rewritten to
 *   what the server enforces: the named properties, `__*` keys, nothing else.
 */

type Json = Record<string, unknown>

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

const DECODE_ERROR = "HttpApiDecodeError"
const DECODE_ERROR_DESCRIPTION = "The request did not match the expected schema"
const refTo = (name: string) => `#/components/schemas/${name}`

const mapRecord = (record: Json, f: (value: unknown, key: string) => unknown): Json =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v, k)]))

const isHiddenKeysPattern = (u: unknown) =>
  isRecord(u) && typeof u["pattern"] === "string" && u["pattern"].startsWith("^__")

const fixStrictBody = (schema: Json): Json => {
  if (!isHiddenKeysPattern(schema["propertyNames"]) || !isRecord(schema["properties"])) return schema
  const { propertyNames: _names, patternProperties: _patterns, ...rest } = schema
  return { ...rest, patternProperties: { "^__": {} }, additionalProperties: false }
}

const fixSchemas = (u: unknown): unknown =>
  Array.isArray(u) ? u.map(fixSchemas) : isRecord(u) ? fixStrictBody(mapRecord(u, fixSchemas)) : u

/** The schema without references to the decode error; undefined when nothing else is left. */
const withoutDecodeError = (schema: unknown): unknown => {
  if (!isRecord(schema)) return schema
  if (schema["$ref"] === refTo(DECODE_ERROR)) return undefined
  const anyOf = schema["anyOf"]
  if (!Array.isArray(anyOf)) return schema
  const rest = anyOf.filter((s) => !(isRecord(s) && s["$ref"] === refTo(DECODE_ERROR)))
  return rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : { ...schema, anyOf: rest }
}

const refNames = (schema: unknown): Array<string> => {
  if (!isRecord(schema)) return []
  const ref = schema["$ref"]
  if (typeof ref === "string") return [ref.slice(ref.lastIndexOf("/") + 1)]
  const anyOf = schema["anyOf"]
  return Array.isArray(anyOf) ? anyOf.flatMap(refNames) : []
}

const fixResponses = (responses: Json): Json => {
  const out: Json = {}
  for (const [status, response] of Object.entries(responses)) {
    if (!isRecord(response) || !isRecord(response["content"])) {
      out[status] = response
      continue
    }
    const content: Json = {}
    const refs: Array<string> = []
    for (const [type, media] of Object.entries(response["content"])) {
      const schema = isRecord(media) ? withoutDecodeError(media["schema"]) : undefined
      if (isRecord(media) && schema !== undefined) content[type] = { ...media, schema }
      refs.push(...refNames(schema))
    }
    if (Object.keys(content).length === 0) continue
    // the status' description was the decode error's; name what is left instead
    const description = response["description"] === DECODE_ERROR_DESCRIPTION && refs.length > 0
      ? refs.join(" | ")
      : response["description"]
    out[status] = { ...response, description, content }
  }
  return out
}

const fixPaths = (paths: Json): Json =>
  mapRecord(paths, (item) =>
    isRecord(item)
      ? mapRecord(item, (op) =>
        isRecord(op) && isRecord(op["responses"]) ? { ...op, responses: fixResponses(op["responses"]) } : op)
      : item)

/** Drops component schemas nothing refers to any more (the decode error and its parts). */
const pruneComponents = (spec: Json, names: ReadonlyArray<string>): Json => {
  const components = spec["components"]
  if (!isRecord(components) || !isRecord(components["schemas"])) return spec
  const schemas: Json = { ...components["schemas"] }
  for (const name of names) {
    delete schemas[name]
    if (!JSON.stringify({ ...spec, components: { ...components, schemas } }).includes(`"${refTo(name)}"`)) continue
    schemas[name] = components["schemas"][name]
  }
  return { ...spec, components: { ...components, schemas } }
}

export const fixOpenApi = (spec: Json): Json => {
  const paths = isRecord(spec["paths"]) ? fixPaths(spec["paths"]) : spec["paths"]
  const pruned = pruneComponents({ ...spec, paths }, [DECODE_ERROR, "Issue", "PropertyKey"])
  return mapRecord(pruned, (v, k) => (k === "paths" || k === "components" ? fixSchemas(v) : v))
}
