/**
 * Monitors (API.md §3.12): create, read, change, pause and delete a team's monitors; run a check
 * now or when the schedule says; read checks and their pages. A check is a job of kind
 * `monitor.check` whose id is the check's id; a monitor has at most one check queued or running
 * (`currentCheckId`), claimed in the store so two processes never start two.
 */
import { Cause, Clock, Effect, Either, Option, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { Billing } from "../billing/billing.js"
import { MONITOR_MIN_CREDITS } from "../billing/credits.js"
import { GleanerConfig } from "../config.js"
import { BadRequestError, ConflictError, NotFoundError } from "../errors.js"
import { PublicOrigin, withPublicOrigin } from "../files/file-links.js"
import { uuidv7At } from "../ids.js"
import { decodePayload, type JobHandler } from "../jobs/handlers.js"
import { JobQueue } from "../jobs/job-queue.js"
import { Fetcher } from "../ports/fetcher.js"
import { Mailer } from "../ports/mailer.js"
import { Scheduler } from "../ports/scheduler.js"
import { type MonitorCheckRecord, type MonitorRecord, Store } from "../ports/store.js"
import type {
  CreateMonitorRequest,
  MonitorCheckDetail,
  MonitorSpec,
  StoredMonitorTarget,
  UpdateMonitorRequest
} from "../schema/monitor.js"
import { Scraper } from "../scrape/scraper.js"
import type { ScheduledRun } from "../schedules/schedule-runner.js"
import { Webhooks } from "../webhooks/webhooks.js"
import { checkIgnore, creditsPerCheck, resolveSchedule, resolveTargets, runsPerMonth } from "./monitor-definition.js"
import { type CheckDeps, mailCheck, MONITOR_CHECK_KIND, MonitorCheckPayload, runMonitorCheck } from "./monitor-check.js"
import { decodeSpec, emptySummary, encodeSpec, toCheck, toCheckPage, toMonitor } from "./monitor-view.js"

export const monitorMessages = {
  notFound: "Monitor not found",
  checkNotFound: "Monitor check not found",
  emptyUpdate: "Update body cannot be empty",
  paused: "Monitor is paused. Set its status to \"active\" to run it.",
  running: "Monitor check is already running."
} as const

/** `monitor:<team>:<id>`: the key the ScheduleRunner claims runs under. */
export const monitorScheduleId = (monitor: Pick<MonitorRecord, "teamId" | "id">): string => `monitor:${monitor.teamId}:${monitor.id}`
const parseScheduleId = (id: string): Option.Option<{ readonly teamId: string; readonly monitorId: string }> => {
  const [kind, teamId, monitorId] = id.split(":")
  return kind === "monitor" && teamId !== undefined && monitorId !== undefined ? Option.some({ teamId, monitorId }) : Option.none()
}

const updatableKeys = ["name", "schedule", "targets", "webhook", "notification", "retentionDays", "goal", "judgeEnabled", "ignore", "status"] as const

const encodeJson = Schema.encodeSync(Schema.parseJson(Schema.Unknown))

export class Monitors extends Effect.Service<Monitors>()("@gleaner/core/Monitors", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const scheduler = yield* Scheduler
    const scraper = yield* Scraper
    const billing = yield* Billing
    const queue = yield* JobQueue
    const webhooks = yield* Webhooks
    const fetcher = yield* Fetcher
    const config = yield* GleanerConfig
    const mailer = yield* Effect.serviceOption(Mailer)
    const deps: CheckDeps = { store, scraper, fetcher, billing, webhooks, mailer, maxPageBytes: config.maxPageBytes }

    const find = Effect.fnUntraced(function*(teamId: string, id: string) {
      const found = yield* store.monitors.get(teamId, id)
      return yield* Option.match(found, { onNone: () => Effect.fail(new NotFoundError({ message: monitorMessages.notFound })), onSome: Effect.succeed })
    })

    /** Pages crawl targets found at their last check (for the monthly estimate). */
    const foundByTarget = Effect.fnUntraced(function*(monitorId: string, targets: ReadonlyArray<StoredMonitorTarget>) {
      const found = new Map<string, number>()
      for (const target of targets) {
        if (target.type === "crawl") found.set(target.id, (yield* store.monitorSnapshots.ofTarget(monitorId, target.id)).length)
      }
      return found
    })

    const estimate = Effect.fnUntraced(function*(cron: string, timezone: string, targets: ReadonlyArray<StoredMonitorTarget>, found: ReadonlyMap<string, number>, now: number) {
      return (yield* runsPerMonth(scheduler, cron, timezone, now)) * creditsPerCheck(targets, found)
    })

    const nextRunOf = (cron: string, timezone: string, after: number) =>
      Effect.map(scheduler.nextRun(cron, timezone, after), Option.getOrNull)

    const create = Effect.fn("Monitors.create")(function*(auth: AuthContext, body: CreateMonitorRequest) {
      const now = yield* Clock.currentTimeMillis
      const { cron, timezone } = yield* resolveSchedule(scheduler, body.schedule)
      const targets = yield* resolveTargets(scraper, body.targets, now)
      yield* checkIgnore(body.ignore)
      yield* billing.ensure(auth.team.id, MONITOR_MIN_CREDITS)
      const goal = body.goal === undefined || body.goal === null || body.goal.trim() === "" ? null : body.goal
      const spec: MonitorSpec = {
        targets,
        webhook: body.webhook ?? null,
        notification: body.notification ?? null,
        goal,
        judgeEnabled: body.judgeEnabled ?? goal !== null,
        ignore: body.ignore ?? null,
        estimatedCreditsPerMonth: yield* estimate(cron, timezone, targets, new Map(), now)
      }
      const record: MonitorRecord = {
        id: uuidv7At(now),
        teamId: auth.team.id,
        apiKeyId: auth.apiKeyId,
        name: body.name,
        status: "active",
        cron,
        timezone,
        spec: encodeSpec(spec),
        retentionDays: body.retentionDays ?? 30,
        nextRunAt: yield* nextRunOf(cron, timezone, now),
        lastRunAt: null,
        currentCheckId: null,
        lastCheckSummary: null,
        createdAt: now,
        updatedAt: now
      }
      yield* store.monitors.insert(record)
      return toMonitor(record)
    })

    const list = Effect.fn("Monitors.list")(function*(teamId: string, page: { readonly limit?: number | undefined; readonly offset?: number | undefined }) {
      const rows = yield* store.monitors.list(teamId, { limit: page.limit ?? 25, offset: page.offset ?? 0 })
      return rows.map(toMonitor)
    })

    const get = Effect.fn("Monitors.get")(function*(teamId: string, id: string) {
      return toMonitor(yield* find(teamId, id))
    })

    const update = Effect.fn("Monitors.update")(function*(auth: AuthContext, id: string, body: UpdateMonitorRequest) {
      if (!updatableKeys.some((key) => body[key] !== undefined)) {
        return yield* new BadRequestError({ message: monitorMessages.emptyUpdate })
      }
      const existing = yield* find(auth.team.id, id)
      const now = yield* Clock.currentTimeMillis
      const current = decodeSpec(existing.spec)
      const { cron, timezone } = body.schedule === undefined
        ? { cron: existing.cron, timezone: existing.timezone }
        : yield* resolveSchedule(scheduler, body.schedule)
      const targets = body.targets === undefined ? current.targets : yield* resolveTargets(scraper, body.targets, now)
      if (body.ignore !== undefined) yield* checkIgnore(body.ignore)
      yield* billing.ensure(auth.team.id, MONITOR_MIN_CREDITS)
      const goal = body.goal === undefined ? current.goal : body.goal === null || body.goal.trim() === "" ? null : body.goal
      const status = body.status ?? existing.status
      const spec: MonitorSpec = {
        targets,
        webhook: body.webhook === undefined ? current.webhook : body.webhook,
        notification: body.notification === undefined ? current.notification : body.notification,
        goal,
        judgeEnabled: body.judgeEnabled ?? (body.goal === undefined ? current.judgeEnabled : goal !== null),
        ignore: body.ignore === undefined ? current.ignore : body.ignore,
        estimatedCreditsPerMonth: yield* estimate(cron, timezone, targets, yield* foundByTarget(id, targets), now)
      }
      const updated = yield* store.monitors.update(auth.team.id, id, {
        ...(body.name === undefined ? {} : { name: body.name }),
        status,
        cron,
        timezone,
        spec: encodeSpec(spec),
        ...(body.retentionDays === undefined ? {} : { retentionDays: body.retentionDays }),
        nextRunAt: status === "active" ? yield* nextRunOf(cron, timezone, now) : null,
        updatedAt: now
      })
      return yield* Option.match(updated, {
        onNone: () => Effect.fail(new NotFoundError({ message: monitorMessages.notFound })),
        onSome: (row) => Effect.succeed(toMonitor(row))
      })
    })

    const remove = Effect.fn("Monitors.delete")(function*(teamId: string, id: string) {
      const monitor = yield* find(teamId, id)
      // a check in progress stops (its worker sees the cancel) rather than write for a monitor that is gone
      if (monitor.currentCheckId !== null) yield* store.jobs.cancel(teamId, monitor.currentCheckId, yield* Clock.currentTimeMillis)
      if (!(yield* store.monitors.delete(teamId, id))) return yield* new NotFoundError({ message: monitorMessages.notFound })
    })

    /**
     * Starts a check: claims the monitor's current-check slot, records the check, queues its job.
     * None when another check holds the slot (its id is read back for the 409).
     */
    const startCheck = Effect.fnUntraced(function*(monitor: MonitorRecord, trigger: "manual" | "scheduled", scheduledFor: number | null) {
      const now = yield* Clock.currentTimeMillis
      const checkId = uuidv7At(now)
      const check: MonitorCheckRecord = {
        id: checkId,
        monitorId: monitor.id,
        teamId: monitor.teamId,
        status: "queued",
        trigger,
        scheduledFor,
        startedAt: null,
        finishedAt: null,
        estimatedCredits: null,
        reservedCredits: null,
        actualCredits: null,
        billingStatus: "not_applicable",
        summary: encodeJson(emptySummary),
        targetResults: "[]",
        notificationStatus: null,
        error: null,
        createdAt: now,
        updatedAt: now
      }
      if (!(yield* store.monitors.beginCheck(monitor.id, checkId, now))) return Option.none<MonitorCheckRecord>()
      yield* store.monitorChecks.insert(check)
      const team = yield* store.teams.get(monitor.teamId)
      if (Option.isNone(team)) return yield* new NotFoundError({ message: `The team of monitor ${monitor.id} no longer exists` })
      const origin = yield* PublicOrigin
      yield* queue.enqueue({
        team: team.value,
        kind: MONITOR_CHECK_KIND,
        id: checkId,
        payload: Schema.encodeSync(MonitorCheckPayload)({ monitorId: monitor.id, checkId, ...Option.match(origin, { onNone: () => ({}), onSome: (o) => ({ origin: o }) }) }),
        maxAttempts: 3
      }).pipe(
        // nothing queued: the slot and the check must not stay taken
        Effect.tapError((error) =>
          Effect.gen(function*() {
            const at = yield* Clock.currentTimeMillis
            yield* store.monitorChecks.update(checkId, { status: "failed", finishedAt: at, error: error.message, updatedAt: at })
            yield* store.monitors.endCheck(monitor.id, checkId, { lastRunAt: monitor.lastRunAt ?? at, lastCheckSummary: monitor.lastCheckSummary, now: at })
          }))
      )
      return Option.some(check)
    })

    const run = Effect.fn("Monitors.run")(function*(auth: AuthContext, id: string) {
      const monitor = yield* find(auth.team.id, id)
      if (monitor.status === "paused") return yield* new ConflictError({ message: monitorMessages.paused })
      yield* billing.ensure(auth.team.id, MONITOR_MIN_CREDITS)
      const started = yield* startCheck(monitor, "manual", null)
      if (Option.isNone(started)) {
        const current = Option.flatMap(yield* store.monitors.get(auth.team.id, id), (m) => Option.fromNullable(m.currentCheckId))
        return yield* new ConflictError({ message: monitorMessages.running, details: { checkId: Option.getOrNull(current) } })
      }
      return toCheck(started.value)
    })

    /** A run the ScheduleRunner won: the next run is recorded, then a check starts (or is skipped). */
    const fireScheduled = Effect.fn("Monitors.fireScheduled")(function*(run: ScheduledRun) {
      const ids = parseScheduleId(run.scheduleId)
      if (Option.isNone(ids)) return
      const found = yield* store.monitors.get(ids.value.teamId, ids.value.monitorId)
      if (Option.isNone(found) || found.value.status !== "active") return
      const monitor = found.value
      yield* store.monitors.setNextRunAt(monitor.id, yield* nextRunOf(monitor.cron, monitor.timezone, Math.max(run.runAtMs, run.firedAtMs)))
      const started = yield* startCheck(monitor, "scheduled", run.runAtMs)
      if (Option.isSome(started)) return
      // the previous check is still going: this run is recorded as skipped
      const now = yield* Clock.currentTimeMillis
      yield* store.monitorChecks.insert({
        id: uuidv7At(now),
        monitorId: monitor.id,
        teamId: monitor.teamId,
        status: "skipped_overlap",
        trigger: "scheduled",
        scheduledFor: run.runAtMs,
        startedAt: null,
        finishedAt: now,
        estimatedCredits: null,
        reservedCredits: null,
        actualCredits: 0,
        billingStatus: "not_applicable",
        summary: encodeJson(emptySummary),
        targetResults: "[]",
        notificationStatus: null,
        error: "The previous check was still running.",
        createdAt: now,
        updatedAt: now
      })
    })

    const checks = Effect.fn("Monitors.checks")(function*(
      teamId: string,
      id: string,
      filter: { readonly limit?: number | undefined; readonly offset?: number | undefined; readonly status?: MonitorCheckRecord["status"] | undefined }
    ) {
      yield* find(teamId, id)
      const rows = yield* store.monitorChecks.list(teamId, id, {
        limit: filter.limit ?? 25,
        offset: filter.offset ?? 0,
        ...(filter.status === undefined ? {} : { status: filter.status })
      })
      return rows.map(toCheck)
    })

    /** A check with one page of its pages; `nextSkip` when more pages follow. */
    const check = Effect.fn("Monitors.check")(function*(
      teamId: string,
      id: string,
      checkId: string,
      filter: { readonly limit?: number | undefined; readonly skip?: number | undefined; readonly status?: "same" | "new" | "changed" | "removed" | "error" | undefined }
    ) {
      yield* find(teamId, id)
      const row = yield* store.monitorChecks.get(teamId, id, checkId)
      if (Option.isNone(row)) return yield* new NotFoundError({ message: monitorMessages.checkNotFound })
      const limit = filter.limit ?? 25
      const skip = filter.skip ?? 0
      // one more than asked tells whether another page follows
      const pages = yield* store.monitorChecks.pages(checkId, { limit: limit + 1, skip, ...(filter.status === undefined ? {} : { status: filter.status }) })
      const detail: MonitorCheckDetail = { ...toCheck(row.value), pages: pages.slice(0, limit).map(toCheckPage) }
      return { detail, ...(pages.length > limit ? { nextSkip: skip + limit } : {}) }
    })

    /** Finishes a check: its record, the monitor's last run, the completion webhook and e-mail. */
    const runCheckJob = Effect.fnUntraced(function*(monitor: MonitorRecord, checkRow: MonitorCheckRecord) {
      const spec = decodeSpec(monitor.spec)
      const team = yield* store.teams.get(monitor.teamId)
      if (Option.isNone(team)) return
      const result = yield* runMonitorCheck(deps, monitor, checkRow, team.value).pipe(
        Effect.map(Either.right),
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.as(Effect.logError("monitor check failed", Cause.pretty(cause)), Either.left(Cause.squash(cause))))
      )
      const now = yield* Clock.currentTimeMillis
      if (Either.isLeft(result)) {
        const message = result.left instanceof Error ? result.left.message : String(result.left)
        yield* store.monitorChecks.update(checkRow.id, { status: "failed", finishedAt: now, error: `The check failed: ${message}`, billingStatus: "released", updatedAt: now })
        yield* store.monitors.endCheck(monitor.id, checkRow.id, { lastRunAt: now, lastCheckSummary: monitor.lastCheckSummary, now })
        return
      }
      const done = result.right
      const webhookSent = spec.webhook === null ? false : Option.isSome(yield* webhooks.send(monitor.teamId, spec.webhook, {
        type: "monitor.check.completed",
        id: monitor.id,
        data: [{ monitorId: monitor.id, checkId: checkRow.id, status: done.status, summary: done.summary }]
      }))
      const email = yield* mailCheck(deps, monitor, spec, checkRow.id, done)
      const pageEvents = spec.webhook === null ? 0 : done.outcomes.filter((o) => o.record.status !== "same").length
      yield* store.monitorChecks.update(checkRow.id, {
        status: done.status,
        finishedAt: done.finishedAt,
        summary: encodeJson(done.summary),
        targetResults: encodeJson(done.targetResults),
        estimatedCredits: done.estimatedCredits,
        actualCredits: done.actualCredits,
        billingStatus: done.status === "skipped_no_credits" ? "not_applicable" : done.actualCredits > 0 ? "confirmed" : "released",
        notificationStatus: encodeJson({ webhook: { pageEvents, checkCompleted: webhookSent }, email }),
        error: done.error,
        updatedAt: now
      })
      yield* store.monitors.endCheck(monitor.id, checkRow.id, { lastRunAt: done.finishedAt, lastCheckSummary: encodeJson(done.summary), now })
      // a crawl target's page count is known now: the monthly estimate follows it (on the monitor as it is now)
      const latest = yield* store.monitors.get(monitor.teamId, monitor.id)
      if (Option.isSome(latest)) {
        const fresh = decodeSpec(latest.value.spec)
        if (fresh.targets.some((t) => t.type === "crawl")) {
          const estimated = yield* estimate(latest.value.cron, latest.value.timezone, fresh.targets, yield* foundByTarget(monitor.id, fresh.targets), now)
          yield* store.monitors.update(monitor.teamId, monitor.id, { spec: encodeSpec({ ...fresh, estimatedCreditsPerMonth: estimated }), updatedAt: latest.value.updatedAt })
        }
      }
    })

    const handler: JobHandler = {
      kind: MONITOR_CHECK_KIND,
      run: (job) =>
        Effect.gen(function*() {
          const payload = yield* decodePayload(MonitorCheckPayload)(job)
          const monitor = yield* store.monitors.get(job.teamId, payload.monitorId)
          const checkRow = yield* store.monitorChecks.get(job.teamId, payload.monitorId, payload.checkId)
          if (Option.isNone(monitor) || Option.isNone(checkRow)) return { skipped: "the monitor or check no longer exists" }
          if (checkRow.value.status !== "queued" && checkRow.value.status !== "running") return { skipped: "the check already finished" }
          yield* runCheckJob(monitor.value, checkRow.value).pipe(withPublicOrigin(payload.origin))
          return { checkId: payload.checkId }
        })
    }

    return { create, list, get, update, remove, run, checks, check, fireScheduled, handler } as const
  })
}) {}
