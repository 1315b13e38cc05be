/**
 * Monitors, their checks with each check's pages, and the snapshots checks compare with. A
 * monitor's current check is claimed with one conditional UPDATE (`current_check_id IS NULL`),
 * so of two processes starting a check at once only one gets it. Deletes remove dependent rows
 * explicitly in one transaction (not only through ON DELETE CASCADE, which SQLite applies only
 * with foreign keys switched on).
 */
import type {
  MonitorCheckPageRecord,
  MonitorCheckRecord,
  MonitorRecord,
  MonitorSnapshot,
  StoreService
} from "@gleaner/core"
import { Effect, Schema } from "effect"
import { column, type Db, DbNumber, decodeFirst, decodeRows } from "./database.js"

const MonitorFromRow = Schema.Struct({
  id: Schema.String,
  teamId: column("team_id", Schema.String),
  apiKeyId: column("api_key_id", Schema.NullOr(Schema.String)),
  name: Schema.String,
  status: Schema.Literal("active", "paused"),
  cron: Schema.String,
  timezone: Schema.String,
  spec: Schema.String,
  retentionDays: column("retention_days", DbNumber),
  nextRunAt: column("next_run_at", Schema.NullOr(DbNumber)),
  lastRunAt: column("last_run_at", Schema.NullOr(DbNumber)),
  currentCheckId: column("current_check_id", Schema.NullOr(Schema.String)),
  lastCheckSummary: column("last_check_summary", Schema.NullOr(Schema.String)),
  createdAt: column("created_at", DbNumber),
  updatedAt: column("updated_at", DbNumber)
})

const CheckFromRow = Schema.Struct({
  id: Schema.String,
  monitorId: column("monitor_id", Schema.String),
  teamId: column("team_id", Schema.String),
  status: Schema.Literal("queued", "running", "completed", "failed", "partial", "skipped_overlap", "skipped_no_credits"),
  trigger: Schema.Literal("scheduled", "manual"),
  scheduledFor: column("scheduled_for", Schema.NullOr(DbNumber)),
  startedAt: column("started_at", Schema.NullOr(DbNumber)),
  finishedAt: column("finished_at", Schema.NullOr(DbNumber)),
  estimatedCredits: column("estimated_credits", Schema.NullOr(DbNumber)),
  reservedCredits: column("reserved_credits", Schema.NullOr(DbNumber)),
  actualCredits: column("actual_credits", Schema.NullOr(DbNumber)),
  billingStatus: column("billing_status", Schema.Literal("not_applicable", "reserved", "confirmed", "released", "failed")),
  summary: Schema.String,
  targetResults: column("target_results", Schema.String),
  notificationStatus: column("notification_status", Schema.NullOr(Schema.String)),
  error: Schema.NullOr(Schema.String),
  createdAt: column("created_at", DbNumber),
  updatedAt: column("updated_at", DbNumber)
})

const PageFromRow = Schema.Struct({
  id: Schema.String,
  checkId: column("check_id", Schema.String),
  monitorId: column("monitor_id", Schema.String),
  teamId: column("team_id", Schema.String),
  targetId: column("target_id", Schema.String),
  url: Schema.String,
  status: Schema.Literal("same", "new", "changed", "removed", "error"),
  previousScrapeId: column("previous_scrape_id", Schema.NullOr(Schema.String)),
  currentScrapeId: column("current_scrape_id", Schema.NullOr(Schema.String)),
  statusCode: column("status_code", Schema.NullOr(DbNumber)),
  error: Schema.NullOr(Schema.String),
  metadata: Schema.NullOr(Schema.String),
  judgment: Schema.NullOr(Schema.String),
  diff: Schema.NullOr(Schema.String),
  snapshot: Schema.NullOr(Schema.String),
  createdAt: column("created_at", DbNumber)
})

const SnapshotFromRow = Schema.Struct({
  monitorId: column("monitor_id", Schema.String),
  teamId: column("team_id", Schema.String),
  targetId: column("target_id", Schema.String),
  url: Schema.String,
  markdown: Schema.String,
  json: Schema.NullOr(Schema.String),
  scrapeId: column("scrape_id", Schema.String),
  scrapedAt: column("scraped_at", DbNumber)
})

const decodeMonitors = decodeRows(MonitorFromRow)
const decodeMonitor = decodeFirst(MonitorFromRow)
const decodeChecks = decodeRows(CheckFromRow)
const decodeCheck = decodeFirst(CheckFromRow)
const decodePages = decodeRows(PageFromRow)
const decodeSnapshots = decodeRows(SnapshotFromRow)
const decodeSnapshot = decodeFirst(SnapshotFromRow)
const decodeRetentions = decodeRows(Schema.Struct({ retention_days: DbNumber }))

const DAY_MS = 86_400_000

