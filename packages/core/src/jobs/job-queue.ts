/**
 * The job queue as capabilities see it: enqueue work for a team, read it back, cancel it.
 * Jobs over the team's concurrency wait in the queue; only a full queue is refused (429),
 * with upstream's limit: min(max(concurrency × 2000, 50 000), 2 000 000) waiting jobs.
 */
import { Clock, Effect, Option } from "effect"
import { BadRequestError, messages, NotFoundError, QueueFullError } from "../errors.js"
import { isUuid, uuidv7At } from "../ids.js"
import { type Job, Store, type Team } from "../ports/store.js"

export interface EnqueueRequest {
  readonly team: Team
  readonly kind: string
  /** JSON-serialisable input, handed to the kind's handler. */
  readonly payload: unknown
  /** Higher runs first. Default 0. */
  readonly priority?: number
  /** Attempts before a retryable failure becomes final. Default 3. */
  readonly maxAttempts?: number
  /** Not before this time (epoch ms). Default now. */
  readonly runAt?: number
  /** Use this id instead of a fresh UUIDv7 (a job that is also a user-visible resource). */
  readonly id?: string
}

export const queueLimit = (concurrency: number): number =>
  Math.min(Math.max(concurrency * 2000, 50_000), 2_000_000)

export class JobQueue extends Effect.Service<JobQueue>()("@gleaner/core/JobQueue", {
  effect: Effect.gen(function*() {
    const store = yield* Store

    const enqueue = Effect.fn("JobQueue.enqueue")(function*(request: EnqueueRequest) {
      const counts = yield* store.jobs.counts(request.team.id)
      const limit = queueLimit(request.team.maxConcurrency)
      if (counts.queued >= limit) {
        return yield* new QueueFullError({
          message: `Queue limit reached: your team has ${counts.queued} jobs queued (limit: ${limit}). ` +
            `Wait for queued jobs to finish or cancel some before submitting more.`
        })
      }
      const now = yield* Clock.currentTimeMillis
      return yield* store.jobs.enqueue({
        id: request.id ?? uuidv7At(now),
        teamId: request.team.id,
        kind: request.kind,
        payload: JSON.stringify(request.payload ?? null),
        priority: request.priority ?? 0,
        maxAttempts: request.maxAttempts ?? 3,
        runAt: request.runAt ?? now,
        createdAt: now
      })
    })

    /** The team's job; 400 for an id that is not a UUID, 404 for one that is not theirs. */
    const get = Effect.fn("JobQueue.get")(function*(teamId: string, id: string) {
      if (!isUuid(id)) return yield* new BadRequestError({ message: messages.invalidJobId })
      const job = yield* store.jobs.get(teamId, id)
      return yield* Option.match(job, {
        onNone: () => Effect.fail(new NotFoundError({ message: messages.jobNotFound })),
        onSome: (j) => Effect.succeed<Job>(j)
      })
    })

    const cancel = Effect.fn("JobQueue.cancel")(function*(teamId: string, id: string) {
      if (!isUuid(id)) return yield* new BadRequestError({ message: messages.invalidJobId })
      const job = yield* store.jobs.cancel(teamId, id, yield* Clock.currentTimeMillis)
      return yield* Option.match(job, {
        onNone: () => Effect.fail(new NotFoundError({ message: messages.jobNotFound })),
        onSome: (j) => Effect.succeed<Job>(j)
      })
    })

    const status = Effect.fn("JobQueue.status")(function*(team: Team) {
      const counts = yield* store.jobs.counts(team.id)
      const last = yield* store.jobs.lastCompletedAt(team.id)
      return { ...counts, maxConcurrency: team.maxConcurrency, lastCompletedAt: Option.getOrNull(last) }
    })

    return { enqueue, get, cancel, status } as const
  })
}) {}
