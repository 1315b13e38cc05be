/**
 * The credit rules of the Firecrawl v2 API (API.md §5), in one module every capability calls.
 * Pure functions: what an operation costs, never whether it may run.
 */

/** One credit is worth this many tokens in the token-usage endpoints. */
export const TOKENS_PER_CREDIT = 15

export const creditsToTokens = (credits: number): number => credits * TOKENS_PER_CREDIT

/** What a scraped document cost, from what the scrape asked for and found. */
export interface DocumentCostInput {
  /** A `json` format, or changeTracking in `json` mode, was produced (LLM extraction). */
  readonly json?: boolean
  /** Extra LLM formats billed like json: `question`, `highlights`, `audio`, `video` (each +4). */
  readonly extraLlmFormats?: number
  readonly lockdown?: boolean
  /** Zero data retention requested (outside lockdown). */
  readonly zeroDataRetention?: boolean
  /** Pages of a parsed PDF; every page beyond the first costs one more credit. */
  readonly pdfPages?: number
  readonly redactPii?: boolean
}

/** Credits for one scraped document: base 1; json → 5; +4 per other LLM format, lockdown, PII. */
export const documentCredits = (input: DocumentCostInput): number => {
  const pdfExtra = Math.max(0, (input.pdfPages ?? 1) - 1)
  return (
    (input.json ? 5 : 1) +
    4 * (input.extraLlmFormats ?? 0) +
    (input.lockdown ? 4 : 0) +
    (input.zeroDataRetention && !input.lockdown ? 1 : 0) +
    pdfExtra +
    (input.redactPii ? 4 + 4 * pdfExtra : 0)
  )
}

/** A failed scrape costs nothing, except a lockdown cache miss (1). */
export const failedScrapeCredits = (input: { readonly lockdownCacheMiss?: boolean }): number =>
  input.lockdownCacheMiss ? 1 : 0

/** Map: one credit per call. */
export const MAP_CREDITS = 1

/** Search: 2 credits per started block of 10 results (10 with zero data retention), scrapes extra. */
export const searchCredits = (results: number, options: { readonly zeroDataRetention?: boolean } = {}): number =>
  Math.ceil(Math.max(0, results) / 10) * (options.zeroDataRetention ? 10 : 2)

/** Extract: tokens estimated from the result size, then credits = ceil(tokens / 15). */
export const extractCredits = (resultJson: string): number =>
  Math.ceil(Math.floor(resultJson.length / 4 + 300) / TOKENS_PER_CREDIT)

/** Browser sessions: 2 credits a minute, 7 once a prompt was used; at least one minute. */
export const browserSessionCredits = (durationMs: number, options: { readonly usedPrompt?: boolean } = {}): number => {
  const perMinute = options.usedPrompt ? 7 : 2
  return Math.max(1, Math.ceil(durationMs / 60_000)) * perMinute
}

/** Monitor create, update and run cost at least one credit up front (pages are billed as scrapes). */
export const MONITOR_MIN_CREDITS = 1

/**
 * Credits a request must be able to afford before it starts (upstream's pre-check): the route's
 * minimum, else the body's `limit`, else the number of URLs, else one.
 */
export const requiredCredits = (input: {
  readonly routeMinimum?: number
  readonly limit?: number
  readonly urls?: number
}): number => input.routeMinimum ?? input.limit ?? input.urls ?? 1
