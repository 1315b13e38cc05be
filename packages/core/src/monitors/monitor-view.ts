/**
 * Store rows of monitors as the API shows them (API.md §3.12): epoch milliseconds become ISO
 * strings, JSON columns are decoded with their schemas. A row that no longer decodes is a
 * defect (it was written by this code), not a caller's mistake.
 */
import { Schema } from "effect"
import type { MonitorCheckPageRecord, MonitorCheckRecord, MonitorRecord } from "../ports/store.js"
import {
  type Monitor,
  type MonitorCheck,
  type MonitorCheckPage,
  MonitorJudgment,
  MonitorPageDiff,
  MonitorSpec,
  MonitorSummary,
  MonitorTargetResult
} from "../schema/monitor.js"

const iso = (ms: number): string => new Date(ms).toISOString()
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms))

export const decodeSpec = Schema.decodeUnknownSync(Schema.parseJson(MonitorSpec))
export const encodeSpec = Schema.encodeSync(Schema.parseJson(MonitorSpec))
const decodeSummary = Schema.decodeUnknownSync(Schema.parseJson(MonitorSummary))
const decodeTargetResults = Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(MonitorTargetResult)))
const decodeJudgment = Schema.decodeUnknownSync(Schema.parseJson(MonitorJudgment))
const decodeDiff = Schema.decodeUnknownSync(Schema.parseJson(MonitorPageDiff))
const decodeJson = Schema.decodeUnknownSync(Schema.parseJson(Schema.Unknown))
const SnapshotJson = Schema.parseJson(Schema.Struct({ json: Schema.optional(Schema.Unknown) }))
const decodeSnapshot = Schema.decodeUnknownSync(SnapshotJson)

export const emptySummary: MonitorSummary = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 }

export const toMonitor = (row: MonitorRecord): Monitor => {
  const spec = decodeSpec(row.spec)
  const recipients = spec.notification?.email?.recipients ?? []
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    schedule: { cron: row.cron, timezone: row.timezone },
    nextRunAt: row.status === "active" ? isoOrNull(row.nextRunAt) : null,
    lastRunAt: isoOrNull(row.lastRunAt),
    currentCheckId: row.currentCheckId,
    targets: spec.targets,
    webhook: spec.webhook,
    notification: spec.notification,
    // Recipients are set by the team's own API key holders: no opt-in round trip (see docs/monitors.md).
    emailRecipientSubscriptions: recipients.map((email) => ({ email, status: "confirmed" as const, source: "team" as const, confirmationEmailSent: false })),
    retentionDays: row.retentionDays,
    estimatedCreditsPerMonth: spec.estimatedCreditsPerMonth,
    lastCheckSummary: row.lastCheckSummary === null ? null : decodeSummary(row.lastCheckSummary),
    goal: spec.goal,
    judgeEnabled: spec.judgeEnabled,
    ignore: spec.ignore,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt)
  }
}

export const toCheck = (row: MonitorCheckRecord): MonitorCheck => ({
  id: row.id,
  monitorId: row.monitorId,
  status: row.status,
  trigger: row.trigger,
  scheduledFor: isoOrNull(row.scheduledFor),
  startedAt: isoOrNull(row.startedAt),
  finishedAt: isoOrNull(row.finishedAt),
  estimatedCredits: row.estimatedCredits,
  reservedCredits: row.reservedCredits,
  actualCredits: row.actualCredits,
  billingStatus: row.billingStatus,
  summary: decodeSummary(row.summary),
  targetResults: decodeTargetResults(row.targetResults),
  notificationStatus: row.notificationStatus === null ? null : decodeJson(row.notificationStatus),
  error: row.error,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt)
})

export const toCheckPage = (row: MonitorCheckPageRecord): MonitorCheckPage => ({
  id: row.id,
  targetId: row.targetId,
  url: row.url,
  status: row.status,
  previousScrapeId: row.previousScrapeId,
  currentScrapeId: row.currentScrapeId,
  statusCode: row.statusCode,
  error: row.error,
  metadata: row.metadata === null ? null : decodeJson(row.metadata),
  judgment: row.judgment === null ? null : decodeJudgment(row.judgment),
  createdAt: iso(row.createdAt),
  diff: row.diff === null ? null : decodeDiff(row.diff),
  ...(row.snapshot === null ? {} : { snapshot: decodeSnapshot(row.snapshot) })
})
