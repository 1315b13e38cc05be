/**
 * The WebSocket status stream of crawls and batch scrapes (API.md §10.3, Part A item 8): an
 * upgrade request on `/v2/crawl/:id` or `/v2/batch/scrape/:id` is taken here, in a global
 * middleware in front of the HttpApi routes, which keep answering the plain GETs.
 *
 * The key is the first `Sec-WebSocket-Protocol` value (the handshake echoes it, as the JS SDK
 * requires) or `Authorization: Bearer` (the Python SDK); with `GLEANER_AUTH=off` the stream acts
 * for the default team. The client gets one `catchup` message with every document so far, then a
 * `document` message per page finished since (completion order; failed pages are not sent), and
 * a close 1000 with reason `{"type":"done"}` once the job is completed, cancelled or failed.
 * Refusals send an `error` message, then close: 3000 for a missing or bad key, 1008 for a
 * malformed, unknown or other team's job, 1013 over the `crawlStatus` rate limit, 1011 for a bug
 * (its reason names the error id the cause is logged under).
 *
 * The stream reads the store through `PageJobs.status`, so it sees exactly what the status
 * endpoint shows. The socket's scope owns the polling fiber: a client that goes away, or a server
 * that shuts down, interrupts it.
 */
import { Headers, HttpApiBuilder, HttpServerRequest, HttpServerResponse, Socket } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import {
  Accounts,
  type AuthContext,
  BATCH_KIND,
  CRAWL_KIND,
  DEFAULT_TEAM,
  Document,
  GleanerConfig,
  type Job,
  messages,
  PageJobs,
  type PageJobStatus,
  RateLimiter,
  UnauthorizedError,
  uuidv7
} from "@gleaner/core"
import { Cause, Data, Effect, Option, Schema } from "effect"

export interface JobStreamOptions {
  /** Milliseconds between two looks at the store for newly finished pages. Default 500. */
  readonly pollMs?: number
}

/** Close codes of the stream. */
export const JobStreamClose = {
  done: 1000,
  invalidJob: 1008,
  internal: 1011,
  tryAgainLater: 1013,
  unauthorized: 3000
} as const

/** The reason of the close that ends a stream normally. */
export const doneReason = JSON.stringify({ type: "done" })

export const JobStreamCatchup = Schema.Struct({
  type: Schema.Literal("catchup"),
  data: Schema.Struct({
    success: Schema.Literal(true),
    status: Schema.Literal("scraping", "completed", "cancelled", "failed"),
    total: Schema.Number,
    completed: Schema.Number,
    creditsUsed: Schema.Number,
    expiresAt: Schema.String,
    data: Schema.Array(Document)
  })
})

/** Every message the server sends (JSON text frames). */
export const JobStreamMessage = Schema.Union(
  JobStreamCatchup,
  Schema.Struct({ type: Schema.Literal("document"), data: Document }),
  Schema.Struct({ type: Schema.Literal("error"), error: Schema.String })
)
export type JobStreamMessage = typeof JobStreamMessage.Type

/** The stream is refused or ended early with this close code. */
class StreamRefusedError extends Data.TaggedError("StreamRefusedError")<{
  readonly code: number
  readonly message: string
}> {}

const refuse = (code: number) => (error: { readonly message: string }) =>
  Effect.fail(new StreamRefusedError({ code, message: error.message }))

interface StreamTarget {
  readonly kind: string
  readonly id: string
}

const streamPaths: ReadonlyArray<{ readonly kind: string; readonly pattern: RegExp }> = [
  { kind: CRAWL_KIND, pattern: /^\/v2\/crawl\/([^/]+)$/ },
  { kind: BATCH_KIND, pattern: /^\/v2\/batch\/scrape\/([^/]+)$/ }
]

/** The job a WebSocket upgrade request asks for; none for every other request. */
const streamTarget = (request: HttpServerRequest.HttpServerRequest): Option.Option<StreamTarget> => {
  const upgrade = Headers.get(request.headers, "upgrade")
  if (request.method !== "GET" || Option.getOrUndefined(upgrade)?.toLowerCase() !== "websocket") return Option.none()
  const path = request.url.split("?")[0] ?? ""
  for (const { kind, pattern } of streamPaths) {
    const id = pattern.exec(path)?.[1]
    if (id !== undefined) return Option.some({ kind, id })
  }
  return Option.none()
}

