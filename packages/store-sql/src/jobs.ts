/**
 * The job queue's rows: enqueue, read, and the worker's side of a lease (heartbeat, complete,
 * fail, release, mark cancelled). Every worker-side write is guarded by `worker_id = workerId AND
 * status = 'running'`, so a worker whose lease was taken over cannot settle the job a second
 * time; it learns so from the `false` it gets back. Claiming lives in `job-claim.ts`.
 */
import type { JobStatus, NewJob, StoreService } from "@gleaner/core"
import { Effect, Option, Schema } from "effect"
import { expressionBuilder, type UpdateObject } from "kysely"
import { column, type Database, type Db, DbBoolean, DbNumber, decodeFirst, decodeRows } from "./database.js"
import { makeClaim } from "./job-claim.js"
import { JobFromRow } from "./job-row.js"

/** Attempts a job gets when `NewJob.maxAttempts` is absent. */
export const DEFAULT_MAX_ATTEMPTS = 3

const decodeJob = decodeFirst(JobFromRow)
const decodeJobs = decodeRows(JobFromRow)
const decodeHeartbeat = decodeFirst(Schema.Struct({ cancelRequested: column("cancel_requested", DbBoolean) }))
const decodeCounts = (rows: ReadonlyArray<unknown>) =>
  Effect.orDie(Schema.decodeUnknown(Schema.Array(Schema.Struct({ status: Schema.String, count: DbNumber })))(rows))
const decodeLastFinished = decodeFirst(Schema.Struct({ finished_at: Schema.NullOr(DbNumber) }))

const eb = expressionBuilder<Database, "jobs">()

