/**
 * The scrape request (API.md §2.1–2.4): scrapeOptions, formats and actions as Schemas, the one
 * source of decoding, types and the OpenAPI document. Cross-field rules (waitFor ≤ timeout/2,
 * changeTracking needs markdown, …) are filters on the whole request so their messages reach the
 * caller with the field's path. v1 fields are refused with a message naming their v2 replacement.
 */
import { Schema } from "effect"
import { strictBody } from "./common.js"

const Int = Schema.Int
const between = (min: number, max: number) => Int.pipe(Schema.between(min, max))

/** A field removed in v2: refused with a message that names its replacement. */
/** A v1 field: refused with a message naming its v2 replacement. */
export const removedInV2 = (message: string) =>
  Schema.optional(Schema.Unknown.pipe(Schema.filter(() => message, { description: `Removed in v2: ${message}` })))

export const JsonSchemaObject = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  identifier: "JsonSchemaObject",
  description: "A JSON Schema object"
})

const simpleFormats = [
  "markdown", "html", "rawHtml", "rawBase64", "links", "images", "summary", "branding", "product", "menu", "audio",
  "video", "screenshot", "changeTracking", "json"
] as const

const FormatName = Schema.Literal(...simpleFormats)

const JsonFormat = Schema.Struct({
  type: Schema.Literal("json"),
  schema: Schema.optional(JsonSchemaObject),
  prompt: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000)))
})

const DeterministicJsonFormat = Schema.Struct({
  type: Schema.Literal("deterministicJson"),
  schema: Schema.optional(JsonSchemaObject),
  prompt: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000)))
})

const ChangeTrackingFormat = Schema.Struct({
  type: Schema.Literal("changeTracking"),
  modes: Schema.optional(Schema.Array(Schema.Literal("git-diff", "json"))),
  schema: Schema.optional(JsonSchemaObject),
  prompt: Schema.optional(Schema.String),
  tag: Schema.optional(Schema.NullOr(Schema.String))
})

export const Viewport = Schema.Struct({ width: between(1, 7680), height: between(1, 4320) })

const ScreenshotFormat = Schema.Struct({
  type: Schema.Literal("screenshot"),
  fullPage: Schema.optional(Schema.Boolean),
  quality: Schema.optional(between(1, 100)),
  viewport: Schema.optional(Viewport)
})

const AttributesFormat = Schema.Struct({
  type: Schema.Literal("attributes"),
  selectors: Schema.Array(Schema.Struct({ selector: Schema.String, attribute: Schema.String }))
})

const text10k = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(10_000))
const QuestionFormat = Schema.Struct({ type: Schema.Literal("question"), question: text10k })
const HighlightsFormat = Schema.Struct({ type: Schema.Literal("highlights"), query: text10k })
const QueryFormat = Schema.Struct({
  type: Schema.Literal("query"),
  prompt: text10k,
  mode: Schema.optional(Schema.Literal("freeform", "directQuote"))
})

/** `{type:"markdown"}` and the other formats that take no options. */
const PlainFormat = Schema.Struct({
  type: Schema.Literal(...simpleFormats.filter((f) => f !== "json" && f !== "changeTracking" && f !== "screenshot"))
})

/** v1 format strings get a message naming the v2 form. */
const V1FormatString = Schema.Literal("extract", "screenshot@fullPage").pipe(
  Schema.filter((f) =>
    f === "extract"
      ? "The \"extract\" format is v1; use {\"type\": \"json\", \"schema\": …, \"prompt\": …}"
      : "\"screenshot@fullPage\" is v1; use {\"type\": \"screenshot\", \"fullPage\": true}")
)

export const Format = Schema.Union(
  FormatName,
  JsonFormat,
  ChangeTrackingFormat,
  ScreenshotFormat,
  AttributesFormat,
  QuestionFormat,
  HighlightsFormat,
  QueryFormat,
  DeterministicJsonFormat,
  PlainFormat,
  V1FormatString
).annotations({ identifier: "Format" })
export type Format = typeof Format.Type

// --- Actions (§2.4): decoded now, run by the browser layer ------------------------------------

const PdfPageFormat = Schema.Literal("A0", "A1", "A2", "A3", "A4", "A5", "A6", "Letter", "Legal", "Tabloid", "Ledger")

