/**
 * Batch scrape (API.md §3.5): many URLs with one set of scrape options, as a durable job that
 * runs on the same page pool and shows itself like a crawl (status pages, cancel, errors). The
 * job's first attempt puts its URLs in the store as pages; `appendToId` adds pages to a batch
 * that is still running. Each URL is scraped as given (the same URL twice is scraped twice).
 */
import { Clock, Effect, Either, Option, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { Billing } from "../billing/billing.js"
import { featuresRequested, Plans } from "../billing/plans.js"
import { BadRequestError, ConflictError, NotFoundError } from "../errors.js"
import { uuidv7At } from "../ids.js"
import { decodePayload, type JobHandler } from "../jobs/handlers.js"
import { JobQueue } from "../jobs/job-queue.js"
import { jobNotifier } from "../jobs/job-webhooks.js"
import { PageJobs, type StatusPage } from "../jobs/page-jobs.js"
import { type PoolPage, runPagePool } from "../jobs/page-pool.js"
import { type Job, type NewJobPage, Store } from "../ports/store.js"
import { type BatchScrapeRequest, Webhook } from "../schema/crawl.js"
import { scrapeOptionFields } from "../schema/scrape-options.js"
import { Scraper } from "../scrape/scraper.js"
import { normalizeRequestUrl } from "../scrape/url.js"
import { Webhooks } from "../webhooks/webhooks.js"
import { PublicOrigin, withPublicOrigin } from "../files/file-links.js"

export const BATCH_KIND = "batch_scrape"

/** What a batch job carries: its URLs (put in the store by the first attempt) and options. */
export const BatchPayload = Schema.Struct({
  apiKeyId: Schema.NullOr(Schema.String),
  urls: Schema.Array(Schema.String),
  options: Schema.Struct(scrapeOptionFields),
  maxConcurrency: Schema.optional(Schema.Int),
  zeroDataRetention: Schema.optional(Schema.Boolean),
  webhook: Schema.optional(Webhook),
  /** Where clients reached the server when the batch started: the base of served file URLs. */
  origin: Schema.optional(Schema.String)
})
type BatchPayload = typeof BatchPayload.Type

/** Page keys keep the order URLs were given in (and let the same URL appear twice). */
const pageKey = (ordinal: number): string => String(ordinal).padStart(9, "0")

const pagesFrom = (urls: ReadonlyArray<string>, firstOrdinal: number): Array<NewJobPage> =>
  urls.map((url, i) => ({ key: pageKey(firstOrdinal + i), url, depth: 0 }))

export class BatchScraper extends Effect.Service<BatchScraper>()("@gleaner/core/BatchScraper", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const queue = yield* JobQueue
    const billing = yield* Billing
    const plans = yield* Plans
    const scraper = yield* Scraper
    const pageJobs = yield* PageJobs
    const webhooks = yield* Webhooks

    const batchJob = (teamId: string, id: string) => pageJobs.get(teamId, id, BATCH_KIND)

    const start = Effect.fn("BatchScraper.start")(function*(auth: AuthContext, request: BatchScrapeRequest) {
      const ignoreInvalid = request.ignoreInvalidURLs ?? true
      const valid: Array<string> = []
      const invalidURLs: Array<string> = []
      for (const raw of request.urls) {
        const url = normalizeRequestUrl(raw)
        if (Either.isRight(url)) valid.push(url.right.href)
        else if (ignoreInvalid) invalidURLs.push(raw)
        else return yield* new BadRequestError({ message: `Invalid URL: ${raw} (${url.left.message})` })
      }
      if (valid.length === 0) return yield* new BadRequestError({ message: "No valid URLs provided" })
      yield* plans.require(auth.team.plan, featuresRequested(request))
      const { urls: _urls, webhook, appendToId, ignoreInvalidURLs: _ignore, maxConcurrency, zeroDataRetention, origin: _origin, integration: _integration, ...options } = request
      // the options are checked once, not on every page
      yield* scraper.validate({ ...options, url: valid[0] ?? "" })
      yield* billing.ensure(auth.team.id, valid.length)
      const reported = ignoreInvalid ? { invalidURLs } : {}

      if (appendToId !== undefined) {
        const job = yield* batchJob(auth.team.id, appendToId)
        if (job.status !== "queued" && job.status !== "running") {
          return yield* new ConflictError({ message: `Batch scrape ${job.id} has finished (${job.status}); start a new one instead of appending.` })
        }
        const known = yield* store.jobPages.keys(job.id)
        const payload = yield* decodePayload(BatchPayload)(job)
        // after the payload's URLs (which the first attempt may not have stored yet) and any earlier appends
        const first = known.reduce((next, key) => Math.max(next, Number(key) + 1), payload.urls.length)
        yield* store.jobPages.add(job.id, job.teamId, pagesFrom(valid, first), yield* Clock.currentTimeMillis)
        return { id: job.id, ...reported }
      }

      const payload: BatchPayload = {
        apiKeyId: auth.apiKeyId,
        urls: valid,
        options,
        ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
        ...(zeroDataRetention === undefined ? {} : { zeroDataRetention }),
        ...(webhook === undefined ? {} : { webhook }),
        ...Option.match(yield* PublicOrigin, { onNone: () => ({}), onSome: (origin) => ({ origin }) })
      }
      const job = yield* queue.enqueue({
        team: auth.team,
        kind: BATCH_KIND,
        id: uuidv7At(yield* Clock.currentTimeMillis),
        payload: Schema.encodeSync(BatchPayload)(payload),
        maxAttempts: 5
      })
      yield* jobNotifier(webhooks, auth.team.id, "batch_scrape", job.id, webhook).started
      return { id: job.id, ...reported }
    })

    const run = (job: Job) =>
      Effect.flatMap(decodePayload(BatchPayload)(job), (payload) => runBatch(job, payload).pipe(withPublicOrigin(payload.origin)))

    const runBatch = (job: Job, payload: BatchPayload) =>
      Effect.gen(function*() {
        const team = yield* store.teams.get(job.teamId)
        if (Option.isNone(team)) return yield* new NotFoundError({ message: `The team of batch scrape ${job.id} no longer exists` })
        const auth: AuthContext = { team: team.value, apiKeyId: payload.apiKeyId }
        const notify = jobNotifier(webhooks, job.teamId, "batch_scrape", job.id, payload.webhook)
        // insert-or-ignore: a later attempt (or pages appended before the first) changes nothing
        yield* store.jobPages.add(job.id, job.teamId, pagesFrom(payload.urls, 0), yield* Clock.currentTimeMillis)
        const process = (page: PoolPage) =>
          Effect.gen(function*() {
            const document = yield* scraper.scrape(auth, {
              ...payload.options,
              url: page.url,
              ...(payload.zeroDataRetention === undefined ? {} : { zeroDataRetention: payload.zeroDataRetention })
            }, { operation: "batch_scrape", jobId: job.id, idempotencyKey: `batch:${job.id}:${page.key}` })
            const settled = yield* store.jobPages.settle(job.id, page.key, { status: "done", document: JSON.stringify(document) }, yield* Clock.currentTimeMillis)
            if (settled) yield* notify.page(document)
            return []
          })
        const cap = Math.max(1, team.value.maxConcurrency)
        yield* runPagePool({
          store,
          jobId: job.id,
          workers: Math.min(payload.maxConcurrency ?? cap, cap),
          process,
          onFailed: (page, error) => notify.pageFailed(page.url, error.message)
        })
        yield* notify.completed
        return { pages: (yield* store.jobPages.keys(job.id)).length }
      })

    const handler: JobHandler = { kind: BATCH_KIND, run }

    return {
      start,
      status: (teamId: string, id: string, page: StatusPage) => Effect.flatMap(batchJob(teamId, id), (job) => pageJobs.status(job, page)),
      cancel: (teamId: string, id: string) => Effect.flatMap(batchJob(teamId, id), (job) => pageJobs.cancel(job, "Batch scrape is already completed")),
      errors: (teamId: string, id: string) => Effect.flatMap(batchJob(teamId, id), pageJobs.errors),
      handler
    } as const
  })
}) {}
