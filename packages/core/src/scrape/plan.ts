/**
 * From a decoded scrape request to a plan: the URL to fetch, the defaults of API.md §2.2 applied,
 * the formats to produce, how the cache may be used, and the warnings the answer will carry. Pure:
 * everything that can be refused before any network I/O is refused here, with a message that says
 * what would make the request work.
 */
import { Either } from "effect"
import { BadRequestError, ScrapeActionsNotSupportedError } from "../errors.js"
import type { ScreenshotRequest } from "../ports/browser.js"
import type { Action, Format, ScrapeRequest } from "../schema/scrape-options.js"
import { languagesOfCountry, timezoneOfCountry } from "./request-headers.js"
import { normalizeRequestUrl } from "./url.js"

export const DEFAULT_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000
const LOCKDOWN_MAX_AGE_MS = 2 * 365 * 24 * 60 * 60 * 1000
/** Upstream has no overall deadline by default; a scrape here gets one minute unless told. */
export const DEFAULT_TIMEOUT_MS = 60_000

type PiiEntity = "PERSON" | "EMAIL" | "PHONE" | "LOCATION" | "FINANCIAL" | "SECRET"

export interface ScrapePlan {
  readonly url: URL
  readonly sourceUrl: string
  readonly want: {
    readonly markdown: boolean
    readonly html: boolean
    readonly rawHtml: boolean
    readonly links: boolean
    readonly images: boolean
    readonly summary: boolean
    readonly json?: { readonly schema?: Readonly<Record<string, unknown>>; readonly prompt?: string }
    readonly changeTracking?: { readonly modes: ReadonlyArray<"git-diff" | "json">; readonly tag: string }
    readonly attributes?: ReadonlyArray<{ readonly selector: string; readonly attribute: string }>
  }
  readonly onlyMainContent: boolean
  readonly includeTags: ReadonlyArray<string>
  readonly excludeTags: ReadonlyArray<string>
  readonly removeBase64Images: boolean
  readonly blockAds: boolean
  readonly timeoutMs: number
  /** Milliseconds to let the page's scripts run in the browser after it loaded (0: none). */
  readonly waitForMs: number
  /** Run in the browser, in order, before the page is read. */
  readonly actions: ReadonlyArray<Action>
  /** The screenshot format, when asked for. */
  readonly screenshot: ScreenshotRequest | undefined
  /** The team's named browser state to start from, and whether to save it back afterwards. */
  readonly profile: { readonly name: string; readonly saveChanges: boolean } | undefined
  readonly mobile: boolean
  readonly headers: Readonly<Record<string, string>>
  readonly languages: ReadonlyArray<string>
  /** The rendered page's time zone, from `location.country`. */
  readonly timezoneId: string | undefined
  readonly skipTlsVerification: boolean
  readonly proxy: "basic" | "stealth" | "auto"
  readonly cache: {
    /** Serve a cached page younger than this (0: never read the cache). */
    readonly maxAgeMs: number
    /** Cache only: a page at least this old, or 404. */
    readonly minAgeMs: number | undefined
    readonly store: boolean
  }
  readonly lockdown: boolean
  readonly zeroDataRetention: boolean
  readonly redactPii: { readonly entities?: ReadonlyArray<PiiEntity>; readonly replaceStyle: "tag" | "mask" | "remove" } | undefined
  readonly pdf: { readonly enabled: boolean; readonly maxPages: number | undefined; readonly mode: "fast" | "auto" | "ocr" }
  readonly threatProtection: ScrapeRequest["threatProtection"]
  readonly auditMetadata: ScrapeRequest["auditMetadata"]
  readonly warnings: ReadonlyArray<string>
}

const typeOf = (f: Format): string => (typeof f === "string" ? f : f.type)

const llmOnly = ["question", "highlights", "query", "deterministicJson"]
const notYet = ["branding", "product", "menu", "audio", "video", "rawBase64"]