export const Action = Schema.Union(
  Schema.Struct({ type: Schema.Literal("wait"), milliseconds: Schema.optional(Int.pipe(Schema.positive())), selector: Schema.optional(Schema.String) }),
  Schema.Struct({ type: Schema.Literal("click"), selector: Schema.String, all: Schema.optional(Schema.Boolean) }),
  Schema.Struct({
    type: Schema.Literal("screenshot"),
    fullPage: Schema.optional(Schema.Boolean),
    quality: Schema.optional(between(1, 100)),
    viewport: Schema.optional(Viewport)
  }),
  Schema.Struct({ type: Schema.Literal("write"), text: Schema.String }),
  Schema.Struct({ type: Schema.Literal("press"), key: Schema.String }),
  Schema.Struct({ type: Schema.Literal("scroll"), direction: Schema.optional(Schema.Literal("up", "down")), selector: Schema.optional(Schema.String) }),
  Schema.Struct({ type: Schema.Literal("scrape") }),
  Schema.Struct({ type: Schema.Literal("executeJavascript"), script: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("pdf"),
    landscape: Schema.optional(Schema.Boolean),
    scale: Schema.optional(Schema.Number),
    format: Schema.optional(PdfPageFormat)
  })
).annotations({ identifier: "Action" })
export type Action = typeof Action.Type

// --- Options --------------------------------------------------------------------------------

const PdfParser = Schema.Union(
  Schema.Literal("pdf"),
  Schema.Struct({
    type: Schema.Literal("pdf"),
    mode: Schema.optional(Schema.Literal("fast", "auto", "ocr")),
    maxPages: Schema.optional(between(1, 10_000)),
    pages: Schema.optional(Schema.Boolean),
    pageMarkdown: Schema.optional(Schema.Boolean),
    blocks: Schema.optional(Schema.Boolean),
    pageMarkers: Schema.optional(Schema.Boolean)
  })
)

export const PiiEntity = Schema.Literal("PERSON", "EMAIL", "PHONE", "LOCATION", "FINANCIAL", "SECRET")

const RedactPii = Schema.Union(
  Schema.Boolean,
  Schema.Struct({
    mode: Schema.optional(Schema.Literal("accurate", "aggressive", "fast")),
    entities: Schema.optional(Schema.Array(PiiEntity)),
    replaceStyle: Schema.optional(Schema.Literal("tag", "mask", "remove"))
  })
)

const ThreatProtection = Schema.Struct({
  mode: Schema.optional(Schema.Literal("off", "normal")),
  riskScoreThreshold: Schema.optional(between(0, 100)),
  blacklist: Schema.optional(Schema.Array(Schema.String)),
  whitelist: Schema.optional(Schema.Array(Schema.String)),
  blockedTlds: Schema.optional(Schema.Array(Schema.String)),
  failurePolicy: Schema.optional(Schema.Literal("open", "closed"))
})

/** Every option of a scrape (also `scrapeOptions` inside crawl, batch scrape and search). */
export const scrapeOptionFields = {
  formats: Schema.optional(Schema.Array(Format)),
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  includeTags: Schema.optional(Schema.Array(Schema.String)),
  excludeTags: Schema.optional(Schema.Array(Schema.String)),
  onlyMainContent: Schema.optional(Schema.Boolean),
  onlyCleanContent: Schema.optional(Schema.Boolean),
  /** Whole deadline in milliseconds (≥ 1000). */
  timeout: Schema.optional(Int.pipe(Schema.greaterThanOrEqualTo(1000))),
  /** Milliseconds to wait for the page to render (browser engine), ≤ 60000 and ≤ timeout/2. */
  waitFor: Schema.optional(between(0, 60_000)),
  mobile: Schema.optional(Schema.Boolean),
  parsers: Schema.optional(Schema.Array(PdfParser)),
  actions: Schema.optional(Schema.Array(Action).pipe(Schema.maxItems(50))),
  location: Schema.optional(Schema.Struct({
    country: Schema.optional(Schema.String),
    languages: Schema.optional(Schema.Array(Schema.String))
  })),
  skipTlsVerification: Schema.optional(Schema.Boolean),
  removeBase64Images: Schema.optional(Schema.Boolean),
  fastMode: Schema.optional(Schema.Boolean),
  blockAds: Schema.optional(Schema.Boolean),
  proxy: Schema.optional(Schema.Literal("basic", "stealth", "enhanced", "auto")),
  /** Serve from cache when the cached page is younger than this many ms (default 2 days; 0: never). */
  maxAge: Schema.optional(Int.pipe(Schema.nonNegative())),
  /** Cache only: serve a cached page at least this old, or 404 SCRAPE_NO_CACHED_DATA. */
  minAge: Schema.optional(Int.pipe(Schema.nonNegative())),
  storeInCache: Schema.optional(Schema.Boolean),
  lockdown: Schema.optional(Schema.Boolean),
  redactPII: Schema.optional(RedactPii),
  profile: Schema.optional(Schema.Struct({
    name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
    saveChanges: Schema.optional(Schema.Boolean)
  })),
  threatProtection: Schema.optional(ThreatProtection),
  auditMetadata: Schema.optional(Schema.Struct({ username: Schema.String })),
  // v1 fields, refused with their replacement
  parsePDF: removedInV2("parsePDF is v1; use \"parsers\": [\"pdf\"] (or [] to leave PDFs unparsed)"),
  pageOptions: removedInV2("pageOptions is v1; its fields (onlyMainContent, includeTags, waitFor, …) now sit at the top level"),
  extractorOptions: removedInV2("extractorOptions is v1; use a {\"type\": \"json\"} format"),
  jsonOptions: removedInV2("jsonOptions is v1; use {\"type\": \"json\", \"schema\": …, \"prompt\": …} in formats"),
  changeTrackingOptions: removedInV2("changeTrackingOptions is v1; use {\"type\": \"changeTracking\", …} in formats"),
  geolocation: removedInV2("geolocation is v1; use \"location\"")
}

