/**
 * The webhook events of a crawl or batch scrape (API.md §6): started, one per settled page
 * (success with the Document, or failure with the error and URL), completed. A job without a
 * webhook sends nothing. Events go to the durable outbox; delivery happens later.
 */
import { Effect } from "effect"
import type { Webhook } from "../schema/crawl.js"
import type { Document } from "../schema/document.js"
import { jobWebhookEvents, type WebhookEvent, type WebhookJobKind } from "../webhooks/payload.js"
import type { Webhooks } from "../webhooks/webhooks.js"

export interface JobNotifier {
  readonly started: Effect.Effect<void>
  readonly page: (document: Document) => Effect.Effect<void>
  readonly pageFailed: (url: string, error: string) => Effect.Effect<void>
  readonly completed: Effect.Effect<void>
}

export const jobNotifier = (
  webhooks: Webhooks,
  teamId: string,
  kind: WebhookJobKind,
  jobId: string,
  webhook: Webhook | undefined
): JobNotifier => {
  const send = (event: WebhookEvent): Effect.Effect<void> =>
    webhook === undefined ? Effect.void : Effect.asVoid(webhooks.send(teamId, webhook, event))
  return {
    started: send(jobWebhookEvents.started(kind, jobId)),
    page: (document) => send(jobWebhookEvents.page(kind, jobId, document)),
    pageFailed: (url, error) => send(jobWebhookEvents.pageFailed(kind, jobId, url, error)),
    completed: send(jobWebhookEvents.completed(kind, jobId))
  }
}
