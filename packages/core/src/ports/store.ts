/**
 * The Store port: everything Gleaner keeps. One tag, grouped by resource, so a storage layer
 * (SQLite, Postgres, …) is swapped as a whole. Times are epoch milliseconds everywhere; every
 * tenant-owned read takes the team id and filters by it, so another team's row is simply absent.
 *
 * Infrastructure failures (a lost connection, a broken disk) are defects here: callers cannot
 * act on them, and the HTTP adapter answers them with a logged 500. Expected outcomes (a name
 * already taken, a job no longer owned) are values or typed errors.
 */
import { Context, type Effect, type Option } from "effect"
import type { ConflictError } from "../errors.js"

export interface Team {
  readonly id: string
  readonly name: string
  readonly plan: string
  /** Concurrent jobs allowed for this team (copied from its plan, adjustable). */
  readonly maxConcurrency: number
  readonly createdAt: number
}

export interface ApiKey {
  readonly id: string
  readonly teamId: string
  readonly name: string
  /** The first characters of the key, safe to display (`fc-3d47a2…`). */
  readonly displayPrefix: string
  readonly createdAt: number
  readonly revokedAt: number | null
}

export interface NewApiKey {
  readonly id: string
  readonly teamId: string
  readonly name: string
  readonly displayPrefix: string
  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  readonly hash: string
  readonly createdAt: number
}

export interface LedgerEntry {
  readonly id: string
  readonly teamId: string
  readonly apiKeyId: string | null
  /** What was done: `scrape`, `crawl`, `map`, … or `grant` for credits added. */
  readonly operation: string
  readonly jobId: string | null
  /** Credits consumed; negative for refunds and grants. */
  readonly credits: number
  /** Start of the billing period the entry counts against (epoch ms). */
  readonly periodStart: number
  readonly createdAt: number
  /** A retried operation with the same key is recorded once. */
  readonly idempotencyKey: string | null
}

export interface PeriodUsage {
  readonly periodStart: number
  readonly apiKeyId: string | null
  readonly credits: number
}

export type JobStatus = "queued" | "running" | "completed" | "failed" | "cancelled"

export interface Job {
  readonly id: string
  readonly teamId: string
  readonly kind: string
  /** JSON-encoded input of the job, decoded by its handler. */
  readonly payload: string
  readonly status: JobStatus
  readonly priority: number
  readonly attempts: number
  readonly maxAttempts: number
  /** Not claimable before this time (backoff, delayed jobs). */
  readonly runAt: number
  readonly workerId: string | null
  readonly leaseExpiresAt: number | null
  readonly cancelRequested: boolean
  /** JSON-encoded result or error, as the handler produced it. */
  readonly result: string | null
  readonly error: string | null
  readonly createdAt: number
  readonly updatedAt: number
  readonly startedAt: number | null
  readonly finishedAt: number | null
}

export interface NewJob {
  readonly id: string
  readonly teamId: string
  readonly kind: string
  readonly payload: string
  readonly priority?: number
  readonly maxAttempts?: number
  readonly runAt: number
  readonly createdAt: number
}

export interface ClaimRequest {
  readonly workerId: string
  readonly now: number
  readonly leaseMs: number
  /** At most this many jobs (the worker's free slots). */
  readonly limit: number
  /** Only these kinds; all kinds when absent. */
  readonly kinds?: ReadonlyArray<string>
}

export interface HeartbeatResult {
  /** False when the lease was lost (expired and taken, or the job was settled elsewhere). */
  readonly owned: boolean
  readonly cancelRequested: boolean
}

export interface JobCounts {
  readonly queued: number
  readonly running: number
}

/** A scrape's result kept for `GET /v2/scrape/:id` (never written under zero data retention). */
export interface StoredDocument {
  readonly id: string
  readonly teamId: string
  /** The URL as the caller sent it. */
  readonly sourceUrl: string
  /** The JSON-encoded Document, as the API returned it. */
  readonly document: string
  /** JSON of the request's `auditMetadata`, kept with the record. */
  readonly auditMetadata: string | null
  /** JSON of the ScrapeReplay (URL, waitFor, actions, device, headers) scrape-interact re-opens; null for older rows. */
  readonly replay: string | null
  readonly createdAt: number
  readonly expiresAt: number
}