const refuseFormats = (
  types: ReadonlyArray<string>,
  request: ScrapeRequest,
  context: PlanContext
): BadRequestError | ScrapeActionsNotSupportedError | undefined => {
  const needs = [
    ...(types.includes("screenshot") ? ["the screenshot format"] : []),
    ...(request.actions?.length ? ["actions"] : []),
    ...(request.profile === undefined ? [] : ["profile"])
  ]
  if (needs.length > 0 && (request.lockdown === true || request.minAge !== undefined)) {
    return new BadRequestError({ message: `${needs.join(" and ")} need${needs.length === 1 ? "s" : ""} the live page, so they cannot be combined with ${request.lockdown === true ? "lockdown" : "minAge"} (cache only).` })
  }
  if (needs.length > 0 && !context.browser) {
    return new ScrapeActionsNotSupportedError({
      message: `${needs.join(" and ")} need${needs.length === 1 ? "s" : ""} a browser, and ${noBrowserHint}. ` +
        "Leave them out to scrape the page without a browser."
    })
  }
  const llm = types.filter((t) => llmOnly.includes(t))
  if (llm.length > 0) {
    return new BadRequestError({ message: `The ${llm.join(", ")} format needs an LLM provider, which this server does not have yet.` })
  }
  const later = types.filter((t) => notYet.includes(t))
  if (later.length > 0) return new BadRequestError({ message: `The ${later.join(", ")} format is not supported yet.` })
  return undefined
}

const findFormat = <T extends string>(formats: ReadonlyArray<Format>, type: T) =>
  formats.find((f): f is Extract<Format, { type: T }> => typeof f !== "string" && f.type === type)

const wanted = (formats: ReadonlyArray<Format>): ScrapePlan["want"] => {
  const types = new Set(formats.map(typeOf))
  const json = findFormat(formats, "json")
  const tracking = findFormat(formats, "changeTracking")
  const attributes = findFormat(formats, "attributes")
  return {
    markdown: types.has("markdown"),
    html: types.has("html"),
    rawHtml: types.has("rawHtml"),
    links: types.has("links"),
    images: types.has("images"),
    summary: types.has("summary"),
    ...(types.has("json")
      ? { json: { ...(json?.schema ? { schema: json.schema } : {}), ...(json?.prompt ? { prompt: json.prompt } : {}) } }
      : {}),
    ...(types.has("changeTracking") ? { changeTracking: { modes: tracking?.modes ?? [], tag: tracking?.tag ?? "" } } : {}),
    ...(attributes ? { attributes: attributes.selectors } : {})
  }
}

const screenshotOf = (formats: ReadonlyArray<Format>): ScreenshotRequest | undefined => {
  if (formats.includes("screenshot")) return {}
  const format = findFormat(formats, "screenshot")
  if (format === undefined) return undefined
  return {
    ...(format.fullPage === undefined ? {} : { fullPage: format.fullPage }),
    ...(format.quality === undefined ? {} : { quality: format.quality }),
    ...(format.viewport === undefined ? {} : { viewport: format.viewport })
  }
}

/** The request needs a browser: actions, a screenshot or a profile (waitFor and JavaScript shells prefer one). */
export const needsBrowser = (plan: Pick<ScrapePlan, "actions" | "screenshot" | "profile">): boolean =>
  plan.actions.length > 0 || plan.screenshot !== undefined || plan.profile !== undefined

const piiOf = (request: ScrapeRequest): ScrapePlan["redactPii"] => {
  const r = request.redactPII
  if (r === undefined || r === false) return undefined
  if (r === true) return { replaceStyle: "tag" }
  return { ...(r.entities ? { entities: r.entities } : {}), replaceStyle: r.replaceStyle ?? "tag" }
}

const pdfOf = (request: ScrapeRequest): ScrapePlan["pdf"] => {
  const parsers = request.parsers ?? ["pdf"]
  const pdf = parsers.find((p) => p === "pdf" || p.type === "pdf")
  if (pdf === undefined) return { enabled: false, maxPages: undefined, mode: "auto" }
  return typeof pdf === "string"
    ? { enabled: true, maxPages: undefined, mode: "auto" }
    : { enabled: true, maxPages: pdf.maxPages, mode: pdf.mode ?? "auto" }
}

