/**
 * The job workers of @gleaner/core against a real store: what a user of the queue relies on.
 * Every job runs and completes exactly once across many workers; a team's concurrency holds;
 * retryable failures come back with backoff and final ones keep their error; cancellation stops
 * a running job; a dead worker's job is taken over once its lease expires; shutdown lets running
 * jobs finish within the grace period and gives the rest back to the queue.
 */
import { assert, layer } from "@effect/vitest"
import type { SqlClient } from "@effect/sql"
import {
  BadRequestError,
  GleanerError,
  type Job,
  type JobHandler,
  JobHandlers,
  QueueFullError,
  runWorkers,
  Store,
  type StoreService,
  type WorkerOptions
} from "@gleaner/core"
import { Array as Arr, Clock, Duration, Effect, Exit, Layer, Logger, LogLevel, Option, Schema, Scope } from "effect"
import { uid } from "./contract-fixtures.js"

const options = (overrides: Partial<WorkerOptions> = {}): WorkerOptions => ({
  concurrency: 4,
  leaseMs: 2_000,
  pollMs: 20,
  graceMs: 2_000,
  retryBaseMs: 20,
  ...overrides
})

const handler = (kind: string, run: (job: Job) => Effect.Effect<unknown, GleanerError>): JobHandler => ({ kind, run })

/** Starts workers with these handlers in a scope the caller closes. */
const startWorkers = (scope: Scope.Scope, handlers: ReadonlyArray<JobHandler>, o: WorkerOptions) =>
  runWorkers(o).pipe(Effect.provide(JobHandlers.layer(handlers)), Scope.extend(scope))

const waitUntil = <E, R>(check: Effect.Effect<boolean, E, R>, what: string, timeoutMs = 20_000) =>
  Effect.gen(function*() {
    const deadline = (yield* Clock.currentTimeMillis) + timeoutMs
    while (!(yield* check)) {
      if ((yield* Clock.currentTimeMillis) > deadline) return yield* Effect.die(new Error(`timed out waiting for ${what}`))
      yield* Effect.sleep(Duration.millis(10))
    }
  })

const newTeam = (store: StoreService, maxConcurrency = 50) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    store.teams.create({ id: uid(), name: `team-${uid()}`, plan: "free", maxConcurrency, createdAt: now }))

const enqueue = (store: StoreService, teamId: string, kind: string, maxAttempts = 3) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    store.jobs.enqueue({ id: uid(), teamId, kind, payload: "{}", runAt: now, createdAt: now, maxAttempts }))

const jobOf = (store: StoreService, teamId: string, id: string) =>
  Effect.map(store.jobs.get(teamId, id), Option.getOrThrow)

const isDone = (store: StoreService, teamId: string) =>
  Effect.map(store.jobs.counts(teamId), (c) => c.queued === 0 && c.running === 0)

const decodeError = Schema.decodeUnknownSync(Schema.parseJson(GleanerError))

