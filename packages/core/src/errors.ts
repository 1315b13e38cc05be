/**
 * The one catalogue of failures. Every expected failure in Gleaner carries a stable `code` from
 * this table; the table alone decides the HTTP status and whether a job that failed with it
 * should be retried. Error classes are Schema-tagged so they survive the job queue (they are
 * encoded into the store and decoded by whoever reads the job).
 */
import { Schema } from "effect"

/** How a job that failed with this code should be treated by the queue. */
export type RetryDisposition = "retry" | "never"

interface CatalogueEntry {
  readonly status: number
  readonly retry: RetryDisposition
}

const entry = (status: number, retry: RetryDisposition = "never"): CatalogueEntry => ({ status, retry })

export const errorCatalogue = {
  BAD_REQUEST: entry(400),
  BAD_REQUEST_INVALID_JSON: entry(400),
  UNAUTHORIZED: entry(401),
  INSUFFICIENT_CREDITS: entry(402),
  FORBIDDEN: entry(403),
  NOT_FOUND: entry(404),
  CONFLICT: entry(409),
  GONE: entry(410),
  PAYLOAD_TOO_LARGE: entry(413),
  RATE_LIMIT_EXCEEDED: entry(429),
  QUEUE_FULL: entry(429, "retry"),
  UNKNOWN_ERROR: entry(500, "retry"),
  SERVICE_UNAVAILABLE: entry(503, "retry"),
  // Scrape and job codes of the upstream API (§1.4); classes arrive with the capabilities.
  SCRAPE_TIMEOUT: entry(408, "retry"),
  SCRAPE_ALL_ENGINES_FAILED: entry(500, "retry"),
  SCRAPE_SSL_ERROR: entry(500),
  SCRAPE_SITE_ERROR: entry(500, "retry"),
  SCRAPE_DNS_RESOLUTION_ERROR: entry(200),
  SCRAPE_UNSUPPORTED_FILE_ERROR: entry(500),
  SCRAPE_ACTION_ERROR: entry(500),
  SCRAPE_NO_CACHED_DATA: entry(404),
  SCRAPE_LOCKDOWN_CACHE_MISS: entry(404),
  SCRAPE_ACTIONS_NOT_SUPPORTED: entry(400),
  SCRAPE_JOB_CANCELLED: entry(500),
  SCRAPE_RETRY_LIMIT: entry(500),
  SCRAPE_SITEMAP_ERROR: entry(500, "retry"),
  CRAWL_DENIAL: entry(403),
  MAP_TIMEOUT: entry(408),
  MAP_FAILED: entry(500, "retry"),
  UNSAFE_ADDRESS: entry(403),
  // lower case on purpose: upstream sends it so
  unsafe_domain_blocked: entry(403)
} as const satisfies Record<string, CatalogueEntry>

export type ErrorCode = keyof typeof errorCatalogue

export const errorStatus = (code: ErrorCode): number => errorCatalogue[code].status
export const errorRetry = (code: ErrorCode): RetryDisposition => errorCatalogue[code].retry

/** The fields every Gleaner error carries: its code, a message a user can act on, details. */
const coded = <C extends ErrorCode>(code: C) => ({
  code: Schema.optionalWith(Schema.Literal(code), { default: () => code }),
  message: Schema.String,
  details: Schema.optional(Schema.Unknown)
})

export class BadRequestError extends Schema.TaggedError<BadRequestError>()(
  "BadRequestError",
  coded("BAD_REQUEST")
) {}

export class InvalidJsonError extends Schema.TaggedError<InvalidJsonError>()(
  "InvalidJsonError",
  coded("BAD_REQUEST_INVALID_JSON")
) {}

export class UnauthorizedError extends Schema.TaggedError<UnauthorizedError>()(
  "UnauthorizedError",
  coded("UNAUTHORIZED")
) {}

export class InsufficientCreditsError extends Schema.TaggedError<InsufficientCreditsError>()(
  "InsufficientCreditsError",
  coded("INSUFFICIENT_CREDITS")
) {}

export class ForbiddenError extends Schema.TaggedError<ForbiddenError>()(
  "ForbiddenError",
  coded("FORBIDDEN")
) {}

export class NotFoundError extends Schema.TaggedError<NotFoundError>()(
  "NotFoundError",
  coded("NOT_FOUND")
) {}

export class ConflictError extends Schema.TaggedError<ConflictError>()(
  "ConflictError",
  coded("CONFLICT")
) {}

/** The resource existed but has ended (a destroyed browser session). */
export class GoneError extends Schema.TaggedError<GoneError>()(
  "GoneError",
  coded("GONE")
) {}

export class PayloadTooLargeError extends Schema.TaggedError<PayloadTooLargeError>()(
  "PayloadTooLargeError",
  coded("PAYLOAD_TOO_LARGE")
) {}

/** Over a per-minute limit; carries what the HTTP adapter turns into rate-limit headers. */
export class RateLimitError extends Schema.TaggedError<RateLimitError>()("RateLimitError", {
  ...coded("RATE_LIMIT_EXCEEDED"),
  limit: Schema.Number,
  remaining: Schema.Number,
  /** Epoch milliseconds at which the window resets. */
  resetAtMs: Schema.Number,
  retryAfterSeconds: Schema.Number
}) {}

export class QueueFullError extends Schema.TaggedError<QueueFullError>()(
  "QueueFullError",
  coded("QUEUE_FULL")
) {}

