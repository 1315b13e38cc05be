/**
 * Wire types of monitors (API.md §3.12): the create and update bodies with their limits, the
 * monitor and check objects, the check's pages, and the query parameters of the list endpoints.
 * Times on the wire are ISO strings; the store keeps epoch milliseconds.
 */
import { Schema } from "effect"
import { strictBody } from "./common.js"
import { crawlerOptionFields, webhookObject } from "./crawl.js"
import { ScrapeOptions } from "./scrape-options.js"

const monitorEvents = ["monitor.page", "monitor.check.completed", "page", "check.completed"] as const

/** The monitor's webhook: the object form of a crawl's, with the monitor events. */
export const MonitorWebhook = webhookObject(
  (event) => (monitorEvents as ReadonlyArray<string>).includes(event),
  "monitor.page, monitor.check.completed"
).annotations({ identifier: "MonitorWebhook" })
export type MonitorWebhook = typeof MonitorWebhook.Type

/** Loose on purpose: the address is only ever handed to the SMTP relay. */
const Email = Schema.String.pipe(
  Schema.maxLength(254),
  Schema.pattern(/^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/, { message: () => "Expected an e-mail address such as ops@example.com" })
)

export const MonitorNotification = Schema.Struct({
  email: Schema.optional(Schema.Struct({
    enabled: Schema.optional(Schema.Boolean),
    recipients: Schema.optional(Schema.Array(Email).pipe(
      Schema.maxItems(25, { message: () => "At most 25 e-mail recipients per monitor" })
    )),
    includeDiffs: Schema.optional(Schema.Boolean)
  })),
  slack: Schema.optional(Schema.Struct({
    enabled: Schema.optional(Schema.Boolean),
    channelId: Schema.optional(Schema.String),
    channelName: Schema.optional(Schema.String)
  }).pipe(Schema.filter((s) => s.enabled === true ? "Slack notifications are not available on Gleaner; use the webhook or e-mail" : true)))
}).annotations({ identifier: "MonitorNotification" })
export type MonitorNotification = typeof MonitorNotification.Type

const Uuid = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
  message: () => "Expected a UUID"
}))

export const MonitorScrapeTarget = Schema.Struct({
  type: Schema.Literal("scrape"),
  id: Schema.optional(Uuid),
  urls: Schema.Array(Schema.String.pipe(Schema.minLength(1))).pipe(Schema.minItems(1, { message: () => "A scrape target needs at least one URL" })),
  scrapeOptions: Schema.optional(ScrapeOptions)
})

export const MonitorCrawlOptions = Schema.Struct({
  ...crawlerOptionFields,
  limit: Schema.optional(Schema.Int.pipe(Schema.positive())),
  sitemap: Schema.optional(Schema.Literal("skip", "include", "only")),
  maxConcurrency: Schema.optional(Schema.Int.pipe(Schema.positive()))
})

export const MonitorCrawlTarget = Schema.Struct({
  type: Schema.Literal("crawl"),
  id: Schema.optional(Uuid),
  url: Schema.String.pipe(Schema.minLength(1)),
  crawlOptions: Schema.optional(MonitorCrawlOptions),
  scrapeOptions: Schema.optional(ScrapeOptions)
})

/** Accepted by the schema so the answer can say why it is refused (search arrives with its issue). */
export const MonitorSearchTarget = Schema.Struct({
  type: Schema.Literal("search"),
  id: Schema.optional(Uuid),
  queries: Schema.optional(Schema.Array(Schema.String)),
  searchWindow: Schema.optional(Schema.String),
  includeDomains: Schema.optional(Schema.Array(Schema.String)),
  excludeDomains: Schema.optional(Schema.Array(Schema.String)),
  maxResults: Schema.optional(Schema.Number)
})

export const MonitorTarget = Schema.Union(MonitorScrapeTarget, MonitorCrawlTarget, MonitorSearchTarget)
  .annotations({ identifier: "MonitorTarget" })
