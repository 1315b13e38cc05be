/**
 * What a webhook delivery says, as pure functions: the events Gleaner sends, the `events` filter
 * (short `page` or long `crawl.page` names), the target a request's `webhook` field describes,
 * and the payload of API.md §6: `{success, type, id, webhookId, error?, data, metadata}`.
 */
import type { Webhook } from "../schema/crawl.js"

/** Every event type a webhook can receive (API.md §6). */
export type WebhookEventType =
  | "crawl.started" | "crawl.page" | "crawl.completed" | "crawl.failed"
  | "batch_scrape.started" | "batch_scrape.page" | "batch_scrape.completed" | "batch_scrape.failed"
  | "extract.started" | "extract.completed" | "extract.failed"
  | "monitor.page" | "monitor.check.completed"
  | "agent.started" | "agent.action" | "agent.completed" | "agent.failed" | "agent.cancelled"

/** One event of a job, before it is addressed to a webhook. */
export interface WebhookEvent {
  readonly type: WebhookEventType
  /** The crawl, batch scrape, extract, monitor or agent id. */
  readonly id: string
  /** Default true. */
  readonly success?: boolean
  /** Default `[]` (started and completed events carry no data). */
  readonly data?: ReadonlyArray<unknown>
  /** Present on failures (`success: false`). */
  readonly error?: string
}

/** The payload POSTed to the receiver. */
export interface WebhookPayload {
  readonly success: boolean
  readonly type: WebhookEventType
  readonly id: string
  readonly webhookId: string
  readonly error?: string
  readonly data: ReadonlyArray<unknown>
  readonly metadata: Readonly<Record<string, string>>
}

/** A request's `webhook` field with its defaults filled in. */
export interface WebhookTarget {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly metadata: Readonly<Record<string, string>>
  /** Empty means every event. */
  readonly events: ReadonlyArray<string>
}

/** A bare string is `{url}`; absent headers, metadata and events are empty. */
export const webhookTarget = (webhook: Webhook): WebhookTarget =>
  typeof webhook === "string"
    ? { url: webhook, headers: {}, metadata: {}, events: [] }
    : { url: webhook.url, headers: webhook.headers ?? {}, metadata: webhook.metadata ?? {}, events: webhook.events ?? [] }

/** `crawl.page` → `page`; `monitor.check.completed` → `check.completed`. */
export const shortEventName = (type: string): string => type.slice(type.indexOf(".") + 1)

/** True when the filter lets the event through: no filter, or its long or short name listed. */
export const wantsEvent = (events: ReadonlyArray<string>, type: WebhookEventType): boolean =>
  events.length === 0 || events.includes(type) || events.includes(shortEventName(type))

export const webhookPayload = (
  event: WebhookEvent,
  webhookId: string,
  metadata: Readonly<Record<string, string>>
): WebhookPayload => ({
  success: event.success ?? true,
  type: event.type,
  id: event.id,
  webhookId,
  ...(event.error === undefined ? {} : { error: event.error }),
  data: event.data ?? [],
  metadata
})

/** The job kinds whose events share one shape. */
export type WebhookJobKind = "crawl" | "batch_scrape"

/** The events of crawls and batch scrapes, with the `data` §6 gives each. */
export const jobWebhookEvents = {
  started: (kind: WebhookJobKind, id: string): WebhookEvent => ({ type: `${kind}.started`, id, data: [] }),
  /** A page scraped: `data` is the Document. */
  page: (kind: WebhookJobKind, id: string, document: unknown): WebhookEvent => ({ type: `${kind}.page`, id, data: [document] }),
  /** A page that failed: the error, and its URL in `data[0].metadata.sourceURL`. */
  pageFailed: (kind: WebhookJobKind, id: string, sourceURL: string, error: string): WebhookEvent => ({
    type: `${kind}.page`,
    id,
    success: false,
    error,
    data: [{ metadata: { sourceURL } }]
  }),
  /** Results are read from the status endpoint, so `data` is empty. */
  completed: (kind: WebhookJobKind, id: string): WebhookEvent => ({ type: `${kind}.completed`, id, data: [] }),
  /** The job failed as a whole (upstream has no such event; Gleaner sends it so receivers are not left waiting). */
  failed: (kind: WebhookJobKind, id: string, error: string): WebhookEvent => ({ type: `${kind}.failed`, id, success: false, error, data: [] })
} as const