/**
 * A page of a crawl or batch scrape: the frontier entry while `pending`, its result once
 * settled. Unique per (job, key), so a page found twice or retried after a crash is one row.
 */
export type JobPageStatus = "pending" | "done" | "failed" | "blocked"

export interface JobPage {
  readonly jobId: string
  readonly teamId: string
  /** The crawl's dedupe key of the URL (normalised). */
  readonly key: string
  /** The URL to fetch. */
  readonly url: string
  /** Link hops from the start URL (0 for the start and for sitemap URLs of the start's site). */
  readonly depth: number
  readonly status: JobPageStatus
  /** JSON of the Document, when done. */
  readonly document: string | null
  /** JSON of the error (`{code, error}`), when failed; the reason, when blocked. */
  readonly error: string | null
  readonly createdAt: number
  readonly finishedAt: number | null
}

export interface NewJobPage {
  readonly key: string
  readonly url: string
  readonly depth: number
  /** `blocked` records a URL robots.txt refused (listed by `/errors`); default `pending`. */
  readonly status?: "pending" | "blocked"
  readonly error?: string
}

export interface JobPageCounts {
  readonly pending: number
  readonly done: number
  readonly failed: number
  readonly blocked: number
}

export type JobPageOutcome =
  | { readonly status: "done"; readonly document: string }
  | { readonly status: "failed"; readonly error: string }

/** A fetched page kept for `maxAge`: what was fetched, so any formats can be made from it again. */
export interface CachedPage {
  readonly teamId: string
  /** The normalised URL plus the options that change what is fetched. */
  readonly key: string
  /** The final URL after redirects. */
  readonly url: string
  readonly statusCode: number
  readonly contentType: string | null
  readonly body: Uint8Array
  readonly fetchedAt: number
}

/** The last content seen of a URL (per team and change-tracking tag), for `changeTracking`. */
export interface PageSnapshot {
  readonly teamId: string
  readonly url: string
  /** The changeTracking `tag` ("" when none). */
  readonly tag: string
  readonly markdown: string
  /** JSON of the json-mode values, when that mode was used. */
  readonly json: string | null
  readonly scrapedAt: number
}

/** A webhook delivery in the outbox: `pending` until it is delivered or its retries run out. */
export type WebhookDeliveryStatus = "pending" | "delivered" | "failed"

export interface WebhookDelivery {
  /** Also the payload's `webhookId`. */
  readonly id: string
  readonly teamId: string
  readonly url: string
  /** The caller's custom headers, sent as given. */
  readonly headers: Readonly<Record<string, string>>
  /** The exact JSON text POSTed (and signed). */
  readonly body: string
  /** The event type (`crawl.page`, …). */
  readonly event: string
  /** Attempts started so far (counted when a sender claims the delivery). */
  readonly attempts: number
  /** Not sent before this time: its retry time, or the lease of the sender holding it. */
  readonly nextAttemptAt: number
  readonly status: WebhookDeliveryStatus
  readonly lastError: string | null
  readonly createdAt: number
  readonly deliveredAt: number | null
}

export interface NewWebhookDelivery {
  readonly id: string
  readonly teamId: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly event: string
  /** Also when it is first due. */
  readonly createdAt: number
}

/** A monitor (API.md §3.12): a schedule, targets and notification settings, per team. */
export type MonitorStatus = "active" | "paused"

export interface MonitorRecord {
  readonly id: string
  readonly teamId: string
  /** The key that created it (its checks are billed to it); null when made in-process without one. */
  readonly apiKeyId: string | null
  readonly name: string
  readonly status: MonitorStatus
  readonly cron: string
  readonly timezone: string
  /** JSON of the rest of the definition (targets, webhook, notification, goal, judge, exclusions), decoded by core. */
  readonly spec: string
  readonly retentionDays: number
  readonly nextRunAt: number | null
  readonly lastRunAt: number | null
  /** The check in progress (queued or running); at most one per monitor. */
  readonly currentCheckId: string | null
  /** JSON of the last finished check's summary. */
  readonly lastCheckSummary: string | null
  readonly createdAt: number
  readonly updatedAt: number
}