type OptionsLike = {
  readonly formats?: ReadonlyArray<Format> | undefined
  readonly timeout?: number | undefined
  readonly waitFor?: number | undefined
  readonly actions?: ReadonlyArray<Action> | undefined
}

const formatType = (f: Format): string => (typeof f === "string" ? f : f.type)

/** The rules that span fields, each with the path and message a caller can act on. */
export const checkScrapeOptions = (o: OptionsLike): ReadonlyArray<{ readonly path: ReadonlyArray<string>; readonly message: string }> => {
  const problems: Array<{ path: ReadonlyArray<string>; message: string }> = []
  const types = (o.formats ?? []).map(formatType)
  if (o.timeout !== undefined && o.waitFor !== undefined && o.waitFor > o.timeout / 2) {
    problems.push({ path: ["waitFor"], message: "waitFor must not exceed half of timeout" })
  }
  if (types.includes("changeTracking") && !types.includes("markdown")) {
    problems.push({ path: ["formats"], message: "The changeTracking format requires the markdown format to be specified as well" })
  }
  if (types.filter((t) => t === "screenshot").length > 1) {
    problems.push({ path: ["formats"], message: "Only one screenshot format may be requested" })
  }
  if (types.includes("rawBase64") && types.length > 1) {
    problems.push({ path: ["formats"], message: "The rawBase64 format must be the only format" })
  }
  if (types.includes("json") && types.includes("deterministicJson")) {
    problems.push({ path: ["formats"], message: "json and deterministicJson cannot be requested together" })
  }
  const waits = (o.actions ?? []).reduce((ms, a) => ms + (a.type === "wait" ? a.milliseconds ?? 1000 : 0), o.waitFor ?? 0)
  if (waits > 60_000) problems.push({ path: ["actions"], message: "The sum of waitFor and wait actions must not exceed 60 seconds" })
  for (const [i, a] of (o.actions ?? []).entries()) {
    if (a.type === "wait" && (a.milliseconds === undefined) === (a.selector === undefined)) {
      problems.push({ path: ["actions", String(i)], message: "A wait action takes exactly one of milliseconds or selector" })
    }
  }
  return problems
}

/** `scrapeOptions` as nested in crawl, batch scrape and search bodies (strict through its parent). */
export const ScrapeOptions = Schema.Struct(scrapeOptionFields).pipe(
  Schema.filter((o) => checkScrapeOptions(o).map((p) => ({ path: p.path, message: p.message })))
).annotations({ identifier: "ScrapeOptions" })
export type ScrapeOptions = typeof ScrapeOptions.Type

/** `POST /v2/scrape`: the options plus `url` and `zeroDataRetention`. */
export const ScrapeRequest = strictBody({
  url: Schema.String.pipe(Schema.minLength(1)),
  zeroDataRetention: Schema.optional(Schema.Boolean),
  ...scrapeOptionFields
}).pipe(
  Schema.filter((o) => checkScrapeOptions(o).map((p) => ({ path: p.path, message: p.message })))
).annotations({ identifier: "ScrapeRequest" })
export type ScrapeRequest = typeof ScrapeRequest.Type