export const makeJobs = (db: Db): StoreService["jobs"] => {
  const { execute, query } = db

  /** Writes `set` only while `workerId` holds the job's lease; true when a row changed. */
  const whileOwned = (id: string, workerId: string, set: UpdateObject<Database, "jobs">) =>
    Effect.map(
      execute(
        query
          .updateTable("jobs")
          .set(set)
          .where("id", "=", id)
          .where("worker_id", "=", workerId)
          .where("status", "=", "running")
          .returning("id")
      ),
      (rows) => rows.length > 0
    )

  const get = Effect.fnUntraced(function*(teamId: string, id: string) {
    return yield* decodeJob(
      yield* execute(query.selectFrom("jobs").selectAll().where("id", "=", id).where("team_id", "=", teamId))
    )
  })

  /** Applies `set` to this team's job when it is in `status`; the updated job if it was. */
  const updateIfStatus = (teamId: string, id: string, status: "queued" | "running", set: UpdateObject<Database, "jobs">) =>
    Effect.flatMap(
      execute(
        query
          .updateTable("jobs")
          .set(set)
          .where("id", "=", id)
          .where("team_id", "=", teamId)
          .where("status", "=", status)
          .returningAll()
      ),
      decodeJob
    )

  return {
    enqueue: Effect.fnUntraced(function*(job: NewJob) {
      const rows = yield* execute(
        query
          .insertInto("jobs")
          .values({
            id: job.id,
            team_id: job.teamId,
            kind: job.kind,
            payload: job.payload,
            status: "queued",
            priority: job.priority ?? 0,
            attempts: 0,
            max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
            run_at: job.runAt,
            worker_id: null,
            lease_expires_at: null,
            cancel_requested: 0,
            result: null,
            error: null,
            created_at: job.createdAt,
            updated_at: job.createdAt,
            started_at: null,
            finished_at: null
          })
          .returningAll()
      )
      return Option.getOrThrow(yield* decodeJob(rows))
    }),

    claim: makeClaim(db),

    heartbeat: Effect.fnUntraced(function*(id: string, workerId: string, now: number, leaseMs: number) {
      const rows = yield* execute(
        query
          .updateTable("jobs")
          .set({ lease_expires_at: now + leaseMs, updated_at: now })
          .where("id", "=", id)
          .where("worker_id", "=", workerId)
          .where("status", "=", "running")
          .returning("cancel_requested")
      )
      const row = yield* decodeHeartbeat(rows)
      return Option.match(row, {
        onNone: () => ({ owned: false, cancelRequested: false }),
        onSome: ({ cancelRequested }) => ({ owned: true, cancelRequested })
      })
    }),

    complete: Effect.fnUntraced(function*(id: string, workerId: string, result: string, now: number) {
      return yield* whileOwned(id, workerId, {
        status: "completed",
        result,
        lease_expires_at: null,
        finished_at: now,
        updated_at: now
      })
    }),

    fail: Effect.fnUntraced(function*(
      id: string,
      workerId: string,
      failure: { readonly error: string; readonly retryAt: number | null },
      now: number
    ) {
      return yield* whileOwned(
        id,
        workerId,
        failure.retryAt === null
          ? { status: "failed", error: failure.error, lease_expires_at: null, finished_at: now, updated_at: now }
          : {
            status: "queued",
            error: failure.error,
            run_at: failure.retryAt,
            worker_id: null,
            lease_expires_at: null,
            updated_at: now
          }
      )
    }),

    release: Effect.fnUntraced(function*(id: string, workerId: string, now: number) {
      return yield* whileOwned(id, workerId, {
        status: "queued",
        // The attempt is not counted: the worker gave the job back, it did not fail.
        attempts: eb.case().when("attempts", ">", 0).then(eb("attempts", "-", 1)).else(0).end(),
        worker_id: null,
        lease_expires_at: null,
        updated_at: now
      })
    }),

    // Each step is one atomic statement, so no transaction: a job claimed between the first two
    // steps is caught by the second, one settled meanwhile is returned as it now is.
    cancel: Effect.fnUntraced(function*(teamId: string, id: string, now: number) {
      const cancelled = yield* updateIfStatus(teamId, id, "queued", {
        status: "cancelled",
        finished_at: now,
        updated_at: now
      })
      if (Option.isSome(cancelled)) return cancelled
      const requested = yield* updateIfStatus(teamId, id, "running", { cancel_requested: 1, updated_at: now })
      if (Option.isSome(requested)) return requested
      return yield* get(teamId, id)
    }),

    markCancelled: Effect.fnUntraced(function*(id: string, workerId: string, now: number) {
      return yield* whileOwned(id, workerId, {
        status: "cancelled",
        lease_expires_at: null,
        finished_at: now,
        updated_at: now
      })
    }),

    get,

    counts: Effect.fnUntraced(function*(teamId: string) {
      const rows = yield* decodeCounts(
        yield* execute(
          query
            .selectFrom("jobs")
            .select((eb) => ["status", eb.fn.countAll().as("count")])
            .where("team_id", "=", teamId)
            .where("status", "in", ["queued", "running"])
            .groupBy("status")
        )
      )
      const of = (status: string) => rows.find((row) => row.status === status)?.count ?? 0
      return { queued: of("queued"), running: of("running") }
    }),

    list: Effect.fnUntraced(function*(teamId: string, filter: { readonly kind: string; readonly statuses: ReadonlyArray<JobStatus> }) {
      if (filter.statuses.length === 0) return []
      return yield* decodeJobs(yield* execute(
        query.selectFrom("jobs").selectAll().where("team_id", "=", teamId).where("kind", "=", filter.kind)
          .where("status", "in", [...filter.statuses]).orderBy("created_at").orderBy("id")
      ))
    }),

    purgeSettled: Effect.fnUntraced(function*(before: number) {
      const rows = yield* db.transaction(Effect.gen(function*() {
        const ids = yield* execute(
          query.selectFrom("jobs").select("id").where("created_at", "<", before).where("status", "in", ["completed", "failed", "cancelled"])
            .limit(500)
        )
        if (ids.length === 0) return ids
        const list = ids.map((row) => row.id)
        yield* execute(query.deleteFrom("job_pages").where("job_id", "in", list))
        yield* execute(query.deleteFrom("jobs").where("id", "in", list))
        return ids
      }))
      return rows.map((row) => row.id)
    }),

    lastCompletedAt: Effect.fnUntraced(function*(teamId: string) {
      const row = yield* decodeLastFinished(
        yield* execute(
          query
            .selectFrom("jobs")
            .select((eb) => eb.fn.max("finished_at").as("finished_at"))
            .where("team_id", "=", teamId)
            .where("status", "=", "completed")
        )
      )
      return Option.flatMap(row, (r) => Option.fromNullable(r.finished_at))
    })
  }
}