/**
 * The key of an upgrade request: the Bearer token when an `Authorization` header is sent (none
 * for another scheme), else the first offered subprotocol, else empty.
 */
const keyOf = (headers: Headers.Headers): Option.Option<string> =>
  Option.match(Option.filter(Headers.get(headers, "authorization"), (h) => h.trim() !== ""), {
    onSome: (header) => {
      const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim())
      return match === null ? Option.none() : Option.some((match[1] ?? "").trim())
    },
    onNone: () =>
      Option.some(Option.getOrElse(Headers.get(headers, "sec-websocket-protocol"), () => "").split(",")[0]?.trim() ?? "")
  })

/** Close reasons are at most 123 bytes: long messages are cut. */
const errorReason = (message: string): string => {
  let text = message
  for (;;) {
    const reason = JSON.stringify({ type: "error", error: text })
    const excess = Buffer.byteLength(reason) - 123
    if (excess <= 0) return reason
    text = `${text.slice(0, Math.max(0, text.length - excess - 1))}…`
  }
}

type Write = (chunk: string | Socket.CloseEvent) => Effect.Effect<void, Socket.SocketError>

const send = (write: Write, message: JobStreamMessage) => write(JSON.stringify(message))

/** Documents per status read. */
const readLimit = 100
/**
 * Rows read again before the first unseen one: pages finishing at once may commit out of their
 * completion order, so a late one can land just before documents already sent.
 */
const rereadRows = 32

const makeSession = Effect.gen(function*() {
  const accounts = yield* Accounts
  const limiter = yield* RateLimiter
  const pageJobs = yield* PageJobs
  const config = yield* GleanerConfig

  const identify = (headers: Headers.Headers): Effect.Effect<AuthContext, StreamRefusedError> =>
    config.auth === "off"
      ? accounts.findTeam(DEFAULT_TEAM).pipe(
        Effect.map((team): AuthContext => ({ team, apiKeyId: null })),
        Effect.catchTag("NotFoundError", () =>
          Effect.dieMessage(`GLEANER_AUTH=off acts for team "${DEFAULT_TEAM}", which does not exist (bootstrap first)`))
      )
      : Option.match(keyOf(headers), {
        onNone: () => Effect.fail(new UnauthorizedError({ message: messages.invalidToken })),
        onSome: (key) => accounts.authenticate(key)
      }).pipe(Effect.catchTag("UnauthorizedError", refuse(JobStreamClose.unauthorized)))

  const getJob = (target: StreamTarget, teamId: string) =>
    pageJobs.get(teamId, target.id, target.kind).pipe(
      Effect.catchTags({ BadRequestError: refuse(JobStreamClose.invalidJob), NotFoundError: refuse(JobStreamClose.invalidJob) })
    )

  /** Unsent documents from `skip` to the end (now marked sent), with the last status read. */
  const collect = Effect.fnUntraced(function*(job: Job, from: number, sent: Set<string>) {
    const fresh: Array<Document> = []
    let skip = from
    for (;;) {
      const page: PageJobStatus = yield* pageJobs.status(job, { skip, limit: readLimit })
      for (const doc of page.data) {
        if (sent.has(doc.metadata.scrapeId)) continue
        sent.add(doc.metadata.scrapeId)
        fresh.push(doc)
      }
      if (page.data.length === 0 || page.nextSkip === undefined) return { fresh, status: page }
      skip = page.nextSkip
    }
  })

  /**
   * Documents finished since the last read: a count-only status read says whether there are any,
   * then they are read from a little before the first unseen one (or from the start).
   */
  const unsent = Effect.fnUntraced(function*(job: Job, sent: Set<string>, from: "window" | "start") {
    const probe = yield* pageJobs.status(job, { skip: sent.size, limit: 0 })
    if (probe.nextSkip === undefined) return { fresh: [], status: probe }
    return yield* collect(job, from === "start" ? 0 : Math.max(0, sent.size - rereadRows), sent)
  })

  const stream = Effect.fn("JobStream.stream")(function*(target: StreamTarget, job: Job, write: Write, pollMs: number) {
    const sent = new Set<string>()
    const first = yield* collect(job, 0, sent)
    const { completed, creditsUsed, expiresAt, total } = first.status
    yield* send(write, {
      type: "catchup",
      data: { success: true, status: first.status.status, total, completed, creditsUsed, expiresAt, data: first.fresh }
    })
    let current = job
    let status = first.status.status
    while (status === "scraping") {
      yield* Effect.sleep(pollMs)
      current = yield* getJob(target, job.teamId)
      const next = yield* unsent(current, sent, "window")
      yield* Effect.forEach(next.fresh, (doc) => send(write, { type: "document", data: doc }), { discard: true })
      status = next.status.status
    }
    // the job is over: whatever settled out of order beyond the re-read window comes now
    const rest = yield* unsent(current, sent, "start")
    yield* Effect.forEach(rest.fresh, (doc) => send(write, { type: "document", data: doc }), { discard: true })
    yield* write(new Socket.CloseEvent(JobStreamClose.done, doneReason))
  })

  const closeWith = (write: Write, code: number, message: string) =>
    Effect.zipRight(send(write, { type: "error", error: message }), write(new Socket.CloseEvent(code, errorReason(message))))

  const internal = (write: Write, cause: Cause.Cause<unknown>) =>
    Effect.gen(function*() {
      const errorId = yield* uuidv7
      yield* Effect.annotateLogs(Effect.logError("Job status stream failed", cause), { errorId })
      yield* closeWith(write, JobStreamClose.internal, `An unexpected error occurred. Error ID: ${errorId}`)
    })

  /** Everything one connection is told, from the key check to the final close. */
  return Effect.fn("JobStream.session")(function*(headers: Headers.Headers, target: StreamTarget, write: Write, pollMs: number) {
    const auth = yield* identify(headers)
    yield* Effect.annotateLogsScoped({ teamId: auth.team.id, jobId: target.id })
    yield* limiter.consume(auth.team, "crawlStatus").pipe(Effect.catchTag("RateLimitError", refuse(JobStreamClose.tryAgainLater)))
    yield* stream(target, yield* getJob(target, auth.team.id), write, pollMs)
  }, (effect, _headers, _target, write) =>
    effect.pipe(
      Effect.catchTag("StreamRefusedError", (refused) => closeWith(write, refused.code, refused.message)),
      // a failed write means the socket is gone: nobody is left to tell
      Effect.catchTag("SocketError", () => Effect.void),
      Effect.catchAllCause((cause) => Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : internal(write, cause)),
      Effect.catchTag("SocketError", () => Effect.void),
      Effect.scoped
    ))
})