export type MonitorTarget = typeof MonitorTarget.Type

const Targets = Schema.Array(MonitorTarget).pipe(
  Schema.minItems(1, { message: () => "A monitor needs at least one target" }),
  Schema.maxItems(50, { message: () => "At most 50 targets per monitor" })
)

export const MonitorScheduleInput = Schema.Struct({
  cron: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128))),
  text: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128))),
  timezone: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)))
}).pipe(
  Schema.filter((s) => (s.cron === undefined) === (s.text === undefined)
    ? { path: ["cron"], message: "Give exactly one of schedule.cron (a cron expression) or schedule.text (such as \"every 30 minutes\")" }
    : true)
).annotations({ identifier: "MonitorSchedule" })
export type MonitorScheduleInput = typeof MonitorScheduleInput.Type

/** A Gleaner extension: areas and lines whose changes are never reported (clocks, counters, ads). */
export const MonitorIgnore = Schema.Struct({
  /** CSS selectors removed from every page before comparing (added to each scrape's `excludeTags`). */
  selectors: Schema.optional(Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))).pipe(Schema.maxItems(50))),
  /** Regular expressions; markdown lines matching one are left out of the comparison. */
  patterns: Schema.optional(Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))).pipe(Schema.maxItems(50)))
}).annotations({ identifier: "MonitorIgnore" })
export type MonitorIgnore = typeof MonitorIgnore.Type

const monitorFields = {
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)),
  schedule: MonitorScheduleInput,
  targets: Targets,
  webhook: Schema.optional(Schema.NullOr(MonitorWebhook)),
  notification: Schema.optional(Schema.NullOr(MonitorNotification)),
  retentionDays: Schema.optional(Schema.Int.pipe(Schema.between(1, 365, { message: () => "retentionDays must be between 1 and 365" }))),
  goal: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))),
  judgeEnabled: Schema.optional(Schema.Boolean),
  ignore: Schema.optional(Schema.NullOr(MonitorIgnore))
}

/** `POST /v2/monitor`. */
export const CreateMonitorRequest = strictBody(monitorFields).annotations({ identifier: "CreateMonitorRequest" })
export type CreateMonitorRequest = typeof CreateMonitorRequest.Type

/** `PATCH /v2/monitor/:id`: any field of the create body, plus `status`; not nothing. */
export const UpdateMonitorRequest = strictBody({
  name: Schema.optional(monitorFields.name),
  schedule: Schema.optional(MonitorScheduleInput),
  targets: Schema.optional(Targets),
  webhook: monitorFields.webhook,
  notification: monitorFields.notification,
  retentionDays: monitorFields.retentionDays,
  goal: monitorFields.goal,
  judgeEnabled: monitorFields.judgeEnabled,
  ignore: monitorFields.ignore,
  status: Schema.optional(Schema.Literal("active", "paused"))
}).annotations({ identifier: "UpdateMonitorRequest" })
export type UpdateMonitorRequest = typeof UpdateMonitorRequest.Type

export const MonitorSummary = Schema.Struct({
  totalPages: Schema.Number,
  same: Schema.Number,
  changed: Schema.Number,
  new: Schema.Number,
  removed: Schema.Number,
  error: Schema.Number
}).annotations({ identifier: "MonitorSummary" })
export type MonitorSummary = typeof MonitorSummary.Type

/** A target as stored and shown: its id is always set. */
export const StoredMonitorTarget = Schema.Union(
  Schema.Struct({ ...MonitorScrapeTarget.fields, id: Schema.String }),
  Schema.Struct({ ...MonitorCrawlTarget.fields, id: Schema.String })
)
export type StoredMonitorTarget = typeof StoredMonitorTarget.Type