export interface MonitorChanges {
  readonly name?: string
  readonly status?: MonitorStatus
  readonly cron?: string
  readonly timezone?: string
  readonly spec?: string
  readonly retentionDays?: number
  readonly nextRunAt?: number | null
  readonly updatedAt: number
}

export type MonitorCheckStatus = "queued" | "running" | "completed" | "failed" | "partial" | "skipped_overlap" | "skipped_no_credits"

export interface MonitorCheckRecord {
  readonly id: string
  readonly monitorId: string
  readonly teamId: string
  readonly status: MonitorCheckStatus
  readonly trigger: "scheduled" | "manual"
  readonly scheduledFor: number | null
  readonly startedAt: number | null
  readonly finishedAt: number | null
  readonly estimatedCredits: number | null
  readonly reservedCredits: number | null
  readonly actualCredits: number | null
  readonly billingStatus: "not_applicable" | "reserved" | "confirmed" | "released" | "failed"
  /** JSON `{totalPages, same, changed, new, removed, error}`. */
  readonly summary: string
  /** JSON array of per-target results. */
  readonly targetResults: string
  /** JSON of what was notified (webhook, e-mail), or null before notifications. */
  readonly notificationStatus: string | null
  readonly error: string | null
  readonly createdAt: number
  readonly updatedAt: number
}

export interface MonitorCheckChanges {
  readonly status?: MonitorCheckStatus
  readonly startedAt?: number | null
  readonly finishedAt?: number | null
  readonly estimatedCredits?: number | null
  readonly reservedCredits?: number | null
  readonly actualCredits?: number | null
  readonly billingStatus?: MonitorCheckRecord["billingStatus"]
  readonly summary?: string
  readonly targetResults?: string
  readonly notificationStatus?: string | null
  readonly error?: string | null
  readonly updatedAt: number
}

export type MonitorPageStatus = "same" | "new" | "changed" | "removed" | "error"

/** One page's outcome in one check. Unique per (check, url). */
export interface MonitorCheckPageRecord {
  readonly id: string
  readonly checkId: string
  readonly monitorId: string
  readonly teamId: string
  readonly targetId: string
  readonly url: string
  readonly status: MonitorPageStatus
  readonly previousScrapeId: string | null
  readonly currentScrapeId: string | null
  readonly statusCode: number | null
  readonly error: string | null
  /** JSON of the page's metadata, or null. */
  readonly metadata: string | null
  /** JSON of the judgment, or null. */
  readonly judgment: string | null
  /** JSON `{text?, json?}`, or null when nothing changed. */
  readonly diff: string | null
  /** JSON `{json}` of the extracted JSON (json-mode monitors), or null. */
  readonly snapshot: string | null
  readonly createdAt: number
}

/** The last content a monitor saw of a URL: what the next check compares with. Unique per (monitor, url). */
export interface MonitorSnapshot {
  readonly monitorId: string
  readonly teamId: string
  readonly targetId: string
  readonly url: string
  /** The page's markdown as scraped (normalised again at every comparison). */
  readonly markdown: string
  /** JSON of the extracted JSON, or null. */
  readonly json: string | null
  /** The scrape that produced it (a check page's `currentScrapeId`). */
  readonly scrapeId: string
  readonly scrapedAt: number
}

/** A browser session's record (the browser itself lives in the process that created it). */
export interface BrowserSessionRecord {
  readonly id: string
  readonly teamId: string
  readonly apiKeyId: string | null
  /** The process serving the session (its instance id). */
  readonly ownerId: string
  readonly status: "active" | "destroyed"
  /** Hex SHA-256 of the session's URL token; the token itself is never stored. */
  readonly tokenHash: string
  readonly streamWebView: boolean
  readonly ttlSeconds: number
  readonly activityTtlSeconds: number
  readonly createdAt: number
  readonly expiresAt: number
  readonly lastActivityAt: number
  /** Last time the owning process said it still serves the session. */
  readonly seenAt: number
  readonly endedAt: number | null
  /** Credits debited when it ended (null while active). */
  readonly creditsBilled: number | null
  /** Why it ended: `deleted`, `expired`, `inactive`, `crashed`, `shutdown`, `orphaned`. */
  readonly endReason: string | null
}