export const makeMonitors = ({ execute, query, transaction }: Db): StoreService["monitors"] => ({
  insert: (m: MonitorRecord) =>
    Effect.asVoid(execute(query.insertInto("monitors").values({
      id: m.id,
      team_id: m.teamId,
      api_key_id: m.apiKeyId,
      name: m.name,
      status: m.status,
      cron: m.cron,
      timezone: m.timezone,
      spec: m.spec,
      retention_days: m.retentionDays,
      next_run_at: m.nextRunAt,
      last_run_at: m.lastRunAt,
      current_check_id: m.currentCheckId,
      last_check_summary: m.lastCheckSummary,
      created_at: m.createdAt,
      updated_at: m.updatedAt
    }))),

  get: (teamId, id) =>
    Effect.flatMap(execute(query.selectFrom("monitors").selectAll().where("team_id", "=", teamId).where("id", "=", id)), decodeMonitor),

  list: (teamId, page) =>
    Effect.flatMap(
      execute(query.selectFrom("monitors").selectAll().where("team_id", "=", teamId)
        .orderBy("created_at", "desc").orderBy("id", "desc").limit(page.limit).offset(page.offset)),
      decodeMonitors
    ),

  active: () => Effect.flatMap(execute(query.selectFrom("monitors").selectAll().where("status", "=", "active").orderBy("id")), decodeMonitors),

  update: (teamId, id, c) =>
    Effect.flatMap(
      execute(query.updateTable("monitors").set({
        ...(c.name === undefined ? {} : { name: c.name }),
        ...(c.status === undefined ? {} : { status: c.status }),
        ...(c.cron === undefined ? {} : { cron: c.cron }),
        ...(c.timezone === undefined ? {} : { timezone: c.timezone }),
        ...(c.spec === undefined ? {} : { spec: c.spec }),
        ...(c.retentionDays === undefined ? {} : { retention_days: c.retentionDays }),
        ...(c.nextRunAt === undefined ? {} : { next_run_at: c.nextRunAt }),
        updated_at: c.updatedAt
      }).where("team_id", "=", teamId).where("id", "=", id).returningAll()),
      decodeMonitor
    ),

  delete: (teamId, id) =>
    transaction(Effect.gen(function*() {
      const found = yield* execute(query.selectFrom("monitors").select("id").where("team_id", "=", teamId).where("id", "=", id))
      if (found.length === 0) return false
      yield* execute(query.deleteFrom("monitor_check_pages").where("monitor_id", "=", id))
      yield* execute(query.deleteFrom("monitor_checks").where("monitor_id", "=", id))
      yield* execute(query.deleteFrom("monitor_snapshots").where("monitor_id", "=", id))
      yield* execute(query.deleteFrom("monitors").where("id", "=", id))
      return true
    })),

  beginCheck: (id, checkId, now) =>
    Effect.map(
      execute(query.updateTable("monitors").set({ current_check_id: checkId, updated_at: now })
        .where("id", "=", id).where("current_check_id", "is", null).returning("id")),
      (rows) => rows.length > 0
    ),

  endCheck: (id, checkId, outcome) =>
    Effect.map(
      execute(query.updateTable("monitors").set({
        current_check_id: null,
        last_run_at: outcome.lastRunAt,
        last_check_summary: outcome.lastCheckSummary
      }).where("id", "=", id).where("current_check_id", "=", checkId).returning("id")),
      (rows) => rows.length > 0
    ),

  setNextRunAt: (id, nextRunAt) => Effect.asVoid(execute(query.updateTable("monitors").set({ next_run_at: nextRunAt }).where("id", "=", id)))
})

const pageValues = (p: MonitorCheckPageRecord) => ({
  id: p.id,
  check_id: p.checkId,
  monitor_id: p.monitorId,
  team_id: p.teamId,
  target_id: p.targetId,
  url: p.url,
  status: p.status,
  previous_scrape_id: p.previousScrapeId,
  current_scrape_id: p.currentScrapeId,
  status_code: p.statusCode,
  error: p.error,
  metadata: p.metadata,
  judgment: p.judgment,
  diff: p.diff,
  snapshot: p.snapshot,
  created_at: p.createdAt
})