export const workersContract = (name: string, makeLayer: () => Layer.Layer<Store | SqlClient.SqlClient, unknown>) =>
  // workers log every retry and release; the assertions say what matters
  layer(Layer.merge(makeLayer(), Logger.minimumLogLevel(LogLevel.Error)), { excludeTestServices: true, timeout: 60_000 })(`${name}: job workers`, (it) => {
    it.scoped("N workers × M jobs: every job runs once and completes once", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* newTeam(store, 20)
        const kind = `count-${uid()}`
        const runs = new Map<string, number>()
        const count = handler(kind, (job) =>
          Effect.gen(function*() {
            runs.set(job.id, (runs.get(job.id) ?? 0) + 1)
            yield* Effect.sleep(Duration.millis(Math.floor(Math.random() * 5)))
            return { ran: job.id }
          }))
        const ids = yield* Effect.forEach(Arr.range(1, 120), () => Effect.map(enqueue(store, team.id, kind), (j) => j.id))
        const scope = yield* Effect.scope
        for (const w of Arr.range(1, 4)) yield* startWorkers(scope, [count], options({ workerId: `w${w}-${uid()}` }))
        yield* waitUntil(isDone(store, team.id), "all jobs to finish")
        const jobs = yield* Effect.forEach(ids, (id) => jobOf(store, team.id, id))
        assert.deepStrictEqual(jobs.filter((j) => j.status !== "completed").map((j) => j.id), [])
        assert.deepStrictEqual([...runs.values()].filter((n) => n !== 1), [])
        assert.strictEqual(runs.size, ids.length)
        assert.deepStrictEqual(jobs.map((j) => JSON.parse(j.result ?? "null")), ids.map((id) => ({ ran: id })))
      }))

    it.scoped("a team's concurrency holds across workers", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* newTeam(store, 2)
        const kind = `busy-${uid()}`
        let running = 0
        let peak = 0
        const busy = handler(kind, () =>
          Effect.acquireUseRelease(
            Effect.sync(() => {
              running++
              peak = Math.max(peak, running)
            }),
            () => Effect.sleep(Duration.millis(30)),
            () => Effect.sync(() => running--)
          ))
        yield* Effect.forEach(Arr.range(1, 12), () => enqueue(store, team.id, kind))
        const scope = yield* Effect.scope
        for (const w of Arr.range(1, 3)) yield* startWorkers(scope, [busy], options({ workerId: `c${w}-${uid()}` }))
        yield* waitUntil(isDone(store, team.id), "all jobs to finish")
        assert.strictEqual(peak, 2)
      }))

    it.scoped("retryable failures are retried with backoff; final ones keep their error", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* newTeam(store)
        const flaky = handler(`flaky-${uid()}`, (job) =>
          job.attempts < 3 ? Effect.fail(new QueueFullError({ message: "busy, try later" })) : Effect.succeed("third time"))
        const broken = handler(`broken-${uid()}`, () => Effect.fail(new BadRequestError({ message: "this input can never work" })))
        const hopeless = handler(`hopeless-${uid()}`, () => Effect.fail(new QueueFullError({ message: "still busy" })))
        const a = yield* enqueue(store, team.id, flaky.kind)
        const b = yield* enqueue(store, team.id, broken.kind)
        const c = yield* enqueue(store, team.id, hopeless.kind, 2)
        yield* startWorkers(yield* Effect.scope, [flaky, broken, hopeless], options())
        yield* waitUntil(isDone(store, team.id), "all jobs to settle")
        const [ja, jb, jc] = yield* Effect.forEach([a, b, c], (j) => jobOf(store, team.id, j.id))
        assert.deepStrictEqual([ja?.status, ja?.attempts, ja?.result], ["completed", 3, JSON.stringify("third time")])
        assert.deepStrictEqual([jb?.status, jb?.attempts], ["failed", 1])
        const error = decodeError(jb?.error)
        assert.ok(error instanceof BadRequestError)
        assert.strictEqual(error.message, "this input can never work")
        assert.deepStrictEqual([jc?.status, jc?.attempts], ["failed", 2])
        assert.ok(decodeError(jc?.error) instanceof QueueFullError)
      }))

    it.scoped("cancelling a running job interrupts it", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* newTeam(store)
        let interrupted = false
        const forever = handler(`forever-${uid()}`, () => Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => void (interrupted = true)))))
        const job = yield* enqueue(store, team.id, forever.kind)
        yield* startWorkers(yield* Effect.scope, [forever], options({ leaseMs: 300 }))
        yield* waitUntil(Effect.map(jobOf(store, team.id, job.id), (j) => j.status === "running"), "the job to start")
        yield* store.jobs.cancel(team.id, job.id, yield* Clock.currentTimeMillis)
        yield* waitUntil(Effect.map(jobOf(store, team.id, job.id), (j) => j.status === "cancelled"), "the job to stop")
        assert.isTrue(interrupted)
      }))

    it.scoped("a dead worker's job is taken over after its lease expires", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* newTeam(store)
        const kind = `orphan-${uid()}`
        const job = yield* enqueue(store, team.id, kind)
        // A worker claims the job and dies: no heartbeat, no settlement.
        const [claimed] = yield* store.jobs.claim({ workerId: "dead", now: yield* Clock.currentTimeMillis, leaseMs: 300, limit: 1, kinds: [kind] })
        assert.strictEqual(claimed?.id, job.id)
        yield* startWorkers(yield* Effect.scope, [handler(kind, () => Effect.succeed("rescued"))], options())
        yield* waitUntil(Effect.map(jobOf(store, team.id, job.id), (j) => j.status === "completed"), "the job to be taken over")
        const done = yield* jobOf(store, team.id, job.id)
        assert.deepStrictEqual([done.attempts, done.result], [2, JSON.stringify("rescued")])
        assert.isFalse(yield* store.jobs.complete(job.id, "dead", "\"late\"", yield* Clock.currentTimeMillis))
      }))

    it.scoped("shutdown lets a running job finish within the grace period", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* newTeam(store)
        const slow = handler(`slow-${uid()}`, () => Effect.as(Effect.sleep(Duration.millis(300)), "finished"))
        const job = yield* enqueue(store, team.id, slow.kind)
        const scope = yield* Scope.make()
        yield* startWorkers(scope, [slow], options({ graceMs: 5_000 }))
        yield* waitUntil(Effect.map(jobOf(store, team.id, job.id), (j) => j.status === "running"), "the job to start")
        yield* Scope.close(scope, Exit.void)
        const done = yield* jobOf(store, team.id, job.id)
        assert.deepStrictEqual([done.status, done.result], ["completed", JSON.stringify("finished")])
      }))

    it.scoped("shutdown gives a job that outlives the grace period back to the queue", () =>
      Effect.gen(function*() {
        const store = yield* Store
        const team = yield* newTeam(store)
        const stuck = handler(`stuck-${uid()}`, () => Effect.never)
        const job = yield* enqueue(store, team.id, stuck.kind)
        const scope = yield* Scope.make()
        yield* startWorkers(scope, [stuck], options({ graceMs: 100 }))
        yield* waitUntil(Effect.map(jobOf(store, team.id, job.id), (j) => j.status === "running"), "the job to start")
        yield* Scope.close(scope, Exit.void)
        const released = yield* jobOf(store, team.id, job.id)
        assert.deepStrictEqual([released.status, released.attempts, released.workerId], ["queued", 0, null])
      }))
  })
