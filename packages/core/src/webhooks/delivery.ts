/**
 * The webhook sender: a background loop that claims due deliveries from the outbox and POSTs
 * them through the Fetcher, so the SSRF guard applies to receivers as to any other address. A 2xx
 * answer delivers; anything else is retried after the configured delays, then given up. A
 * refused address or an unusable URL fails at once: retrying cannot change the answer.
 *
 * Claims are leases (see `Store.webhooks.due`), so several processes may run this loop on one
 * database; a delivery whose sender died is sent again when its lease ends. Delivery is
 * therefore at least once: receivers should dedupe by `webhookId`.
 */
import { Cause, Clock, Duration, Effect, FiberSet, Layer, Option } from "effect"
import { GleanerConfig } from "../config.js"
import type { GleanerError } from "../errors.js"
import { Fetcher } from "../ports/fetcher.js"
import { Store, type WebhookDelivery } from "../ports/store.js"
import { generateWebhookSecret, signatureHeader, webhookSignature } from "./signature.js"
import { Webhooks } from "./webhooks.js"

export interface WebhookDeliveryOptions {
  /** Idle wait between looks for due deliveries, in milliseconds. */
  readonly pollMs: number
  /** Delay before each retry, in milliseconds; a failure after the last one is final. */
  readonly retryDelaysMs: ReadonlyArray<number>
  /** Deadline of one POST, in milliseconds. Default 10 000. */
  readonly timeoutMs?: number
  /** Deliveries in flight at once in this process. Default 8. */
  readonly concurrency?: number
  /** Delivered and failed deliveries older than this are deleted (hourly), in milliseconds. */
  readonly retentionMs?: number
}

const defaultTimeoutMs = 10_000
const defaultConcurrency = 8
/** A receiver's answer is not needed; a small cap keeps a chatty one from costing memory. */
const maxResponseBytes = 1024 * 1024
const purgeEveryMs = 60 * 60_000
const userAgent = "Gleaner-Webhook/1.0"

type Attempt =
  | { readonly _tag: "Delivered"; readonly status: number }
  | { readonly _tag: "Failed"; readonly error: string; readonly permanent: boolean }

/** Failures that the same request would meet again: a refused address, an invalid URL. */
const isPermanent = (error: GleanerError): boolean =>
  error._tag === "UnsafeAddressError" || error._tag === "BadRequestError"

/** When a delivery that failed on its `attempts`-th attempt is tried again; null when never. */
export const nextRetryAt = (attempts: number, now: number, retryDelaysMs: ReadonlyArray<number>): number | null => {
  const delay = retryDelaysMs[attempts - 1]
  return delay === undefined ? null : now + delay
}

/** Runs the delivery loop in the current scope until it closes. */
export const runWebhookDelivery = Effect.fn("WebhookDelivery.run")(function*(options: WebhookDeliveryOptions) {
  const store = yield* Store
  const fetcher = yield* Fetcher
  const webhooks = yield* Webhooks
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs
  const concurrency = Math.max(1, options.concurrency ?? defaultConcurrency)
  // Long enough that a live sender always settles before another may take the delivery.
  const leaseMs = timeoutMs * 3 + 30_000
  const running = yield* FiberSet.make<void, never>()

  const attempt = (delivery: WebhookDelivery): Effect.Effect<Attempt> =>
    Effect.gen(function*() {
      const secret = yield* store.webhooks.teamSecret(delivery.teamId, generateWebhookSecret())
      if (Option.isNone(secret)) return { _tag: "Failed", error: "The team no longer exists", permanent: true } as const
      const custom = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name.toLowerCase(), value]))
      const sent = yield* Effect.either(fetcher.fetch({
        url: delivery.url,
        method: "POST",
        headers: {
          "user-agent": userAgent,
          accept: "*/*",
          ...custom,
          "content-type": "application/json",
          [signatureHeader]: webhookSignature(secret.value, delivery.body)
        },
        body: delivery.body,
        timeoutMs,
        maxBodyBytes: maxResponseBytes,
        // A redirect would turn the POST into a GET or resend it elsewhere: the receiver must answer.
        maxRedirects: 0
      }))
      if (sent._tag === "Left") return { _tag: "Failed", error: sent.left.message, permanent: isPermanent(sent.left) } as const
      const status = sent.right.status
      return status >= 200 && status < 300
        ? { _tag: "Delivered", status } as const
        : { _tag: "Failed", error: `The receiver answered HTTP ${status}`, permanent: false } as const
    })

  const deliver = (delivery: WebhookDelivery) =>
    Effect.gen(function*() {
      const outcome = yield* attempt(delivery)
      const now = yield* Clock.currentTimeMillis
      if (outcome._tag === "Delivered") {
        yield* store.webhooks.markDelivered(delivery.id, now)
        return yield* Effect.logInfo("webhook delivered", { status: outcome.status })
      }
      const retryAt = outcome.permanent ? null : nextRetryAt(delivery.attempts, now, options.retryDelaysMs)
      yield* store.webhooks.markFailed(delivery.id, { error: outcome.error, retryAt })
      yield* retryAt === null
        ? Effect.logWarning("webhook delivery failed; giving up", outcome.error)
        : Effect.logWarning("webhook delivery failed; will retry", { error: outcome.error, retryAt: new Date(retryAt).toISOString() })
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logError("webhook delivery crashed; it is retried when its lease ends", cause)),
      Effect.annotateLogs({ webhookId: delivery.id, teamId: delivery.teamId, event: delivery.event, attempt: delivery.attempts })
    )

  let lastPurgeAt = Number.NEGATIVE_INFINITY
  const purge = (now: number) =>
    Effect.gen(function*() {
      if (options.retentionMs === undefined || now - lastPurgeAt < purgeEveryMs) return
      lastPurgeAt = now
      const purged = yield* store.webhooks.purgeSettled(now - options.retentionMs)
      if (purged > 0) yield* Effect.logDebug("purged settled webhook deliveries", { purged })
    })

  const pollOnce = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const free = concurrency - (yield* FiberSet.size(running))
    const due = free > 0 ? yield* store.webhooks.due(now, free, leaseMs) : []
    for (const delivery of due) yield* FiberSet.run(running, deliver(delivery))
    yield* purge(now)
    return due.length > 0 && due.length === free
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.as(Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("webhook poll failed", cause), false))
  )

  const poll = Effect.forever(
    Effect.flatMap(pollOnce, (busy) =>
      // A full batch means more may be due now; otherwise wait for the next poll or a new event.
      busy ? Effect.void : Effect.raceFirst(Effect.sleep(Duration.millis(options.pollMs)), webhooks.enqueued))
  )

  // Finalizers run in reverse: the poller stops first, then deliveries in flight may finish.
  yield* Effect.addFinalizer(() =>
    Effect.interruptible(FiberSet.awaitEmpty(running)).pipe(Effect.timeoutOption(Duration.millis(timeoutMs)), Effect.asVoid))
  yield* Effect.forkScoped(poll)
  yield* Effect.logDebug("webhook delivery started", { concurrency, pollMs: options.pollMs })
})

/** The delivery loop as a layer: options from GleanerConfig, alive as long as the layer's scope. */
export const WebhookDeliveryLive: Layer.Layer<never, never, Webhooks | Store | Fetcher | GleanerConfig> = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* GleanerConfig
    yield* runWebhookDelivery({
      pollMs: config.webhookPollMs,
      retryDelaysMs: config.webhookRetrySeconds.map((seconds) => Math.round(seconds * 1000)),
      retentionMs: config.retentionDays * 24 * 60 * 60_000
    })
  })
)