export const makeMonitorChecks = ({ execute, query, transaction }: Db): StoreService["monitorChecks"] => ({
  insert: (c: MonitorCheckRecord) =>
    Effect.asVoid(execute(query.insertInto("monitor_checks").values({
      id: c.id,
      monitor_id: c.monitorId,
      team_id: c.teamId,
      status: c.status,
      trigger: c.trigger,
      scheduled_for: c.scheduledFor,
      started_at: c.startedAt,
      finished_at: c.finishedAt,
      estimated_credits: c.estimatedCredits,
      reserved_credits: c.reservedCredits,
      actual_credits: c.actualCredits,
      billing_status: c.billingStatus,
      summary: c.summary,
      target_results: c.targetResults,
      notification_status: c.notificationStatus,
      error: c.error,
      created_at: c.createdAt,
      updated_at: c.updatedAt
    }))),

  get: (teamId, monitorId, id) =>
    Effect.flatMap(
      execute(query.selectFrom("monitor_checks").selectAll().where("team_id", "=", teamId).where("monitor_id", "=", monitorId).where("id", "=", id)),
      decodeCheck
    ),

  list: (teamId, monitorId, filter) => {
    const base = query.selectFrom("monitor_checks").selectAll().where("team_id", "=", teamId).where("monitor_id", "=", monitorId)
    const filtered = filter.status === undefined ? base : base.where("status", "=", filter.status)
    return Effect.flatMap(execute(filtered.orderBy("created_at", "desc").orderBy("id", "desc").limit(filter.limit).offset(filter.offset)), decodeChecks)
  },

  update: (id, c) =>
    Effect.flatMap(
      execute(query.updateTable("monitor_checks").set({
        ...(c.status === undefined ? {} : { status: c.status }),
        ...(c.startedAt === undefined ? {} : { started_at: c.startedAt }),
        ...(c.finishedAt === undefined ? {} : { finished_at: c.finishedAt }),
        ...(c.estimatedCredits === undefined ? {} : { estimated_credits: c.estimatedCredits }),
        ...(c.reservedCredits === undefined ? {} : { reserved_credits: c.reservedCredits }),
        ...(c.actualCredits === undefined ? {} : { actual_credits: c.actualCredits }),
        ...(c.billingStatus === undefined ? {} : { billing_status: c.billingStatus }),
        ...(c.summary === undefined ? {} : { summary: c.summary }),
        ...(c.targetResults === undefined ? {} : { target_results: c.targetResults }),
        ...(c.notificationStatus === undefined ? {} : { notification_status: c.notificationStatus }),
        ...(c.error === undefined ? {} : { error: c.error }),
        updated_at: c.updatedAt
      }).where("id", "=", id).returningAll()),
      decodeCheck
    ),

  putPage: (p) => {
    const { id: _id, check_id: _check, url: _url, ...changes } = pageValues(p)
    return Effect.asVoid(execute(query.insertInto("monitor_check_pages").values(pageValues(p))
      .onConflict((oc) => oc.columns(["check_id", "url"]).doUpdateSet(changes))))
  },

  pages: (checkId, filter) => {
    const base = query.selectFrom("monitor_check_pages").selectAll().where("check_id", "=", checkId)
    const filtered = filter.status === undefined ? base : base.where("status", "=", filter.status)
    return Effect.flatMap(execute(filtered.orderBy("created_at").orderBy("id").limit(filter.limit).offset(filter.skip)), decodePages)
  },

  purgeExpired: (now) =>
    transaction(Effect.gen(function*() {
      // one pass per distinct retention (at most 365), not one per monitor
      const retentions = yield* decodeRetentions(yield* execute(query.selectFrom("monitors").select("retention_days").distinct()))
      let checks = 0
      for (const { retention_days: days } of retentions) {
        const cutoff = now - days * DAY_MS
        const monitorIds = query.selectFrom("monitors").select("id").where("retention_days", "=", days)
        const expired = yield* execute(query.selectFrom("monitor_checks").select("id")
          .where("monitor_id", "in", monitorIds).where("created_at", "<", cutoff))
        if (expired.length > 0) {
          const ids = expired.map((row) => row.id)
          for (let i = 0; i < ids.length; i += 500) {
            const batch = ids.slice(i, i + 500)
            yield* execute(query.deleteFrom("monitor_check_pages").where("check_id", "in", batch))
            yield* execute(query.deleteFrom("monitor_checks").where("id", "in", batch))
          }
          checks += ids.length
        }
        yield* execute(query.deleteFrom("monitor_snapshots").where("monitor_id", "in", monitorIds).where("scraped_at", "<", cutoff))
      }
      return checks
    }))
})

export const makeMonitorSnapshots = ({ execute, query }: Db): StoreService["monitorSnapshots"] => ({
  get: (monitorId, url) =>
    Effect.flatMap(execute(query.selectFrom("monitor_snapshots").selectAll().where("monitor_id", "=", monitorId).where("url", "=", url)), decodeSnapshot),

  put: (s: MonitorSnapshot) => {
    const values = {
      monitor_id: s.monitorId,
      url: s.url,
      team_id: s.teamId,
      target_id: s.targetId,
      markdown: s.markdown,
      json: s.json,
      scrape_id: s.scrapeId,
      scraped_at: s.scrapedAt
    }
    const { monitor_id: _m, url: _u, ...changes } = values
    return Effect.asVoid(execute(query.insertInto("monitor_snapshots").values(values)
      .onConflict((oc) => oc.columns(["monitor_id", "url"]).doUpdateSet(changes))))
  },

  ofTarget: (monitorId, targetId) =>
    Effect.flatMap(
      execute(query.selectFrom("monitor_snapshots").selectAll().where("monitor_id", "=", monitorId).where("target_id", "=", targetId).orderBy("url")),
      decodeSnapshots
    ),

  delete: (monitorId, url) =>
    Effect.asVoid(execute(query.deleteFrom("monitor_snapshots").where("monitor_id", "=", monitorId).where("url", "=", url)))
})
