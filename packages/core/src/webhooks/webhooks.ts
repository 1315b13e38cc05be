/**
 * Webhooks: turn a job's event into a delivery in the durable outbox. `send` checks the webhook's
 * event filter, builds the payload of API.md §6 and writes it to the store; nothing is sent here.
 * The delivery loop (`delivery.ts`) sends it later, signed with the team's secret, and retries.
 * Writing first means an event survives a crash or a receiver that is down, and a crawl never
 * waits on somebody else's server.
 */
import { Clock, Effect, Option, Queue } from "effect"
import { NotFoundError } from "../errors.js"
import { uuidv7At } from "../ids.js"
import { Store } from "../ports/store.js"
import type { Webhook } from "../schema/crawl.js"
import { type WebhookEvent, wantsEvent, webhookPayload, webhookTarget } from "./payload.js"
import { generateWebhookSecret, webhookSignature } from "./signature.js"

export class Webhooks extends Effect.Service<Webhooks>()("@gleaner/core/Webhooks", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    // Lets this process's delivery loop start at once instead of at its next poll.
    const enqueued = yield* Queue.sliding<void>(1)

    /**
     * Queues the event for the webhook unless its `events` filter leaves it out; the delivery's id
     * (the payload's `webhookId`) when it was queued.
     */
    const send = Effect.fn("Webhooks.send")(function*(teamId: string, webhook: Webhook, event: WebhookEvent) {
      const target = webhookTarget(webhook)
      if (!wantsEvent(target.events, event.type)) return Option.none<string>()
      const now = yield* Clock.currentTimeMillis
      const id = uuidv7At(now)
      yield* store.webhooks.enqueue({
        id,
        teamId,
        url: target.url,
        headers: target.headers,
        body: JSON.stringify(webhookPayload(event, id, target.metadata)),
        event: event.type,
        createdAt: now
      })
      yield* enqueued.offer(undefined)
      yield* Effect.logDebug("webhook queued").pipe(Effect.annotateLogs({ teamId, webhookId: id, event: event.type }))
      return Option.some(id)
    })

    const noTeam = (teamId: string) => new NotFoundError({ message: `No team with id ${teamId}` })

    /** The team's signing secret, made (32 random bytes, hex) on first use. */
    const secret = Effect.fn("Webhooks.secret")(function*(teamId: string) {
      const found = yield* store.webhooks.teamSecret(teamId, generateWebhookSecret())
      return yield* Option.match(found, { onNone: () => Effect.fail(noTeam(teamId)), onSome: Effect.succeed })
    })

    /** Replaces the team's secret with a new one; deliveries still queued are signed with it. */
    const rotateSecret = Effect.fn("Webhooks.rotateSecret")(function*(teamId: string) {
      const next = generateWebhookSecret()
      if (!(yield* store.webhooks.setTeamSecret(teamId, next))) return yield* noTeam(teamId)
      return next
    })

    return {
      send,
      secret,
      rotateSecret,
      /** `sha256=<hex>` of the body under the secret, as sent in `X-Firecrawl-Signature`. */
      sign: webhookSignature,
      /** Completes when `send` queued something in this process since the last call. */
      enqueued: Queue.take(enqueued)
    } as const
  })
}) {}
