/**
 * What crawls and batch scrapes show of themselves, the same for both (API.md §3.5–3.6): the
 * team's job of a kind, its status page by page (completion order, a 10 MiB cap per page, a
 * `next` while more may come), cancellation, and its failed and robots-blocked pages.
 */
import { Effect, Option, Schema } from "effect"
import { GleanerConfig } from "../config.js"
import { ConflictError, messages, NotFoundError } from "../errors.js"
import { type Job, type JobPage, Store } from "../ports/store.js"
import type { JobErrorsResponse } from "../schema/crawl.js"
import { Document } from "../schema/document.js"
import { JobQueue } from "./job-queue.js"

/** A status page holds at most this much document JSON (the one crossing it waits for the next page). */
const maxStatusBytes = 10 * 1024 * 1024
const defaultStatusLimit = 100

const robotsWarning =
  "One or more pages were unable to be crawled because the robots.txt file prevented this. Please use the /scrape endpoint instead."

const decodeDocument = Schema.decodeUnknown(Schema.parseJson(Document))
const decodeProblem = Schema.decodeUnknownOption(
  Schema.parseJson(Schema.Struct({ code: Schema.optional(Schema.String), error: Schema.String }))
)

export type PageJobState = "scraping" | "completed" | "cancelled" | "failed"

/** A job asked to stop reads as cancelled at once, while its worker winds down. */
export const stateOf = (job: Job): PageJobState =>
  job.status === "completed" ? "completed"
  : job.status === "failed" ? "failed"
  : job.status === "cancelled" || job.cancelRequested ? "cancelled"
  : "scraping"

export const iso = (ms: number): string => new Date(ms).toISOString()

export interface StatusPage {
  readonly skip?: number | undefined
  readonly limit?: number | undefined
}

export interface PageJobStatus {
  readonly status: PageJobState
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

export class PageJobs extends Effect.Service<PageJobs>()("@gleaner/core/PageJobs", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const queue = yield* JobQueue
    const retentionMs = (yield* GleanerConfig).retentionDays * 86_400_000

    /** The team's job of this kind: 400 for a malformed id, 404 for another team's or kind. */
    const get = Effect.fn("PageJobs.get")(function*(teamId: string, id: string, kind: string) {
      const job = yield* queue.get(teamId, id)
      if (job.kind !== kind) return yield* new NotFoundError({ message: messages.jobNotFound })
      return job
    })

    /** When the job and its pages are deleted. */
    const expiresAt = (job: Job): string => iso(job.createdAt + retentionMs)

    const status = Effect.fn("PageJobs.status")(function*(job: Job, page: StatusPage) {
      const skip = page.skip ?? 0
      const limit = page.limit ?? defaultStatusLimit
      const counts = yield* store.jobPages.counts(job.id)
      const rows = yield* store.jobPages.results(job.id, job.teamId, { offset: skip, limit })
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
      const creditsUsed = yield* store.ledger.jobTotal(job.teamId, job.id)
      const finished = job.finishedAt
      return {
        status: state,
        completed: counts.done + counts.failed,
        total: counts.done + counts.failed + counts.pending,
        creditsUsed,
        expiresAt: expiresAt(job),
        data,
        limit,
        createdAt: iso(job.createdAt),
        ...(nextSkip === undefined ? {} : { nextSkip }),
        ...(finished === null ? {} : { completedAt: iso(finished), duration: (finished - job.createdAt) / 1000 }),
        ...(counts.blocked > 0 && state !== "scraping" ? { warning: robotsWarning } : {})
      } satisfies PageJobStatus
    })

    /** `{status: "cancelled"}`; a completed job is a 409 with `completedMessage`. */
    const cancel = Effect.fn("PageJobs.cancel")(function*(job: Job, completedMessage: string) {
      if (job.status === "completed") return yield* new ConflictError({ message: completedMessage })
      if (job.status === "queued" || job.status === "running") yield* queue.cancel(job.teamId, job.id)
      return { status: "cancelled" as const }
    })

    const errors = Effect.fn("PageJobs.errors")(function*(job: Job) {
      const problems = yield* store.jobPages.problems(job.id, job.teamId)
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

    return { get, status, cancel, errors, expiresAt } as const
  })
}) {}
