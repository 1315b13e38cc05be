/**
 * The Crawler (API.md §3.6): starts crawls as durable jobs, reports their status page by page,
 * cancels them, lists their errors and the team's active crawls, and is the handler the workers
 * run for the `crawl` job kind (see crawl-run.ts).
 */
import { Effect, Option, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { Billing } from "../billing/billing.js"
import { type PlanFeature, Plans } from "../billing/plans.js"
import { GleanerConfig } from "../config.js"
import { BadRequestError, ConflictError, messages, NotFoundError } from "../errors.js"
import { decodePayload, type JobHandler } from "../jobs/handlers.js"
import { JobQueue } from "../jobs/job-queue.js"
import { Fetcher } from "../ports/fetcher.js"
import { type Job, type JobPage, Store } from "../ports/store.js"
import type { CrawlRequest, JobErrorsResponse } from "../schema/crawl.js"
import { Document } from "../schema/document.js"
import { planScrape } from "../scrape/plan.js"
import { Scraper } from "../scrape/scraper.js"
import { normalizeRequestUrl } from "../scrape/url.js"
import { CrawlPayload, runCrawl, scopeOf } from "./crawl-run.js"
import { paramsFromPrompt } from "./prompt-params.js"

export const CRAWL_KIND = "crawl"

/** A status page holds at most this much document JSON (the one crossing it is left for the next page). */
const maxStatusBytes = 10 * 1024 * 1024
const defaultStatusLimit = 100

const robotsWarning =
  "One or more pages were unable to be crawled because the robots.txt file prevented this. Please use the /scrape endpoint instead."

const decodeDocument = Schema.decodeUnknown(Schema.parseJson(Document))
const ProblemJson = Schema.parseJson(Schema.Struct({ code: Schema.optional(Schema.String), error: Schema.String }))
const decodeProblem = Schema.decodeUnknownOption(ProblemJson)

type CrawlState = "scraping" | "completed" | "cancelled" | "failed"

/** A crawl asked to stop reads as cancelled at once, while its worker winds down. */
const stateOf = (job: Job): CrawlState =>
  job.status === "completed" ? "completed"
  : job.status === "failed" ? "failed"
  : job.status === "cancelled" || job.cancelRequested ? "cancelled"
  : "scraping"

const iso = (ms: number) => new Date(ms).toISOString()

/** The crawler options a request shows in `/v2/crawl/active` (and `finalCrawlerOptions`). */
const crawlerOptionsOf = (request: CrawlRequest) => ({
  includePaths: request.includePaths ?? [],
  excludePaths: request.excludePaths ?? [],
  limit: request.limit ?? 10_000,
  crawlEntireDomain: request.crawlEntireDomain ?? false,
  allowExternalLinks: request.allowExternalLinks ?? false,
  allowSubdomains: request.allowSubdomains ?? false,
  ignoreRobotsTxt: request.ignoreRobotsTxt ?? false,
  robotsUserAgent: request.robotsUserAgent ?? null,
  sitemap: request.sitemap ?? "include",
  deduplicateSimilarURLs: request.deduplicateSimilarURLs ?? true,
  ignoreQueryParameters: request.ignoreQueryParameters ?? false,
  regexOnFullURL: request.regexOnFullURL ?? false,
  maxDiscoveryDepth: request.maxDiscoveryDepth ?? null,
  delay: request.delay ?? null
})

const featuresUsed = (request: CrawlRequest): Array<PlanFeature> => [
  ...(request.ignoreRobotsTxt === true ? ["ignoreRobotsTxt" as const] : []),
  ...(request.robotsUserAgent !== undefined ? ["robotsUserAgent" as const] : []),
  ...(request.zeroDataRetention === true ? ["zeroDataRetention" as const] : [])
]

/** Keys of `generated` the caller did not set themselves are taken from the prompt. */
const mergePrompt = (request: CrawlRequest): { readonly request: CrawlRequest; readonly generated?: Record<string, unknown>; readonly understood: ReadonlyArray<string> } => {
  if (request.prompt === undefined || request.prompt.trim() === "") return { request, understood: [] }
  const { options, understood } = paramsFromPrompt(request.prompt)
  const given: Record<string, unknown> = { ...request }
  const generated = Object.fromEntries(Object.entries(options).filter(([key, value]) => value !== undefined && given[key] === undefined))
  return { request: { ...generated, ...request }, generated, understood }
}

export interface CrawlStatus {
  readonly status: CrawlState
  readonly completed: number
  readonly total: number
  readonly creditsUsed: number
  readonly expiresAt: string
  readonly data: ReadonlyArray<Document>
  /** Where the next page starts, when there is (or may be) one. */
  readonly nextSkip?: number
  readonly limit: number
  readonly createdAt: string
  readonly completedAt?: string
  readonly duration?: number
  readonly warning?: string
}

export class Crawler extends Effect.Service<Crawler>()("@gleaner/core/Crawler", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const queue = yield* JobQueue
    const billing = yield* Billing
    const plans = yield* Plans
    const config = yield* GleanerConfig
    const scraper = yield* Scraper
    const fetcher = yield* Fetcher

    const retentionMs = config.retentionDays * 86_400_000

    /** The team's crawl job: 400 for a malformed id, 404 for another team's or another kind. */
    const crawlJob = Effect.fn("Crawler.job")(function*(teamId: string, id: string) {
      const job = yield* queue.get(teamId, id)
      if (job.kind !== CRAWL_KIND) return yield* new NotFoundError({ message: messages.jobNotFound })
      return job
    })

    const start = Effect.fn("Crawler.start")(function*(auth: AuthContext, body: CrawlRequest) {
      const url = yield* normalizeRequestUrl(body.url)
      const { request: merged, generated, understood } = mergePrompt(body)
      const request: CrawlRequest = { ...merged, url: url.href }
      yield* plans.require(auth.team.plan, featuresUsed(request))
      const scope = scopeOf(url, request)
      if (!scope.ok) return yield* new BadRequestError({ message: scope.message, details: [{ path: [scope.field, scope.index], message: scope.message }] })
      // the scrape options are checked now, not on every page
      yield* planScrape({ ...request.scrapeOptions, url: url.href }, { stealthProxy: Option.isSome(config.stealthProxyUrl) })
      yield* billing.ensure(auth.team.id, 1)
      const job = yield* queue.enqueue({
        team: auth.team,
        kind: CRAWL_KIND,
        payload: Schema.encodeSync(CrawlPayload)({ url: url.href, apiKeyId: auth.apiKeyId, request }),
        maxAttempts: 5
      })
      return {
        id: job.id,
        ...(generated === undefined ? {} : {
          promptGeneratedOptions: generated,
          finalCrawlerOptions: crawlerOptionsOf(request),
          warning: understood.length === 0
            ? "No LLM is configured and the prompt was not understood; the crawl uses the options given."
            : `No LLM is configured: the prompt was read by Gleaner's rule-based parser (${understood.join("; ")}).`
        })
      }
    })

    const status = Effect.fn("Crawler.status")(function*(teamId: string, id: string, page: { readonly skip?: number | undefined; readonly limit?: number | undefined }) {
      const job = yield* crawlJob(teamId, id)
      const skip = page.skip ?? 0
      const limit = page.limit ?? defaultStatusLimit
      const counts = yield* store.jobPages.counts(job.id)
      const rows = yield* store.jobPages.results(job.id, teamId, { offset: skip, limit })
      const data: Array<Document> = []
      let bytes = 0
      for (const row of rows) {
        bytes += (row.document ?? "").length
        if (bytes > maxStatusBytes && data.length > 0) break
        data.push(yield* Effect.orDie(decodeDocument(row.document)))
      }
      const state = stateOf(job)
      const more = skip + data.length < counts.done
      const nextSkip = more || (state === "scraping" && data.length > 0) ? skip + data.length : undefined
      const ledger = yield* store.ledger.list(teamId, { jobId: job.id })
      const creditsUsed = ledger.reduce((sum, entry) => sum + entry.credits, 0)
      const finished = job.finishedAt
      return {
        status: state,
        completed: counts.done + counts.failed,
        total: counts.done + counts.failed + counts.pending,
        creditsUsed,
        expiresAt: iso(job.createdAt + retentionMs),
        data,
        limit,
        createdAt: iso(job.createdAt),
        ...(nextSkip === undefined ? {} : { nextSkip }),
        ...(finished === null ? {} : { completedAt: iso(finished), duration: (finished - job.createdAt) / 1000 }),
        ...(counts.blocked > 0 && state !== "scraping" ? { warning: robotsWarning } : {})
      } satisfies CrawlStatus
    })

    const cancel = Effect.fn("Crawler.cancel")(function*(teamId: string, id: string) {
      const job = yield* crawlJob(teamId, id)
      if (job.status === "completed") return yield* new ConflictError({ message: "Crawl is already completed" })
      if (job.status === "cancelled" || job.status === "failed") return { status: "cancelled" as const }
      yield* queue.cancel(teamId, id)
      return { status: "cancelled" as const }
    })

    const errors = Effect.fn("Crawler.errors")(function*(teamId: string, id: string) {
      const job = yield* crawlJob(teamId, id)
      const problems = yield* store.jobPages.problems(job.id, teamId)
      const describe = (page: JobPage) => {
        const problem = Option.getOrUndefined(decodeProblem(page.error ?? ""))
        return {
          id: `${job.id}:${page.key}`,
          ...(page.finishedAt === null ? {} : { timestamp: iso(page.finishedAt) }),
          url: page.url,
          ...(problem?.code === undefined ? {} : { code: problem.code }),
          error: problem?.error ?? page.error ?? "Unknown error"
        }
      }
      return {
        errors: problems.filter((p) => p.status === "failed").map(describe),
        robotsBlocked: problems.filter((p) => p.status === "blocked").map((p) => p.url)
      } satisfies JobErrorsResponse
    })

    const active = Effect.fn("Crawler.active")(function*(teamId: string) {
      const jobs = (yield* store.jobs.list(teamId, { kind: CRAWL_KIND, statuses: ["queued", "running"] })).filter((job) => !job.cancelRequested)
      const decode = decodePayload(CrawlPayload)
      return yield* Effect.forEach(jobs, (job) =>
        Effect.map(Effect.orDie(decode(job)), (payload) => ({
          id: job.id,
          teamId: job.teamId,
          url: payload.url,
          created_at: iso(job.createdAt),
          options: { ...crawlerOptionsOf(payload.request), scrapeOptions: payload.request.scrapeOptions ?? {} }
        })))
    })

    /** What a prompt would set (`POST /v2/crawl/params-preview`), read by the rule-based parser. */
    const paramsPreview = Effect.fn("Crawler.paramsPreview")(function*(rawUrl: string, prompt: string) {
      const url = yield* normalizeRequestUrl(rawUrl)
      const { options, understood } = paramsFromPrompt(prompt)
      return {
        data: { url: url.href, ...options },
        warning: understood.length === 0
          ? "No LLM is configured and Gleaner's rule-based parser found no crawl options in the prompt."
          : `No LLM is configured: the prompt was read by Gleaner's rule-based parser (${understood.join("; ")}).`
      }
    })

    const handler: JobHandler = {
      kind: CRAWL_KIND,
      run: (job) =>
        Effect.gen(function*() {
          const payload = yield* decodePayload(CrawlPayload)(job)
          const team = yield* store.teams.get(job.teamId)
          if (Option.isNone(team)) return yield* new NotFoundError({ message: `The team of crawl ${job.id} no longer exists` })
          return yield* runCrawl({ store, fetcher, scraper, maxPageBytes: config.maxPageBytes }, job, team.value, payload.request, payload.apiKeyId)
        })
    }

    return { start, status, cancel, errors, active, paramsPreview, handler } as const
  })
}) {}
