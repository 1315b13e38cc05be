/**
 * The Crawler (API.md §3.6): starts crawls as durable jobs, reports their status page by page,
 * cancels them, lists their errors and the team's active crawls, and is the handler the workers
 * run for the `crawl` job kind (see crawl-run.ts).
 */
import { Clock, Effect, Option, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { Billing } from "../billing/billing.js"
import { featuresRequested, Plans } from "../billing/plans.js"
import { GleanerConfig } from "../config.js"
import { BadRequestError, ConflictError, NotFoundError } from "../errors.js"
import { isUuid } from "../ids.js"
import { decodePayload, type JobHandler } from "../jobs/handlers.js"
import { JobQueue } from "../jobs/job-queue.js"
import { jobNotifier } from "../jobs/job-webhooks.js"
import { iso, PageJobs, type StatusPage } from "../jobs/page-jobs.js"
import { Fetcher } from "../ports/fetcher.js"
import { Store } from "../ports/store.js"
import type { CrawlRequest } from "../schema/crawl.js"
import { Scraper } from "../scrape/scraper.js"
import { normalizeRequestUrl } from "../scrape/url.js"
import { Webhooks } from "../webhooks/webhooks.js"
import { PublicOrigin, withPublicOrigin } from "../files/file-links.js"
import { CrawlPayload, runCrawl, scopeOf } from "./crawl-run.js"
import { paramsFromPrompt } from "./prompt-params.js"

export const CRAWL_KIND = "crawl"

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

/**
 * Upstream's warning when a crawl that started below the site's root, without
 * `crawlEntireDomain`, found at most one page: the start path's children were all it could follow.
 */
const narrowCrawlHint = (request: CrawlRequest, found: number): string | undefined => {
  if (request.crawlEntireDomain === true || !URL.canParse(request.url)) return undefined
  const start = new URL(request.url)
  if (start.pathname === "/" || start.pathname === "") return undefined
  const parent = new URL(start.pathname.endsWith("/") ? ".." : ".", start)
  return `Only ${found} result(s) found. For broader coverage, try crawling with crawlEntireDomain=true or start from a higher-level path like ${parent.href}`
}

/** Keys of `generated` the caller did not set themselves are taken from the prompt. */
const mergePrompt = (request: CrawlRequest): { readonly request: CrawlRequest; readonly generated?: Record<string, unknown>; readonly understood: ReadonlyArray<string> } => {
  if (request.prompt === undefined || request.prompt.trim() === "") return { request, understood: [] }
  const { options, understood } = paramsFromPrompt(request.prompt)
  const given: Record<string, unknown> = { ...request }
  const generated = Object.fromEntries(Object.entries(options).filter(([key, value]) => value !== undefined && given[key] === undefined))
  return { request: { ...generated, ...request }, generated, understood }
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

    const pageJobs = yield* PageJobs
    const webhooks = yield* Webhooks

    /** The team's crawl job: 400 for a malformed id, 404 for another team's or another kind. */
    const crawlJob = (teamId: string, id: string) => pageJobs.get(teamId, id, CRAWL_KIND)

    /**
     * Starts a crawl. With an idempotency key (a UUID, as upstream), a key the team used before
     * is a 409 and nothing starts.
     */
    const start = Effect.fn("Crawler.start")(function*(auth: AuthContext, body: CrawlRequest, idempotencyKey?: string) {
      const url = yield* normalizeRequestUrl(body.url)
      const { request: merged, generated, understood } = mergePrompt(body)
      const request: CrawlRequest = { ...merged, url: url.href }
      yield* plans.require(auth.team.plan, featuresRequested({ ...request, threatProtection: request.scrapeOptions?.threatProtection }))
      const scope = scopeOf(url, request)
      if (!scope.ok) return yield* new BadRequestError({ message: scope.message, details: [{ path: [scope.field, scope.index], message: scope.message }] })
      // the scrape options are checked now, not on every page
      yield* scraper.validate({ ...request.scrapeOptions, url: url.href })
      yield* billing.ensure(auth.team.id, 1)
      if (idempotencyKey !== undefined) {
        const fresh = isUuid(idempotencyKey) && (yield* store.idempotencyKeys.claim(auth.team.id, idempotencyKey, yield* Clock.currentTimeMillis))
        if (!fresh) return yield* new ConflictError({ message: "Idempotency key already used" })
      }
      const job = yield* queue.enqueue({
        team: auth.team,
        kind: CRAWL_KIND,
        payload: Schema.encodeSync(CrawlPayload)({ url: url.href, apiKeyId: auth.apiKeyId, request, ...Option.match(yield* PublicOrigin, { onNone: () => ({}), onSome: (origin) => ({ origin }) }) }),
        maxAttempts: 5
      })
      yield* jobNotifier(webhooks, auth.team.id, "crawl", job.id, request.webhook).started
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

    /** The status page, with upstream's hint when a narrow crawl found (almost) nothing. */
    const status = (teamId: string, id: string, page: StatusPage) =>
      Effect.gen(function*() {
        const job = yield* crawlJob(teamId, id)
        const shown = yield* pageJobs.status(job, page)
        if (shown.status === "scraping" || shown.completed > 1 || shown.warning !== undefined) return shown
        const { request } = yield* decodePayload(CrawlPayload)(job).pipe(Effect.orDie)
        const hint = narrowCrawlHint(request, shown.completed)
        return hint === undefined ? shown : { ...shown, warning: hint }
      })
    const cancel = (teamId: string, id: string) => Effect.flatMap(crawlJob(teamId, id), (job) => pageJobs.cancel(job, "Crawl is already completed"))
    const errors = (teamId: string, id: string) => Effect.flatMap(crawlJob(teamId, id), pageJobs.errors)

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
          const notify = jobNotifier(webhooks, job.teamId, "crawl", job.id, payload.request.webhook)
          return yield* runCrawl({ notify, store, fetcher, scraper, maxPageBytes: config.maxPageBytes }, job, team.value, payload.request, payload.apiKeyId).pipe(
            withPublicOrigin(payload.origin)
          )
        })
    }

    return { start, status, cancel, errors, active, paramsPreview, handler } as const
  })
}) {}