/** What the store's `spec` column holds: the definition beyond the indexed columns. */
export const MonitorSpec = Schema.Struct({
  targets: Schema.Array(StoredMonitorTarget),
  webhook: Schema.NullOr(MonitorWebhook),
  notification: Schema.NullOr(MonitorNotification),
  goal: Schema.NullOr(Schema.String),
  judgeEnabled: Schema.Boolean,
  ignore: Schema.NullOr(MonitorIgnore),
  estimatedCreditsPerMonth: Schema.Number
})
export type MonitorSpec = typeof MonitorSpec.Type

const Iso = Schema.String
const NullableIso = Schema.NullOr(Schema.String)

export const EmailRecipientSubscription = Schema.Struct({
  email: Schema.String,
  status: Schema.Literal("pending", "confirmed", "unsubscribed"),
  source: Schema.Literal("team", "opt_in", "legacy"),
  confirmationEmailSent: Schema.Boolean
})

export const Monitor = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Schema.Literal("active", "paused"),
  schedule: Schema.Struct({ cron: Schema.String, timezone: Schema.String }),
  nextRunAt: NullableIso,
  lastRunAt: NullableIso,
  currentCheckId: Schema.NullOr(Schema.String),
  targets: Schema.Array(StoredMonitorTarget),
  webhook: Schema.NullOr(MonitorWebhook),
  notification: Schema.NullOr(MonitorNotification),
  emailRecipientSubscriptions: Schema.Array(EmailRecipientSubscription),
  retentionDays: Schema.Number,
  estimatedCreditsPerMonth: Schema.Number,
  lastCheckSummary: Schema.NullOr(MonitorSummary),
  goal: Schema.NullOr(Schema.String),
  judgeEnabled: Schema.Boolean,
  ignore: Schema.NullOr(MonitorIgnore),
  createdAt: Iso,
  updatedAt: Iso
}).annotations({ identifier: "Monitor" })
export type Monitor = typeof Monitor.Type

export const MonitorCheckStatusLiteral = Schema.Literal("queued", "running", "completed", "failed", "partial", "skipped_overlap", "skipped_no_credits")

export const MonitorTargetResult = Schema.Struct({
  targetId: Schema.String,
  type: Schema.Literal("scrape", "crawl"),
  /** Scrape targets: the URLs checked. */
  expectedJobs: Schema.optional(Schema.Array(Schema.String)),
  /** Crawl targets: the crawl that found the pages. */
  crawlId: Schema.optional(Schema.String),
  pages: Schema.optional(Schema.Number),
  error: Schema.optional(Schema.String)
})
export type MonitorTargetResult = typeof MonitorTargetResult.Type

export const MonitorCheck = Schema.Struct({
  id: Schema.String,
  monitorId: Schema.String,
  status: MonitorCheckStatusLiteral,
  trigger: Schema.Literal("scheduled", "manual"),
  scheduledFor: NullableIso,
  startedAt: NullableIso,
  finishedAt: NullableIso,
  estimatedCredits: Schema.NullOr(Schema.Number),
  reservedCredits: Schema.NullOr(Schema.Number),
  actualCredits: Schema.NullOr(Schema.Number),
  billingStatus: Schema.Literal("not_applicable", "reserved", "confirmed", "released", "failed"),
  summary: MonitorSummary,
  targetResults: Schema.Array(MonitorTargetResult),
  notificationStatus: Schema.NullOr(Schema.Unknown),
  error: Schema.NullOr(Schema.String),
  createdAt: Iso,
  updatedAt: Iso
}).annotations({ identifier: "MonitorCheck" })
export type MonitorCheck = typeof MonitorCheck.Type

export const MonitorJudgment = Schema.Struct({
  meaningful: Schema.Boolean,
  confidence: Schema.Literal("high", "medium", "low"),
  reason: Schema.String,
  meaningfulChanges: Schema.Array(Schema.Struct({
    type: Schema.Literal("added", "removed", "changed"),
    before: Schema.NullOr(Schema.String),
    after: Schema.NullOr(Schema.String),
    reason: Schema.String
  })),
  /** Which judge decided: `deterministic` (goal terms in the changed lines) until an LLM is configured. */
  judge: Schema.Literal("deterministic", "llm")
}).annotations({ identifier: "MonitorJudgment" })
export type MonitorJudgment = typeof MonitorJudgment.Type

