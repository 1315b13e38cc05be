/**
 * Core's error classes as they appear on the wire: each class is wrapped in a transform to the
 * Firecrawl envelope `{success:false, error, code, details?}` and annotated with the status the
 * catalogue gives its code. Endpoints declare these (`.addError(Errors.NotFound)`) so handlers are
 * typed and the OpenAPI document shows the envelope under the right status. At run time the error
 * middleware (errors.ts) writes the responses itself; these schemas only describe them.
 */
import { HttpApiSchema } from "@effect/platform"
import {
  BadRequestError,
  ConflictError,
  type ErrorCode,
  ErrorEnvelope,
  errorStatus,
  ForbiddenError,
  GoneError,
  InsufficientCreditsError,
  InternalError,
  InvalidJsonError,
  MapTimeoutError,
  NotFoundError,
  PayloadTooLargeError,
  QueueFullError,
  RateLimitError,
  ScrapeActionError,
  ScrapeActionsNotSupportedError,
  ScrapeDnsError,
  ScrapeLockdownCacheMissError,
  ScrapeNoCachedDataError,
  ScrapeSiteError,
  ScrapeSslError,
  ScrapeTimeoutError,
  ScrapeUnsupportedFileError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnsafeAddressError,
  UnsafeDomainError
} from "@gleaner/core"
import { Schema } from "effect"

interface Coded {
  readonly code: ErrorCode
  readonly message: string
  readonly details?: unknown
}

/** The envelope of an error value: what every error response body looks like. */
export const toEnvelope = (error: Coded): ErrorEnvelope => ({
  success: false,
  error: error.message,
  code: error.code,
  ...(error.details === undefined ? {} : { details: error.details })
})

/** The envelope as documented for one code: `code` is always sent. */
const envelopeOf = <C extends ErrorCode>(code: C) =>
  Schema.Struct({
    success: Schema.Literal(false),
    error: Schema.String.annotations({ description: "What went wrong, for a person to read" }),
    code: Schema.Literal(code),
    details: Schema.optional(Schema.Unknown)
  }).annotations({ description: `The Firecrawl error envelope, code ${code}` })

const wire = <A extends Coded, I, C extends ErrorCode>(
  schema: Schema.Schema<A, I>,
  code: C,
  fromEnvelope: (envelope: ErrorEnvelope) => A
) =>
  Schema.transform(envelopeOf(code), Schema.typeSchema(schema), {
    strict: true,
    decode: fromEnvelope,
    encode: (error) => ({ ...toEnvelope(error), code })
  }).annotations(HttpApiSchema.annotations({ status: errorStatus(code) }))

const props = (e: ErrorEnvelope) => ({ message: e.error, details: e.details })

/** Every catalogue class in its envelope, to declare on endpoints, groups or the API. */
export const Errors = {
  BadRequest: wire(BadRequestError, "BAD_REQUEST", (e) => new BadRequestError(props(e))),
  InvalidJson: wire(InvalidJsonError, "BAD_REQUEST_INVALID_JSON", (e) => new InvalidJsonError(props(e))),
  Unauthorized: wire(UnauthorizedError, "UNAUTHORIZED", (e) => new UnauthorizedError(props(e))),
  InsufficientCredits: wire(
    InsufficientCreditsError,
    "INSUFFICIENT_CREDITS",
    (e) => new InsufficientCreditsError(props(e))
  ),
  Forbidden: wire(ForbiddenError, "FORBIDDEN", (e) => new ForbiddenError(props(e))),
  NotFound: wire(NotFoundError, "NOT_FOUND", (e) => new NotFoundError(props(e))),
  Conflict: wire(ConflictError, "CONFLICT", (e) => new ConflictError(props(e))),
  Gone: wire(GoneError, "GONE", (e) => new GoneError(props(e))),
  PayloadTooLarge: wire(PayloadTooLargeError, "PAYLOAD_TOO_LARGE", (e) => new PayloadTooLargeError(props(e))),
  // the numbers travel in headers (Retry-After, X-RateLimit-*), not in the body
  RateLimit: wire(
    RateLimitError,
    "RATE_LIMIT_EXCEEDED",
    (e) => new RateLimitError({ ...props(e), limit: 0, remaining: 0, resetAtMs: 0, retryAfterSeconds: 0 })
  ),
  QueueFull: wire(QueueFullError, "QUEUE_FULL", (e) => new QueueFullError(props(e))),
  Internal: wire(InternalError, "UNKNOWN_ERROR", (e) => new InternalError(props(e))),
  ServiceUnavailable: wire(
    ServiceUnavailableError,
    "SERVICE_UNAVAILABLE",
    (e) => new ServiceUnavailableError(props(e))
  ),
  ScrapeTimeout: wire(ScrapeTimeoutError, "SCRAPE_TIMEOUT", (e) => new ScrapeTimeoutError(props(e))),
  ScrapeDns: wire(ScrapeDnsError, "SCRAPE_DNS_RESOLUTION_ERROR", (e) => new ScrapeDnsError(props(e))),
  ScrapeSsl: wire(ScrapeSslError, "SCRAPE_SSL_ERROR", (e) => new ScrapeSslError(props(e))),
  ScrapeSite: wire(ScrapeSiteError, "SCRAPE_SITE_ERROR", (e) => new ScrapeSiteError(props(e))),
  ScrapeUnsupportedFile: wire(
    ScrapeUnsupportedFileError,
    "SCRAPE_UNSUPPORTED_FILE_ERROR",
    (e) => new ScrapeUnsupportedFileError(props(e))
  ),
  ScrapeNoCachedData: wire(ScrapeNoCachedDataError, "SCRAPE_NO_CACHED_DATA", (e) => new ScrapeNoCachedDataError(props(e))),
  ScrapeLockdownCacheMiss: wire(
    ScrapeLockdownCacheMissError,
    "SCRAPE_LOCKDOWN_CACHE_MISS",
    (e) => new ScrapeLockdownCacheMissError(props(e))
  ),
  ScrapeActionsNotSupported: wire(
    ScrapeActionsNotSupportedError,
    "SCRAPE_ACTIONS_NOT_SUPPORTED",
    (e) => new ScrapeActionsNotSupportedError(props(e))
  ),
  ScrapeAction: wire(ScrapeActionError, "SCRAPE_ACTION_ERROR", (e) => new ScrapeActionError(props(e))),
  UnsafeAddress: wire(UnsafeAddressError, "UNSAFE_ADDRESS", (e) => new UnsafeAddressError(props(e))),
  UnsafeDomain: wire(UnsafeDomainError, "unsafe_domain_blocked", (e) => new UnsafeDomainError(props(e))),
  MapTimeout: wire(MapTimeoutError, "MAP_TIMEOUT", (e) => new MapTimeoutError(props(e)))
} as const
