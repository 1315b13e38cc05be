/**
 * Claiming: where workers of several processes race for jobs. One transaction:
 *
 * 1. Settle abandoned jobs (running, lease expired): cancelled if a cancel was requested, failed
 *    if their attempts are used up. Being a write, this statement also takes SQLite's write lock
 *    up front, so a second process waits on `busy_timeout` instead of failing to upgrade a read.
 * 2. Pick runnable candidates (queued and due, or running with an expired lease) of teams that
 *    look below their `max_concurrency`, by priority, then run_at, then created_at. Postgres
 *    locks them `FOR UPDATE SKIP LOCKED`, so concurrent claimers never pick the same job.
 * 3. Lock the candidates' teams (Postgres: `FOR NO KEY UPDATE SKIP LOCKED`, so claimers never wait
 *    for each other and cannot deadlock; a team another claimer is serving is skipped this time),
 *    re-count their live running jobs now that no one else can change them, and keep only the
 *    candidates that fit. SQLite needs no locks: its single writer serialises whole transactions.
 * 4. Lease the kept jobs. Teams that were full or busy are excluded and, if the batch came back
 *    short, steps 2–4 repeat for the remaining slots, so one team's backlog does not starve others.
 */
import type { ClaimRequest, Job } from "@gleaner/core"
import { Effect } from "effect"
import type { SelectQueryBuilder } from "kysely"
import type { Database, Db } from "./database.js"
import { decodeRows } from "./database.js"
import { JobFromRow } from "./job-row.js"

/** The error a job gets when its workers kept dying: an InternalError as the catalogue encodes it. */
export const abandonedJobError = JSON.stringify({
  _tag: "InternalError",
  code: "UNKNOWN_ERROR",
  message: "The job's worker stopped responding too many times"
})

const decodeJobs = decodeRows(JobFromRow)

interface Candidate {
  readonly id: string
  readonly team_id: string
}

export const makeClaim = (db: Db) => {
  const { execute, query } = db
  const skipLocked = <O>(q: SelectQueryBuilder<Database, "jobs", O>) =>
    db.dialect === "pg" ? q.forUpdate().skipLocked() : q

  /** Running jobs whose lease expired and that also match `which`. */
  const abandoned = (now: number, which: "cancel-requested" | "exhausted") => {
    const expired = query
      .selectFrom("jobs")
      .select("id")
      .where("status", "=", "running")
      .where("lease_expires_at", "<", now)
    return skipLocked(
      which === "cancel-requested"
        ? expired.where("cancel_requested", "=", 1)
        : expired.whereRef("attempts", ">=", "max_attempts")
    )
  }

  const settleAbandoned = (now: number) =>
    Effect.zipRight(
      execute(
        query
          .updateTable("jobs")
          .set({ status: "cancelled", lease_expires_at: null, finished_at: now, updated_at: now })
          .where("id", "in", abandoned(now, "cancel-requested"))
          .where("status", "=", "running")
      ),
      execute(
        query
          .updateTable("jobs")
          .set({ status: "failed", error: abandonedJobError, lease_expires_at: null, finished_at: now, updated_at: now })
          .where("id", "in", abandoned(now, "exhausted"))
          .where("status", "=", "running")
      )
    )

  const findCandidates = (request: ClaimRequest, wanted: number, excluded: ReadonlySet<string>) => {
    const { now } = request
    let candidates = query
      .selectFrom("jobs")
      .select(["id", "team_id"])
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "queued"), eb("run_at", "<=", now)]),
          eb.and([eb("status", "=", "running"), eb("lease_expires_at", "<", now)])
        ])
      )
      // A cheap pre-filter (its snapshot may be stale on Postgres); step 3 decides.
      .where((eb) =>
        eb(
          eb
            .selectFrom("jobs as live")
            .select((live) => live.fn.countAll().as("running"))
            .whereRef("live.team_id", "=", "jobs.team_id")
            .where("live.status", "=", "running")
            .where("live.lease_expires_at", ">=", now),
          "<",
          eb.selectFrom("teams").select("teams.max_concurrency").whereRef("teams.id", "=", "jobs.team_id")
        )
      )
    if (request.kinds !== undefined) candidates = candidates.where("kind", "in", request.kinds)
    if (excluded.size > 0) candidates = candidates.where("team_id", "not in", [...excluded])
    return execute(
      skipLocked(
        candidates.orderBy("priority", "desc").orderBy("run_at").orderBy("created_at").orderBy("id").limit(wanted)
      )
    )
  }

  /** The candidates that fit their team's free slots; adds every team it had to pass over to `excluded`. */
  const keepWithinTeamLimits = (candidates: ReadonlyArray<Candidate>, now: number, excluded: Set<string>) =>
    Effect.gen(function*() {
      const teamIds = [...new Set(candidates.map((c) => c.team_id))]
      const teamsQuery = query
        .selectFrom("teams")
        .select(["id", "max_concurrency"])
        .where("id", "in", teamIds)
        .orderBy("id")
      const teams = yield* execute(db.dialect === "pg" ? teamsQuery.forNoKeyUpdate().skipLocked() : teamsQuery)
      const live = teams.length === 0 ? [] : yield* execute(
        query
          .selectFrom("jobs")
          .select((eb) => ["team_id", eb.fn.countAll().as("running")])
          .where("team_id", "in", teams.map((t) => t.id))
          .where("status", "=", "running")
          .where("lease_expires_at", ">=", now)
          .groupBy("team_id")
      )
      // COUNT is a string on Postgres.
      const running = new Map(live.map((row) => [row.team_id, Number(row.running)]))
      const free = new Map(teams.map((t) => [t.id, Number(t.max_concurrency) - (running.get(t.id) ?? 0)]))
      const kept: Array<string> = []
      for (const candidate of candidates) {
        const slots = free.get(candidate.team_id) ?? 0 // a team locked by another claimer has none
        if (slots > 0) {
          kept.push(candidate.id)
          free.set(candidate.team_id, slots - 1)
        } else {
          excluded.add(candidate.team_id)
        }
      }
      return kept
    })

  const lease = (ids: ReadonlyArray<string>, request: ClaimRequest) =>
    Effect.gen(function*() {
      const { leaseMs, now, workerId } = request
      const rows = yield* execute(
        query
          .updateTable("jobs")
          .set((eb) => ({
            status: "running",
            worker_id: workerId,
            lease_expires_at: now + leaseMs,
            attempts: eb("attempts", "+", 1),
            started_at: eb.fn<number>("coalesce", [eb.ref("started_at"), eb.val(now)]),
            updated_at: now
          }))
          .where("id", "in", ids)
          .returningAll()
      )
      const order = new Map(ids.map((id, index) => [id, index]))
      const jobs = yield* decodeJobs(rows)
      return [...jobs].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
    })

  return Effect.fnUntraced(function*(request: ClaimRequest) {
    if (request.limit <= 0 || request.kinds?.length === 0) return []
    return yield* db.transaction(Effect.gen(function*() {
      yield* settleAbandoned(request.now)
      const claimed: Array<Job> = []
      const excluded = new Set<string>()
      while (claimed.length < request.limit) {
        const wanted = request.limit - claimed.length
        const candidates = yield* findCandidates(request, wanted, excluded)
        if (candidates.length === 0) break
        const kept = yield* keepWithinTeamLimits(candidates, request.now, excluded)
        if (kept.length > 0) claimed.push(...(yield* lease(kept, request)))
        // A short batch means nothing else is runnable; otherwise every candidate not kept
        // excluded its team, so the next round looks further and the loop ends.
        if (candidates.length < wanted) break
      }
      return claimed
    }))
  })
}
