/**
 * The one place where failures become responses. A global middleware wraps every route of an
 * HttpApi (and the raw routes beside it) and answers every failure with the Firecrawl envelope:
 *
 * - core's coded errors: status from the catalogue (`errorStatus(code)`); a RateLimitError adds
 *   `Retry-After` and `X-RateLimit-*` headers;
 * - schema failures (`HttpApiDecodeError`): 400 `BAD_REQUEST` with zod-like details (issues.ts);
 * - unknown routes and methods: 404 `NOT_FOUND`;
 * - unreadable bodies, which the platform raises as defects: malformed JSON → 400
 *   `BAD_REQUEST_INVALID_JSON`, over the limit → 413 `PAYLOAD_TOO_LARGE`;
 * - anything else: 500 `UNKNOWN_ERROR` naming an error id that is logged with the cause.
 *
 * Handlers never build error bodies; they fail with core's errors.
 */
import { HttpApiBuilder, HttpApiError, HttpServerError, HttpServerResponse, Multipart } from "@effect/platform"
import type { HttpApi, HttpApiGroup, HttpApp } from "@effect/platform"
import {
  type ErrorCode,
  errorCatalogue,
  errorStatus,
  InternalError,
  messages,
  RateLimitError,
  uuidv7
} from "@gleaner/core"
import { Cause, Effect, Option, Schema } from "effect"
import { DEFAULT_MAX_BODY_BYTES, limitBody } from "./body-limit.js"
import { toEnvelope } from "./envelope.js"
import { describeIssues } from "./issues.js"

const unexpectedMessage = (errorId: string) =>
  `An unexpected error occurred. Please check your logs for more details. Error ID: ${errorId}`

/** Any failure carrying a catalogue code: core's classes and whatever capabilities add later. */
const Coded = Schema.Struct({
  code: Schema.String.pipe(Schema.filter((s): s is ErrorCode => Object.hasOwn(errorCatalogue, s))),
  message: Schema.String,
  details: Schema.optional(Schema.Unknown)
})
const decodeCoded = Schema.decodeUnknownOption(Coded)

const respond = (
  code: ErrorCode,
  message: string,
  options: { readonly details?: unknown; readonly headers?: Record<string, string> } = {}
) =>
  HttpServerResponse.unsafeJson(toEnvelope({ code, message, details: options.details }), {
    status: errorStatus(code),
    ...(options.headers === undefined ? {} : { headers: options.headers })
  })

/** Headers describing a bucket's state; also set on successful authenticated responses. */
export const rateLimitHeaders = (state: {
  readonly limit: number
  readonly remaining: number
  readonly resetAtMs: number
}): Record<string, string> => ({
  "x-ratelimit-limit": String(state.limit),
  "x-ratelimit-remaining": String(state.remaining),
  "x-ratelimit-reset": String(Math.ceil(state.resetAtMs / 1000))
})

/** Logs the cause under a fresh error id; the id is what the client is told. */
const logUnexpected = (cause: Cause.Cause<unknown>) =>
  Effect.flatMap(uuidv7, (errorId) =>
    Effect.as(
      Effect.annotateLogs(Effect.logError("Unexpected error while handling a request", cause), { errorId }),
      errorId
    ))

const unexpected = (cause: Cause.Cause<unknown>) =>
  Effect.map(logUnexpected(cause), (errorId) => respond("UNKNOWN_ERROR", unexpectedMessage(errorId)))

const isMaxBytesExceeded = (u: unknown) => u instanceof Error && u.message === "maxBytes exceeded"

const fromRequestError = (error: HttpServerError.RequestError) =>
  isMaxBytesExceeded(error.cause)
    ? respond("PAYLOAD_TOO_LARGE", messages.bodyTooLarge)
    : error.cause instanceof SyntaxError
    ? respond("BAD_REQUEST_INVALID_JSON", messages.invalidJson)
    : respond("BAD_REQUEST", "Could not read the request body")

const fromMultipartError = (error: Multipart.MultipartError, cause: Cause.Cause<unknown>) => {
  switch (error.reason) {
    case "FileTooLarge":
    case "FieldTooLarge":
    case "BodyTooLarge":
    case "TooManyParts":
      return Effect.succeed(respond("PAYLOAD_TOO_LARGE", messages.bodyTooLarge))
    case "Parse":
      return Effect.succeed(respond("BAD_REQUEST", "Malformed multipart body"))
    case "InternalError":
      return unexpected(cause)
  }
}

const fromInternal = (error: InternalError, cause: Cause.Cause<unknown>) =>
  Effect.map(
    error.errorId === undefined ? logUnexpected(cause) : Effect.succeed(error.errorId),
    (errorId) => respond("UNKNOWN_ERROR", error.message, { details: { errorId } })
  )

const fromFailure = (error: unknown, cause: Cause.Cause<unknown>) => {
  if (error instanceof HttpApiError.HttpApiDecodeError) {
    const { details, message } = describeIssues(error.issues)
    return Effect.succeed(respond("BAD_REQUEST", message, { details }))
  }
  if (error instanceof HttpServerError.RouteNotFound) {
    return Effect.succeed(respond("NOT_FOUND", messages.routeNotFound))
  }
  if (error instanceof RateLimitError) {
    return Effect.succeed(respond("RATE_LIMIT_EXCEEDED", error.message, {
      headers: { "retry-after": String(error.retryAfterSeconds), ...rateLimitHeaders(error) }
    }))
  }
  if (error instanceof InternalError) return fromInternal(error, cause)
  return Option.match(decodeCoded(error), {
    onNone: () => fromDefect(error, cause),
    onSome: (coded) => Effect.succeed(respond(coded.code, coded.message, { details: coded.details }))
  })
}

/** Defects are bugs (500), except the body-reading failures the platform raises as defects. */
const fromDefect = (defect: unknown, cause: Cause.Cause<unknown>) =>
  defect instanceof HttpServerError.RequestError
    ? Effect.succeed(fromRequestError(defect))
    : defect instanceof Multipart.MultipartError
    ? fromMultipartError(defect, cause)
    : unexpected(cause)

/** The response for any cause; interruption (the client went away) stays interruption. */
export const causeToResponse = (
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return fromFailure(failure.value, cause)
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) return fromDefect(defect.value, cause)
  return unexpected(cause)
}

/**
 * For handlers: a defect (a bug, a lost database) becomes an InternalError with upstream's message
 * for that endpoint; the cause is logged under the error id the response reports.
 */
export const internalOnDefect = (message: string) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | InternalError, R> =>
  Effect.catchAllDefect(effect, (defect) =>
    Effect.flatMap(
      logUnexpected(Cause.die(defect)),
      (errorId) => Effect.fail(new InternalError({ message, errorId }))
    ))

export interface ErrorMiddlewareOptions {
  /** Largest request body accepted, in bytes. Default 10 MiB (upstream's limit). */
  readonly maxBodyBytes?: number
}

/**
 * The global middleware of an HttpApi: body limit plus the envelope mapping above. Works for any
 * HttpApi, so test APIs get exactly the production behaviour.
 */
export const errorMiddleware = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  options: ErrorMiddlewareOptions = {}
) =>
  HttpApiBuilder.middleware(
    api,
    // the app's error type is declared `never`, but it fails with everything listed above
    (app: HttpApp.Default<unknown>) =>
      limitBody(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)(app).pipe(Effect.catchAllCause(causeToResponse))
  )