/** An unexpected failure; `errorId` is logged with the cause so an operator can find it. */
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", {
  ...coded("UNKNOWN_ERROR"),
  errorId: Schema.optional(Schema.String)
}) {}

export class ServiceUnavailableError extends Schema.TaggedError<ServiceUnavailableError>()(
  "ServiceUnavailableError",
  coded("SERVICE_UNAVAILABLE")
) {}

// --- Scraping -------------------------------------------------------------------------------

export class ScrapeTimeoutError extends Schema.TaggedError<ScrapeTimeoutError>()(
  "ScrapeTimeoutError",
  coded("SCRAPE_TIMEOUT")
) {}

/** The host name did not resolve. Upstream answers this one with 200 and `success: false`. */
export class ScrapeDnsError extends Schema.TaggedError<ScrapeDnsError>()(
  "ScrapeDnsError",
  coded("SCRAPE_DNS_RESOLUTION_ERROR")
) {}

export class ScrapeSslError extends Schema.TaggedError<ScrapeSslError>()(
  "ScrapeSslError",
  coded("SCRAPE_SSL_ERROR")
) {}

/** The site could not be reached or answered with something unusable (reset, refused, too big). */
export class ScrapeSiteError extends Schema.TaggedError<ScrapeSiteError>()(
  "ScrapeSiteError",
  coded("SCRAPE_SITE_ERROR")
) {}

export class ScrapeUnsupportedFileError extends Schema.TaggedError<ScrapeUnsupportedFileError>()(
  "ScrapeUnsupportedFileError",
  coded("SCRAPE_UNSUPPORTED_FILE_ERROR")
) {}

export class ScrapeNoCachedDataError extends Schema.TaggedError<ScrapeNoCachedDataError>()(
  "ScrapeNoCachedDataError",
  coded("SCRAPE_NO_CACHED_DATA")
) {}

export class ScrapeLockdownCacheMissError extends Schema.TaggedError<ScrapeLockdownCacheMissError>()(
  "ScrapeLockdownCacheMissError",
  coded("SCRAPE_LOCKDOWN_CACHE_MISS")
) {}

export class ScrapeActionsNotSupportedError extends Schema.TaggedError<ScrapeActionsNotSupportedError>()(
  "ScrapeActionsNotSupportedError",
  coded("SCRAPE_ACTIONS_NOT_SUPPORTED")
) {}

/** One of the request's actions failed in the browser; the message names the action. */
export class ScrapeActionError extends Schema.TaggedError<ScrapeActionError>()(
  "ScrapeActionError",
  coded("SCRAPE_ACTION_ERROR")
) {}

/** A private, loopback, link-local or metadata address, refused by the SSRF guard. */
export class UnsafeAddressError extends Schema.TaggedError<UnsafeAddressError>()(
  "UnsafeAddressError",
  coded("UNSAFE_ADDRESS")
) {}

/** Refused by the request's threatProtection rules (blacklist, blocked TLD, …). */
export class UnsafeDomainError extends Schema.TaggedError<UnsafeDomainError>()(
  "UnsafeDomainError",
  coded("unsafe_domain_blocked")
) {}

// --- Map ------------------------------------------------------------------------------------

/** A map did not finish within the request's `timeout`; asking again with the same deadline will not help. */
export class MapTimeoutError extends Schema.TaggedError<MapTimeoutError>()(
  "MapTimeoutError",
  coded("MAP_TIMEOUT")
) {}

/** Every Gleaner error class, for encoding errors into job rows and decoding them back. */
export const GleanerError = Schema.Union(
  BadRequestError,
  InvalidJsonError,
  UnauthorizedError,
  InsufficientCreditsError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  GoneError,
  PayloadTooLargeError,
  RateLimitError,
  QueueFullError,
  InternalError,
  ServiceUnavailableError,
  ScrapeTimeoutError,
  ScrapeDnsError,
  ScrapeSslError,
  ScrapeSiteError,
  ScrapeUnsupportedFileError,
  ScrapeNoCachedDataError,
  ScrapeLockdownCacheMissError,
  ScrapeActionsNotSupportedError,
  ScrapeActionError,
  UnsafeAddressError,
  UnsafeDomainError,
  MapTimeoutError
)
export type GleanerError = typeof GleanerError.Type

/** Upstream wording, kept in one place so the HTTP adapter and the client say the same. */
export const messages = {
  tokenMissing: "Unauthorized: Token missing",
  invalidToken: "Unauthorized: Invalid token",
  invalidJson: "Bad request, malformed JSON",
  unrecognizedKeys:
    "Unrecognized key in body -- please review the v2 API documentation for request body changes",
  bodyTooLarge: "Request body is too large",
  insufficientCredits:
    "Insufficient credits to perform this request. For more credits, you can upgrade your plan at https://firecrawl.dev/pricing or try changing the request limit to a lower value.",
  invalidJobId: "Invalid job ID format. Job ID must be a valid UUID.",
  profileBusy: (name: string) =>
    `Profile "${name}" is being written by another scrape or browser session. Try again when it is done, or send saveChanges: false to use it without writing.`,
  jobNotFound: "Job not found",
  routeNotFound: "Not found",
  tokenUsageNotFound: "Could not find token usage information",
  tokenUsageFailed: "Internal server error while fetching token usage",
  creditUsageNotFound: "Could not find credit usage information",
  creditUsageFailed: "Internal server error while fetching credit usage"
} as const