/** What the server has that a plan depends on. */
export interface PlanContext {
  readonly stealthProxy: boolean
  /** A browser is installed (the Browser layer found Chromium). */
  readonly browser: boolean
}

/** Why a page was fetched without a browser although the request wanted one. */
export const noBrowserHint = "no Chromium is installed (apt-get install -y chromium-headless-shell, or set GLEANER_CHROMIUM_PATH)"

const warningsOf = (request: ScrapeRequest, want: ScrapePlan["want"], context: PlanContext) => {
  const warnings: Array<string> = []
  if ((request.waitFor ?? 0) > 0 && !context.browser) {
    warnings.push(`waitFor needs a browser, and ${noBrowserHint}: the page was fetched without running JavaScript.`)
  }
  if ((request.proxy === "stealth" || request.proxy === "enhanced") && !context.stealthProxy) {
    warnings.push("No stealth proxy is configured (GLEANER_STEALTH_PROXY_URL): the page was fetched directly.")
  }
  if (want.summary) warnings.push("The summary is extractive (sentences taken from the page): no LLM is configured.")
  if (want.json) {
    warnings.push("json was filled from the page's structured data (JSON-LD, microdata, meta tags and labelled text): no LLM is configured.")
  }
  if (pdfOf(request).mode === "ocr") warnings.push("OCR is not available: PDF text comes from the document's text layer.")
  return warnings
}

/** The plan for a request, or the error that refuses it before any fetch. */
export const planScrape = (
  request: ScrapeRequest,
  context: PlanContext
): Either.Either<ScrapePlan, BadRequestError | ScrapeActionsNotSupportedError> =>
  Either.gen(function*() {
    const url = yield* normalizeRequestUrl(request.url)
    const formats = request.formats ?? ["markdown"]
    const refusal = refuseFormats(formats.map(typeOf), request, context)
    if (refusal !== undefined) return yield* Either.left(refusal)
    const want = wanted(formats)
    const lockdown = request.lockdown ?? false
    const hasHeaders = Object.keys(request.headers ?? {}).length > 0
    return {
      url,
      sourceUrl: request.url,
      want,
      onlyMainContent: request.onlyMainContent ?? true,
      includeTags: request.includeTags ?? [],
      excludeTags: request.excludeTags ?? [],
      removeBase64Images: request.removeBase64Images ?? true,
      blockAds: request.blockAds ?? true,
      timeoutMs: request.timeout ?? DEFAULT_TIMEOUT_MS,
      waitForMs: request.waitFor ?? 0,
      actions: request.actions ?? [],
      screenshot: screenshotOf(formats),
      profile: request.profile === undefined ? undefined : { name: request.profile.name, saveChanges: request.profile.saveChanges ?? true },
      mobile: request.mobile ?? false,
      headers: request.headers ?? {},
      languages: request.location?.languages ?? languagesOfCountry(request.location?.country),
      timezoneId: timezoneOfCountry(request.location?.country),
      skipTlsVerification: request.skipTlsVerification ?? !hasHeaders,
      proxy: request.proxy === "stealth" || request.proxy === "enhanced" ? "stealth" : request.proxy === "basic" ? "basic" : "auto",
      cache: {
        maxAgeMs: request.maxAge ?? (lockdown ? LOCKDOWN_MAX_AGE_MS : DEFAULT_MAX_AGE_MS),
        minAgeMs: request.minAge,
        store: (request.storeInCache ?? true) && !(request.zeroDataRetention ?? false) && !lockdown
      },
      lockdown,
      zeroDataRetention: (request.zeroDataRetention ?? false) || lockdown,
      redactPii: piiOf(request),
      pdf: pdfOf(request),
      threatProtection: request.threatProtection,
      auditMetadata: request.auditMetadata,
      warnings: warningsOf(request, want, context)
    } satisfies ScrapePlan
  })
