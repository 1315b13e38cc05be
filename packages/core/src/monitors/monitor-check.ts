/**
 * One monitor check: scrape every page of every target, compare each with the monitor's last
 * snapshot of it, record the outcome (`same`, `new`, `changed`, `removed`, `error`) with its diff
 * and judgment, and tell the monitor's webhook and e-mail recipients.
 *
 * - Scrape targets scrape their URLs (never from the page cache: `maxAge` 0 unless the target
 *   says otherwise). A URL answering 404 or 410 that had a snapshot is `removed`.
 * - Crawl targets crawl their site under a child job that no worker claims (its pages live in the
 *   job's frontier rows, so a check retried after a crash resumes the crawl); the pages found are
 *   the monitored set, and pages found before but not now are `removed`.
 * - Comparison goes through `compareForMonitor`: normalised text without tracking parameters,
 *   cache-busters, rotating tokens and ignored lines, so unchanged content is never `changed`.
 * - Credits: the expected cost is checked against the balance and recorded as reserved before any
 *   page is fetched; pages are debited as they are scraped; the check settles with the sum.
 */
import { createHash } from "node:crypto"
import { Clock, Effect, Option, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import type { Billing } from "../billing/billing.js"
import { runCrawl } from "../crawl/crawl-run.js"
import type { JobNotifier } from "../jobs/job-webhooks.js"
import type { Fetcher } from "../ports/fetcher.js"
import type { Mailer } from "../ports/mailer.js"
import type {
  MonitorCheckPageRecord,
  MonitorCheckRecord,
  MonitorPageStatus,
  MonitorRecord,
  MonitorSnapshot,
  StoreService,
  Team
} from "../ports/store.js"
import type { CrawlRequest } from "../schema/crawl.js"
import { Document } from "../schema/document.js"
import type { MonitorJudgment, MonitorPageDiff, MonitorSpec, MonitorSummary, MonitorTargetResult, StoredMonitorTarget } from "../schema/monitor.js"
import type { Format, ScrapeOptions } from "../schema/scrape-options.js"
import type { Scraper } from "../scrape/scraper.js"
import type { Webhooks } from "../webhooks/webhooks.js"
import { uuidv7At } from "../ids.js"
import { judgeChange } from "./judge.js"
import { creditsPerCheck, wantsJson } from "./monitor-definition.js"
import { checkMail } from "./monitor-mail.js"
import { decodeSpec } from "./monitor-view.js"
import { compareForMonitor, compileNoiseRules, type NoiseRules } from "./noise.js"

/** The job kind of a check. */
export const MONITOR_CHECK_KIND = "monitor.check"
/** The kind of a crawl target's child job: never claimed by a worker (it runs inside its check). */
export const MONITOR_CRAWL_KIND = "monitor.crawl"

export const MonitorCheckPayload = Schema.Struct({
  monitorId: Schema.String,
  checkId: Schema.String,
  /** Where clients reached the server when the check was queued (base of served file URLs). */
  origin: Schema.optional(Schema.String)
})

export interface CheckDeps {
  readonly store: StoreService
  readonly scraper: Scraper
  readonly fetcher: Fetcher["Type"]
  readonly billing: Billing
  readonly webhooks: Webhooks
  readonly mailer: Option.Option<Mailer["Type"]>
  readonly maxPageBytes: number
}

/** A page's scrape: the document, or why there is none. */
type Scraped =
  | { readonly url: string; readonly document: Document }
  | { readonly url: string; readonly error: string }

/** A page's outcome in this check, as recorded and notified. */
export interface PageOutcome {
  readonly record: MonitorCheckPageRecord
  readonly isMeaningful: boolean
  readonly judgment: MonitorJudgment | null
  readonly diff: MonitorPageDiff | null
}

const NEVER_MS = 8_640_000_000_000_000
const silent: JobNotifier = { started: Effect.void, page: () => Effect.void, pageFailed: () => Effect.void, completed: Effect.void }
const decodeDocument = Schema.decodeUnknown(Schema.parseJson(Document))
const decodeJson = Schema.decodeUnknownSync(Schema.parseJson(Schema.Unknown))
/** A failed frontier row's error: `{code, error}`. */
const decodePageError = Schema.decodeUnknownOption(Schema.parseJson(Schema.Struct({ error: Schema.String })))

/** A stable UUID-shaped id from a seed: a retried check finds its crawl's child job again. */
const seededId = (seed: string): string => {
  const hex = createHash("sha256").update(seed).digest("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

const formatName = (f: Format): string => (typeof f === "string" ? f : f.type)

/** The target's scrape options for a check: markdown always, fresh pages, ignored areas removed. */
export const monitorScrapeOptions = (options: ScrapeOptions | undefined, ignoreSelectors: ReadonlyArray<string>): ScrapeOptions => {
  const formats = options?.formats ?? ["markdown"]
  return {
    ...options,
    formats: formats.some((f) => formatName(f) === "markdown") ? formats : [...formats, "markdown"],
    maxAge: options?.maxAge ?? 0,
    ...(ignoreSelectors.length === 0 ? {} : { excludeTags: [...(options?.excludeTags ?? []), ...ignoreSelectors] })
  }
}

const lines = (markdown: string): Array<string> => markdown.split("\n").map((l) => l.trim()).filter((l) => l !== "")

export const runMonitorCheck = (deps: CheckDeps, monitor: MonitorRecord, check: MonitorCheckRecord, team: Team) =>
  Effect.gen(function*() {
    const { store, scraper } = deps
    const spec: MonitorSpec = decodeSpec(monitor.spec)
    const compiled = compileNoiseRules({ excludePatterns: spec.ignore?.patterns ?? [] })
    const rules: NoiseRules | undefined = compiled.ok ? compiled.rules : undefined
    const auth: AuthContext = { team, apiKeyId: monitor.apiKeyId }
    const judging = spec.judgeEnabled && spec.goal !== null && spec.goal.trim() !== ""
    const ignoreSelectors = spec.ignore?.selectors ?? []
    const startedAt = yield* Clock.currentTimeMillis
    yield* store.monitorChecks.update(check.id, { status: "running", startedAt, updatedAt: startedAt })

    // what the check is expected to cost, against the balance, before any page is fetched
    const found = new Map<string, number>()
    for (const target of spec.targets) {
      if (target.type === "crawl") found.set(target.id, (yield* store.monitorSnapshots.ofTarget(monitor.id, target.id)).length)
    }
    const estimated = creditsPerCheck(spec.targets, found)
    const affordable = yield* deps.billing.ensure(team.id, Math.max(1, estimated)).pipe(
      Effect.as(true),
      Effect.catchTag("InsufficientCreditsError", () => Effect.succeed(false))
    )
    if (!affordable) {
      const now = yield* Clock.currentTimeMillis
      return {
        status: "skipped_no_credits" as const,
        summary: { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 },
        estimatedCredits: estimated,
        actualCredits: 0,
        targetResults: [],
        outcomes: [],
        error: `Not enough credits for this check (about ${estimated} needed).`,
        finishedAt: now
      }
    }
    yield* store.monitorChecks.update(check.id, {
      estimatedCredits: estimated,
      reservedCredits: estimated,
      billingStatus: "reserved",
      updatedAt: yield* Clock.currentTimeMillis
    })

    const summary = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 }
    const outcomes: Array<PageOutcome> = []
    const childJobs: Array<string> = []

    const notifyPage = (outcome: PageOutcome) =>
      spec.webhook === null || outcome.record.status === "same"
        ? Effect.void
        : Effect.asVoid(deps.webhooks.send(team.id, spec.webhook, {
          type: "monitor.page",
          id: monitor.id,
          data: [{
            monitorId: monitor.id,
            checkId: check.id,
            url: outcome.record.url,
            status: outcome.record.status,
            previousScrapeId: outcome.record.previousScrapeId,
            currentScrapeId: outcome.record.currentScrapeId,
            ...(outcome.record.error === null ? {} : { error: outcome.record.error }),
            isMeaningful: outcome.isMeaningful,
            ...(outcome.judgment === null ? {} : { judgment: outcome.judgment }),
            ...(outcome.diff === null ? {} : { diff: outcome.diff })
          }]
        }))

    /** Records one page's outcome: the check page row, the snapshot, the counters, the webhook. */
    const record = (
      target: StoredMonitorTarget,
      url: string,
      page: {
        readonly status: MonitorPageStatus
        readonly previous: Option.Option<MonitorSnapshot>
        readonly document?: Document
        readonly error?: string
        readonly diff?: MonitorPageDiff
        readonly changed?: { readonly added: ReadonlyArray<string>; readonly removed: ReadonlyArray<string> }
      }
    ) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const judgment = judging && spec.goal !== null && page.changed !== undefined &&
            (page.status === "new" || page.status === "changed" || page.status === "removed")
          ? judgeChange(spec.goal, { added: [...page.changed.added], removed: [...page.changed.removed] }, page.status)
          : null
        const jsonMode = wantsJson(target.scrapeOptions)
        const row: MonitorCheckPageRecord = {
          id: uuidv7At(now),
          checkId: check.id,
          monitorId: monitor.id,
          teamId: team.id,
          targetId: target.id,
          url,
          status: page.status,
          previousScrapeId: Option.match(page.previous, { onNone: () => null, onSome: (s) => s.scrapeId }),
          currentScrapeId: page.document?.metadata.scrapeId ?? null,
          statusCode: page.document?.metadata.statusCode ?? null,
          error: page.error ?? null,
          metadata: page.document === undefined ? null : JSON.stringify(page.document.metadata),
          judgment: judgment === null ? null : JSON.stringify(judgment),
          diff: page.diff === undefined ? null : JSON.stringify(page.diff),
          snapshot: jsonMode && page.document !== undefined ? JSON.stringify({ json: page.document.json ?? null }) : null,
          createdAt: now
        }
        yield* store.monitorChecks.putPage(row)
        summary.totalPages += 1
        summary[page.status] += 1
        // the counts so far, so a status read meanwhile shows progress
        yield* store.monitorChecks.update(check.id, { summary: JSON.stringify(summary), updatedAt: now })
        const outcome: PageOutcome = {
          record: row,
          judgment,
          isMeaningful: page.status !== "same" && (judgment?.meaningful ?? true),
          diff: page.diff ?? null
        }
        outcomes.push(outcome)
        yield* notifyPage(outcome)
      })

    /** Compares a scraped page with its snapshot and records the outcome. */
    const settle = (target: StoredMonitorTarget, scraped: Scraped) =>
      Effect.gen(function*() {
        const previous = yield* store.monitorSnapshots.get(monitor.id, scraped.url)
        if ("error" in scraped) return yield* record(target, scraped.url, { status: "error", previous, error: scraped.error })
        const { document } = scraped
        const statusCode = document.metadata.statusCode
        if (statusCode === 404 || statusCode === 410) {
          if (Option.isNone(previous)) {
            return yield* record(target, scraped.url, { status: "error", previous, document, error: `The page answered ${statusCode}.` })
          }
          yield* store.monitorSnapshots.delete(monitor.id, scraped.url)
          return yield* record(target, scraped.url, { status: "removed", previous, document, changed: { added: [], removed: lines(previous.value.markdown) } })
        }
        if (statusCode >= 400) {
          return yield* record(target, scraped.url, { status: "error", previous, document, error: `The page answered ${statusCode}.` })
        }
        const jsonMode = wantsJson(target.scrapeOptions)
        const markdown = document.markdown ?? ""
        const before = Option.match(previous, {
          onNone: () => undefined,
          onSome: (s) => ({ markdown: s.markdown, ...(s.json === null ? {} : { json: decodeJson(s.json) }) })
        })
        const compared = compareForMonitor(before, { markdown, ...(document.json === undefined ? {} : { json: document.json }) }, {
          rules: rules ?? { excludePatterns: [] },
          jsonMode
        })
        const now = yield* Clock.currentTimeMillis
        yield* store.monitorSnapshots.put({
          monitorId: monitor.id,
          teamId: team.id,
          targetId: target.id,
          url: scraped.url,
          markdown,
          json: document.json === undefined ? null : JSON.stringify(document.json),
          scrapeId: document.metadata.scrapeId,
          scrapedAt: now
        })
        const diff = compared.status !== "changed"
          ? undefined
          : jsonMode
          ? { ...(compared.diff === undefined ? {} : { text: compared.diff.text }), json: compared.jsonDiff ?? {} }
          : compared.diff === undefined ? undefined : { text: compared.diff.text, json: compared.diff.json }
        return yield* record(target, scraped.url, {
          status: compared.status,
          previous,
          document,
          ...(diff === undefined ? {} : { diff }),
          changed: compared.changedLines
        })
      })

    const scrapeOptions = (target: StoredMonitorTarget) => monitorScrapeOptions(target.scrapeOptions, ignoreSelectors)
    const workers = Math.max(1, Math.min(team.maxConcurrency, 8))

    const scrapeOne = (target: StoredMonitorTarget, url: string) =>
      scraper.scrape(auth, { ...scrapeOptions(target), url }, { operation: "monitor", jobId: check.id, idempotencyKey: `monitor:${check.id}:${url}` }).pipe(
        Effect.map((document): Scraped => ({ url, document })),
        Effect.catchAll((error) => Effect.succeed<Scraped>({ url, error: error.message })),
        Effect.catchAllDefect(() => Effect.succeed<Scraped>({ url, error: "The scrape failed unexpectedly." }))
      )

    const runTarget = (target: StoredMonitorTarget) =>
      Effect.gen(function*() {
        if (target.type === "scrape") {
          yield* Effect.forEach(target.urls, (url) => Effect.flatMap(scrapeOne(target, url), (scraped) => settle(target, scraped)), {
            concurrency: workers,
            discard: true
          })
          return { targetId: target.id, type: "scrape", expectedJobs: target.urls, pages: target.urls.length } satisfies MonitorTargetResult
        }
        // a crawl target: its pages are crawled under a child job, then compared
        const childId = seededId(`${check.id}:${target.id}`)
        childJobs.push(childId)
        const now = yield* Clock.currentTimeMillis
        const job = yield* Option.match(yield* store.jobs.get(team.id, childId), {
          onSome: Effect.succeed,
          onNone: () =>
            store.jobs.enqueue({
              id: childId,
              teamId: team.id,
              kind: MONITOR_CRAWL_KIND,
              payload: JSON.stringify({ monitorId: monitor.id, checkId: check.id, targetId: target.id }),
              maxAttempts: 1,
              runAt: NEVER_MS,
              createdAt: now
            })
        })
        const request: CrawlRequest = { ...target.crawlOptions, url: target.url, scrapeOptions: scrapeOptions(target) }
        const crawled = yield* runCrawl({ notify: silent, store, fetcher: deps.fetcher, scraper, maxPageBytes: deps.maxPageBytes }, job, team, request, monitor.apiKeyId).pipe(
          Effect.as(undefined),
          Effect.catchAll((error) => Effect.succeed(error.message))
        )
        const seen = new Set<string>()
        for (let offset = 0;; offset += 100) {
          const rows = yield* store.jobPages.results(childId, team.id, { offset, limit: 100 })
          for (const row of rows) {
            const document = yield* Effect.orDie(decodeDocument(row.document ?? ""))
            seen.add(row.url)
            yield* settle(target, { url: row.url, document })
          }
          if (rows.length < 100) break
        }
        for (const problem of yield* store.jobPages.problems(childId, team.id)) {
          if (problem.status !== "failed") continue
          seen.add(problem.url)
          const message = Option.match(decodePageError(problem.error ?? ""), { onNone: () => "The page could not be scraped.", onSome: (e) => e.error })
          yield* settle(target, { url: problem.url, error: message })
        }
        // pages the last checks saw that this crawl no longer finds
        if (crawled === undefined) {
          for (const snapshot of yield* store.monitorSnapshots.ofTarget(monitor.id, target.id)) {
            if (seen.has(snapshot.url)) continue
            yield* store.monitorSnapshots.delete(monitor.id, snapshot.url)
            yield* record(target, snapshot.url, {
              status: "removed",
              previous: Option.some(snapshot),
              changed: { added: [], removed: lines(snapshot.markdown) }
            })
          }
        }
        yield* store.jobs.cancel(team.id, childId, yield* Clock.currentTimeMillis)
        return {
          targetId: target.id,
          type: "crawl",
          crawlId: childId,
          pages: seen.size,
          ...(crawled === undefined ? {} : { error: crawled })
        } satisfies MonitorTargetResult
      })

    const targetResults = yield* Effect.forEach(spec.targets, runTarget)
    let actual = yield* store.ledger.jobTotal(team.id, check.id)
    for (const child of childJobs) actual += yield* store.ledger.jobTotal(team.id, child)
    const finishedAt = yield* Clock.currentTimeMillis
    const failedTargets = targetResults.filter((t) => "error" in t).length
    const status = summary.totalPages > 0 && summary.error === summary.totalPages
      ? "failed" as const
      : summary.error > 0 || failedTargets > 0 ? "partial" as const : "completed" as const
    return {
      status,
      summary: summary satisfies MonitorSummary,
      estimatedCredits: estimated,
      actualCredits: actual,
      targetResults,
      outcomes,
      error: status === "failed" ? "Every page of the check failed." : null,
      finishedAt
    }
  })

export type CheckResult = Effect.Effect.Success<ReturnType<typeof runMonitorCheck>>

/** Sends the check's e-mail when it is enabled and something other than `same` happened; what happened. */
export const mailCheck = (deps: CheckDeps, monitor: MonitorRecord, spec: MonitorSpec, checkId: string, result: CheckResult) =>
  Effect.gen(function*() {
    const email = spec.notification?.email
    const recipients = email?.recipients ?? []
    if (email?.enabled !== true || recipients.length === 0) return { status: "disabled" as const }
    const notable = result.outcomes.filter((o) => o.record.status !== "same")
    if (notable.length === 0) return { status: "nothing_to_report" as const }
    if (Option.isNone(deps.mailer)) return { status: "failed" as const, error: "E-mail is not configured: set GLEANER_SMTP_URL." }
    const mail = checkMail({ monitorName: monitor.name, monitorId: monitor.id, checkId, summary: result.summary, outcomes: notable, includeDiffs: email.includeDiffs === true, recipients })
    return yield* deps.mailer.value.send(mail).pipe(
      Effect.as({ status: "sent" as const, recipients: recipients.length }),
      Effect.catchAll((error) => Effect.succeed({ status: "failed" as const, error: error.message }))
    )
  })