/**
 * The global middleware serving the streams: an upgrade request on a job status URL becomes a
 * stream, anything else goes on to `app`. Needs Accounts, RateLimiter, PageJobs and GleanerConfig.
 */
export const jobStreamMiddleware = (options: JobStreamOptions = {}) =>
  Effect.map(makeSession, (session) => {
    const pollMs = options.pollMs ?? 500
    // the platform serves requests uninterruptibly and only routes opt back in; without
    // `interruptible` the polling fiber would outlive a client that went away
    const serve = (socket: Socket.Socket, request: HttpServerRequest.HttpServerRequest, target: StreamTarget) =>
      Effect.gen(function*() {
        const write = yield* socket.writer
        yield* Effect.forkScoped(session(request.headers, target, write, pollMs))
        // runs the handshake and reads until the socket closes; client messages mean nothing here
        yield* socket.runRaw(() => undefined).pipe(
          Effect.catchAll((error) => Effect.logDebug("Job status stream closed", error))
        )
        return HttpServerResponse.empty()
      }).pipe(Effect.scoped, Effect.interruptible)
    return (app: HttpApp.Default): HttpApp.Default =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Option.match(streamTarget(request), {
          onNone: () => app,
          // a request the server cannot upgrade goes to the plain route
          onSome: (target) => Effect.matchEffect(request.upgrade, { onFailure: () => app, onSuccess: (socket) => serve(socket, request, target) })
        }))
  })

/** The job status streams as an HttpApi global middleware layer (see `HttpAppLive`). */
export const JobStreamsLive = (options: JobStreamOptions = {}) => HttpApiBuilder.middleware(jobStreamMiddleware(options))