export interface StoreService {
  readonly teams: {
    /** Fails with ConflictError when the name is taken. */
    readonly create: (team: Team) => Effect.Effect<Team, ConflictError>
    readonly get: (id: string) => Effect.Effect<Option.Option<Team>>
    readonly findByName: (name: string) => Effect.Effect<Option.Option<Team>>
    readonly list: () => Effect.Effect<ReadonlyArray<Team>>
    readonly update: (
      id: string,
      changes: { readonly plan?: string; readonly maxConcurrency?: number }
    ) => Effect.Effect<Option.Option<Team>>
  }
  readonly apiKeys: {
    readonly insert: (key: NewApiKey) => Effect.Effect<ApiKey>
    /** The active (not revoked) key with this hash and its team. */
    readonly findActiveByHash: (
      hash: string
    ) => Effect.Effect<Option.Option<{ readonly key: ApiKey; readonly team: Team }>>
    readonly list: (teamId?: string) => Effect.Effect<ReadonlyArray<ApiKey>>
    /** True when an active key was revoked by this call. */
    readonly revoke: (id: string, now: number) => Effect.Effect<boolean>
  }
  readonly ledger: {
    /** False (and nothing written) when the idempotency key was already recorded. */
    readonly append: (entry: LedgerEntry) => Effect.Effect<boolean>
    /** Net credits of one team in one billing period. */
    readonly periodTotal: (teamId: string, periodStart: number) => Effect.Effect<number>
    /** Net credits of one job (a crawl's pages, a batch's). */
    readonly jobTotal: (teamId: string, jobId: string) => Effect.Effect<number>
    /** Net credits per period (and per API key when asked), oldest period first. */
    readonly usageByPeriod: (
      teamId: string,
      options: { readonly byApiKey: boolean }
    ) => Effect.Effect<ReadonlyArray<PeriodUsage>>
    readonly list: (teamId: string, options: { readonly jobId?: string }) => Effect.Effect<ReadonlyArray<LedgerEntry>>
  }
  readonly rateLimits: {
    /** Adds one hit to the counter of `key` in the window starting at `windowStart`; the new count. */
    readonly hit: (key: string, windowStart: number) => Effect.Effect<number>
    /** Removes windows that started before `before`. */
    readonly purge: (before: number) => Effect.Effect<void>
  }
  readonly documents: {
    readonly put: (document: StoredDocument) => Effect.Effect<void>
    /** The team's document, unless it expired by `now`. */
    readonly get: (teamId: string, id: string, now: number) => Effect.Effect<Option.Option<StoredDocument>>
    /** Deletes documents that expired before `now`; how many. */
    readonly purgeExpired: (now: number) => Effect.Effect<number>
  }
  readonly pageCache: {
    /** Replaces the team's entry for the key. */
    readonly put: (page: CachedPage) => Effect.Effect<void>
    readonly get: (teamId: string, key: string) => Effect.Effect<Option.Option<CachedPage>>
  }
  readonly snapshots: {
    /** Replaces the snapshot of (team, url, tag). */
    readonly put: (snapshot: PageSnapshot) => Effect.Effect<void>
    readonly latest: (teamId: string, url: string, tag: string) => Effect.Effect<Option.Option<PageSnapshot>>
  }
  readonly jobPages: {
    /** Adds the pages the job does not have yet (by key); the keys that were new. */
    readonly add: (
      jobId: string,
      teamId: string,
      pages: ReadonlyArray<NewJobPage>,
      now: number
    ) => Effect.Effect<ReadonlyArray<string>>
    /** Pending pages, shallowest first, then in the order they were found. */
    readonly pending: (jobId: string, limit: number) => Effect.Effect<ReadonlyArray<JobPage>>
    /** The keys the job knows, in any status (to rebuild the frontier after a restart). */
    readonly keys: (jobId: string) => Effect.Effect<ReadonlyArray<string>>
    /** Settles a pending page; false when it was already settled (nothing written). */
    readonly settle: (jobId: string, key: string, outcome: JobPageOutcome, now: number) => Effect.Effect<boolean>
    readonly counts: (jobId: string) => Effect.Effect<JobPageCounts>
    /** Done pages in the order they finished, from `offset`. */
    readonly results: (
      jobId: string,
      teamId: string,
      options: { readonly offset: number; readonly limit: number }
    ) => Effect.Effect<ReadonlyArray<JobPage>>
    /** Failed and blocked pages. */
    readonly problems: (jobId: string, teamId: string) => Effect.Effect<ReadonlyArray<JobPage>>
    /** Deletes every page of the job. */
    readonly deleteJob: (jobId: string) => Effect.Effect<void>
  }
  readonly idempotencyKeys: {
    /** Records the team's key; false (nothing written) when it was used before. */
    readonly claim: (teamId: string, key: string, now: number) => Effect.Effect<boolean>
  }
  /**
   * Browser profiles (`profile: {name, saveChanges}`): a team's named browser state (cookies and
   * local storage, as JSON) and its write lock, so two writers never interleave.
   */
  readonly browserProfiles: {
    /** The saved state; None when nothing was saved under the name yet. */
    readonly get: (teamId: string, name: string) => Effect.Effect<Option.Option<{ readonly state: string; readonly updatedAt: number }>>
    /**
     * Takes the write lock for `holder` until `untilMs`; false when another holder has it and it
     * has not expired by `now`. The holder may take it again (extend).
     */
    readonly lock: (teamId: string, name: string, holder: string, now: number, untilMs: number) => Effect.Effect<boolean>
    /** Saves the state, when `holder` still holds the lock, and releases it; false when it did not. */
    readonly save: (teamId: string, name: string, holder: string, state: string, now: number) => Effect.Effect<boolean>
    /** Releases the lock if `holder` has it. */
    readonly unlock: (teamId: string, name: string, holder: string) => Effect.Effect<void>
  }
  /**
   * Claims of scheduled runs (cron schedules such as monitors'): several processes may watch one
   * schedule, and the one whose claim is recorded first fires the run.
   */
  readonly scheduledRuns: {
    /**
     * Records that `claimer` fires the run of `scheduleKey` due at `runAtMs`; false (nothing
     * written) when that run was claimed already, by anyone. Of concurrent claimers exactly one wins.
     */
    readonly claim: (scheduleKey: string, runAtMs: number, claimer: string, now: number) => Effect.Effect<boolean>
    /** Deletes claims of runs due before `before`; how many. */
    readonly purge: (before: number) => Effect.Effect<number>
  }
  /**
   * Monitors, their checks, the pages of each check and the snapshots checks compare with.
   * Deleting a monitor deletes all of these.
   */
  readonly monitors: {
    readonly insert: (monitor: MonitorRecord) => Effect.Effect<void>
    readonly get: (teamId: string, id: string) => Effect.Effect<Option.Option<MonitorRecord>>
    /** The team's monitors, newest first. */
    readonly list: (teamId: string, page: { readonly limit: number; readonly offset: number }) => Effect.Effect<ReadonlyArray<MonitorRecord>>
    /** Active monitors of every team (what the scheduler watches). */
    readonly active: () => Effect.Effect<ReadonlyArray<MonitorRecord>>
    /** The changed monitor, or None when the team has no such monitor. */
    readonly update: (teamId: string, id: string, changes: MonitorChanges) => Effect.Effect<Option.Option<MonitorRecord>>
    /** Deletes the monitor with its checks, check pages and snapshots; false when there was none. */
    readonly delete: (teamId: string, id: string) => Effect.Effect<boolean>
    /**
     * Makes `checkId` the monitor's current check when it has none; false (nothing written) when
     * a check is already current. Of concurrent callers exactly one wins.
     */
    readonly beginCheck: (id: string, checkId: string, now: number) => Effect.Effect<boolean>
    /**
     * Clears the current check if it is `checkId` and records the finished check: `lastRunAt`
     * and `lastCheckSummary` (JSON). False when `checkId` was not current.
     */
    readonly endCheck: (
      id: string,
      checkId: string,
      outcome: { readonly lastRunAt: number; readonly lastCheckSummary: string | null; readonly now: number }
    ) => Effect.Effect<boolean>
    /** Records the next scheduled run (null when none). */
    readonly setNextRunAt: (id: string, nextRunAt: number | null) => Effect.Effect<void>
  }
  readonly monitorChecks: {
    readonly insert: (check: MonitorCheckRecord) => Effect.Effect<void>
    readonly get: (teamId: string, monitorId: string, id: string) => Effect.Effect<Option.Option<MonitorCheckRecord>>
    /** The monitor's checks, newest first, optionally of one status. */
    readonly list: (
      teamId: string,
      monitorId: string,
      filter: { readonly limit: number; readonly offset: number; readonly status?: MonitorCheckStatus }
    ) => Effect.Effect<ReadonlyArray<MonitorCheckRecord>>
    /** None when there is no such check. */
    readonly update: (id: string, changes: MonitorCheckChanges) => Effect.Effect<Option.Option<MonitorCheckRecord>>
    /** Adds a page outcome; a second one for the same (check, url) replaces the first. */
    readonly putPage: (page: MonitorCheckPageRecord) => Effect.Effect<void>
    /** The check's pages in the order they were written (createdAt, then id), optionally of one status. */
    readonly pages: (
      checkId: string,
      filter: { readonly limit: number; readonly skip: number; readonly status?: MonitorPageStatus }
    ) => Effect.Effect<ReadonlyArray<MonitorCheckPageRecord>>
    /**
     * Deletes checks (with their pages) created, and snapshots taken, more than their monitor's
     * `retentionDays` before `now`; how many checks.
     */
    readonly purgeExpired: (now: number) => Effect.Effect<number>
  }
  readonly monitorSnapshots: {
    readonly get: (monitorId: string, url: string) => Effect.Effect<Option.Option<MonitorSnapshot>>
    /** Replaces the snapshot of (monitor, url). */
    readonly put: (snapshot: MonitorSnapshot) => Effect.Effect<void>
    /** Every snapshot of one target of the monitor (to find pages a crawl no longer finds). */
    readonly ofTarget: (monitorId: string, targetId: string) => Effect.Effect<ReadonlyArray<MonitorSnapshot>>
    readonly delete: (monitorId: string, url: string) => Effect.Effect<void>
  }
  readonly webhooks: {
    readonly enqueue: (delivery: NewWebhookDelivery) => Effect.Effect<WebhookDelivery>
    /**
     * Claims up to `limit` pending deliveries due by `now`, oldest due first: each one's attempt
     * is counted and its `nextAttemptAt` moved to `now + leaseMs`, so no other sender takes it
     * meanwhile and it comes back if this sender dies. Two claimers never get the same delivery.
     */
    readonly due: (now: number, limit: number, leaseMs: number) => Effect.Effect<ReadonlyArray<WebhookDelivery>>
    /** False when the delivery was no longer pending (nothing written). */
    readonly markDelivered: (id: string, now: number) => Effect.Effect<boolean>
    /** A failed attempt: pending again at `retryAt`, or failed for good when it is null. */
    readonly markFailed: (
      id: string,
      failure: { readonly error: string; readonly retryAt: number | null }
    ) => Effect.Effect<boolean>
    readonly get: (teamId: string, id: string) => Effect.Effect<Option.Option<WebhookDelivery>>
    /** Deletes delivered and failed deliveries created before `before`; how many. */
    readonly purgeSettled: (before: number) => Effect.Effect<number>
    /**
     * The team's signing secret; when it has none, `ifMissing` is stored and returned (atomically,
     * so concurrent first uses agree). None when there is no such team.
     */
    readonly teamSecret: (teamId: string, ifMissing: string) => Effect.Effect<Option.Option<string>>
    /** Replaces the team's signing secret; false when there is no such team. */
    readonly setTeamSecret: (teamId: string, secret: string) => Effect.Effect<boolean>
  }
  readonly browserSessions: {
    readonly insert: (session: BrowserSessionRecord) => Effect.Effect<void>
    readonly get: (teamId: string, id: string) => Effect.Effect<Option.Option<BrowserSessionRecord>>
    /** The team's sessions, newest first, optionally of one status. */
    readonly list: (
      teamId: string,
      status?: BrowserSessionRecord["status"]
    ) => Effect.Effect<ReadonlyArray<BrowserSessionRecord>>
    readonly countActive: (teamId: string) => Effect.Effect<number>
    /** Records activity (and that the owner still serves it) on an active session. */
    readonly touch: (id: string, lastActivityAt: number) => Effect.Effect<void>
    /** The owner still serves these active sessions. */
    readonly seen: (ids: ReadonlyArray<string>, now: number) => Effect.Effect<void>
    /**
     * Ends an active session: destroyed, with its end time, credits and reason. False (nothing
     * written) when it had already ended, so only one caller bills it.
     */
    readonly end: (
      id: string,
      ending: { readonly endedAt: number; readonly creditsBilled: number; readonly reason: string }
    ) => Effect.Effect<boolean>
    /** Active sessions whose owner has not been seen since `before` (their process died). */
    readonly orphaned: (before: number) => Effect.Effect<ReadonlyArray<BrowserSessionRecord>>
  }
  readonly jobs: {
    readonly enqueue: (job: NewJob) => Effect.Effect<Job>
    /**
     * Leases up to `limit` runnable jobs: queued ones whose `runAt` has come, and running ones
     * whose lease expired (their worker died). A team never has more running jobs than its
     * `maxConcurrency`; two claimers never get the same job.
     */
    readonly claim: (request: ClaimRequest) => Effect.Effect<ReadonlyArray<Job>>
    readonly heartbeat: (id: string, workerId: string, now: number, leaseMs: number) => Effect.Effect<HeartbeatResult>
    /** Settles a job this worker still owns; false when it does not (nothing written). */
    readonly complete: (id: string, workerId: string, result: string, now: number) => Effect.Effect<boolean>
    /** Fails a job this worker owns: back to the queue at `retryAt`, or failed for good when absent. */
    readonly fail: (
      id: string,
      workerId: string,
      failure: { readonly error: string; readonly retryAt: number | null },
      now: number
    ) => Effect.Effect<boolean>
    /** Gives an owned job back to the queue untouched (shutdown); the attempt is not counted. */
    readonly release: (id: string, workerId: string, now: number) => Effect.Effect<boolean>
    /** A queued job is cancelled at once; a running one is asked to stop (its worker sees it). */
    readonly cancel: (teamId: string, id: string, now: number) => Effect.Effect<Option.Option<Job>>
    /** Marks a job this worker owns as cancelled (after it saw the request and stopped). */
    readonly markCancelled: (id: string, workerId: string, now: number) => Effect.Effect<boolean>
    readonly get: (teamId: string, id: string) => Effect.Effect<Option.Option<Job>>
    /** The team's jobs of a kind in the given statuses, oldest first. */
    readonly list: (
      teamId: string,
      filter: { readonly kind: string; readonly statuses: ReadonlyArray<JobStatus> }
    ) => Effect.Effect<ReadonlyArray<Job>>
    /** Deletes up to 500 settled jobs created before `before` (their pages go with them); the ids deleted. */
    readonly purgeSettled: (before: number) => Effect.Effect<ReadonlyArray<string>>
    readonly counts: (teamId: string) => Effect.Effect<JobCounts>
    readonly lastCompletedAt: (teamId: string) => Effect.Effect<Option.Option<number>>
  }
}

export class Store extends Context.Tag("@gleaner/core/Store")<Store, StoreService>() {}