export const MonitorPageDiff = Schema.Struct({
  text: Schema.optional(Schema.String),
  json: Schema.optional(Schema.Unknown)
})
export type MonitorPageDiff = typeof MonitorPageDiff.Type

export const MonitorCheckPage = Schema.Struct({
  id: Schema.String,
  targetId: Schema.String,
  url: Schema.String,
  status: Schema.Literal("same", "new", "changed", "removed", "error"),
  previousScrapeId: Schema.NullOr(Schema.String),
  currentScrapeId: Schema.NullOr(Schema.String),
  statusCode: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  metadata: Schema.NullOr(Schema.Unknown),
  judgment: Schema.NullOr(MonitorJudgment),
  createdAt: Iso,
  diff: Schema.NullOr(MonitorPageDiff),
  snapshot: Schema.optional(Schema.NullOr(Schema.Struct({ json: Schema.optional(Schema.Unknown) })))
}).annotations({ identifier: "MonitorCheckPage" })
export type MonitorCheckPage = typeof MonitorCheckPage.Type

const pageNumber = (name: string, min: number, max: number) =>
  Schema.NumberFromString.pipe(
    Schema.int({ message: () => `${name} must be an integer` }),
    Schema.between(min, max, { message: () => `${name} must be between ${min} and ${max}` })
  )

export const MonitorListParams = Schema.Struct({
  limit: Schema.optional(pageNumber("limit", 1, 100)),
  offset: Schema.optional(pageNumber("offset", 0, Number.MAX_SAFE_INTEGER))
})

export const MonitorChecksParams = Schema.Struct({
  limit: Schema.optional(pageNumber("limit", 1, 100)),
  offset: Schema.optional(pageNumber("offset", 0, Number.MAX_SAFE_INTEGER)),
  status: Schema.optional(MonitorCheckStatusLiteral)
})

export const MonitorCheckParams = Schema.Struct({
  limit: Schema.optional(pageNumber("limit", 1, 100)),
  skip: Schema.optional(pageNumber("skip", 0, Number.MAX_SAFE_INTEGER)),
  status: Schema.optional(Schema.Literal("same", "new", "changed", "removed", "error"))
})

export const MonitorResponse = Schema.Struct({ success: Schema.Literal(true), data: Monitor }).annotations({ identifier: "MonitorResponse" })
export const MonitorListResponse = Schema.Struct({ success: Schema.Literal(true), data: Schema.Array(Monitor) })
  .annotations({ identifier: "MonitorListResponse" })
export const MonitorDeleteResponse = Schema.Struct({ success: Schema.Literal(true) }).annotations({ identifier: "MonitorDeleteResponse" })
export const MonitorRunResponse = Schema.Struct({ success: Schema.Literal(true), id: Schema.String, data: MonitorCheck })
  .annotations({ identifier: "MonitorRunResponse" })
export const MonitorChecksResponse = Schema.Struct({ success: Schema.Literal(true), data: Schema.Array(MonitorCheck) })
  .annotations({ identifier: "MonitorChecksResponse" })
export const MonitorCheckDetail = Schema.Struct({
  ...MonitorCheck.fields,
  pages: Schema.Array(MonitorCheckPage),
  next: Schema.optional(Schema.String)
}).annotations({ identifier: "MonitorCheckDetail" })
export type MonitorCheckDetail = typeof MonitorCheckDetail.Type
export const MonitorCheckResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: MonitorCheckDetail,
  next: Schema.optional(Schema.String)
}).annotations({ identifier: "MonitorCheckResponse" })
