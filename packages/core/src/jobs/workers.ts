/**
 * Worker fibers: claim jobs from the store, run their handlers, settle the outcome. The loop
 * knows claim/run/settle and nothing about pages. While a job runs, a heartbeat extends its lease
 * and watches for cancellation or a lost lease. Closing the scope (SIGTERM) stops claiming, lets
 * running jobs finish for a grace period, then interrupts them and gives them back to the queue.
 */
import { hostname } from "node:os"
import { randomBytes } from "node:crypto"
import { Cause, Clock, Duration, Effect, Exit, FiberSet, Layer, Option, Queue, Schema } from "effect"
import { errorRetry, GleanerError, InternalError } from "../errors.js"
import { GleanerConfig } from "../config.js"
import { type Job, Store } from "../ports/store.js"
import { JobHandlers } from "./handlers.js"

export interface WorkerOptions {
  /** Jobs this process runs at once. */
  readonly concurrency: number
  readonly leaseMs: number
  /** Idle wait between claims. */
  readonly pollMs: number
  /** On shutdown, how long running jobs may finish before they are released. */
  readonly graceMs: number
  /** First retry delay; doubles per attempt, capped at five minutes. */
  readonly retryBaseMs: number
  /** Identifies this process's leases; unique per process by default. */
  readonly workerId?: string
}

type Outcome =
  | { readonly _tag: "Done"; readonly exit: Exit.Exit<unknown, GleanerError> }
  | { readonly _tag: "Cancelled" }
  | { readonly _tag: "LeaseLost" }

const encodeError = Schema.encodeSync(Schema.parseJson(GleanerError))

export const retryDelayMs = (attempt: number, baseMs: number): number =>
  Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 5 * 60_000)

/** Runs worker fibers in the current scope until it closes. */
export const runWorkers = Effect.fn("Workers.run")(function*(options: WorkerOptions) {
  const store = yield* Store
  const handlers = yield* JobHandlers
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`
  const kinds = [...handlers.keys()]
  const running = yield* FiberSet.make<void, never>()
  const wake = yield* Queue.sliding<void>(1)
  // at least every second, so a cancelled job stops promptly even with a long lease
  const heartbeatEvery = Duration.millis(Math.max(50, Math.min(1000, Math.floor(options.leaseMs / 3))))

  const watchdog = (job: Job): Effect.Effect<Outcome> =>
    Effect.gen(function*() {
      while (true) {
        yield* Effect.sleep(heartbeatEvery)
        const beat = yield* store.jobs.heartbeat(job.id, workerId, yield* Clock.currentTimeMillis, options.leaseMs)
        if (!beat.owned) return { _tag: "LeaseLost" } as const
        if (beat.cancelRequested) return { _tag: "Cancelled" } as const
      }
    })

  const settle = Effect.fn("Workers.settle")(function*(job: Job, outcome: Outcome) {
    const now = yield* Clock.currentTimeMillis
    switch (outcome._tag) {
      case "LeaseLost":
        return yield* Effect.logWarning("lease lost; another worker owns the job now")
      case "Cancelled":
        yield* store.jobs.markCancelled(job.id, workerId, now)
        return yield* Effect.logInfo("job cancelled")
    }
    if (Exit.isSuccess(outcome.exit)) {
      yield* store.jobs.complete(job.id, workerId, JSON.stringify(outcome.exit.value ?? null), now)
      return
    }
    const failure = Cause.failureOption(outcome.exit.cause)
    const error = Option.isSome(failure) ? failure.value : yield* defectToError(outcome.exit.cause)
    const retryable = errorRetry(error.code) === "retry" && job.attempts < job.maxAttempts
    const retryAt = retryable ? now + retryDelayMs(job.attempts, options.retryBaseMs) : null
    yield* Effect.logWarning(retryable ? "job failed; will retry" : "job failed", error.message)
    yield* store.jobs.fail(job.id, workerId, { error: encodeError(error), retryAt }, now)
  })

  const runJob = (job: Job) => {
    const handler = handlers.get(job.kind)
    const work = handler === undefined
      ? Effect.fail(new InternalError({ message: `No handler for job kind "${job.kind}"` }))
      : handler.run(job)
    return Effect.raceFirst(
      Effect.map(Effect.exit(work), (exit): Outcome => ({ _tag: "Done", exit })),
      watchdog(job)
    ).pipe(
      Effect.flatMap((outcome) => settle(job, outcome)),
      Effect.onInterrupt(() =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => store.jobs.release(job.id, workerId, now)).pipe(
          Effect.tap(() => Effect.logInfo("job released at shutdown"))
        )),
      Effect.ensuring(wake.offer(undefined)),
      Effect.annotateLogs({ jobId: job.id, teamId: job.teamId, kind: job.kind, attempt: job.attempts })
    )
  }

  const poll = Effect.gen(function*() {
    while (true) {
      const free = options.concurrency - (yield* FiberSet.size(running))
      const jobs = free > 0
        ? yield* store.jobs.claim({ workerId, now: yield* Clock.currentTimeMillis, leaseMs: options.leaseMs, limit: free, kinds })
        : []
      for (const job of jobs) yield* FiberSet.run(running, runJob(job))
      if (jobs.length === 0 || jobs.length === free) {
        yield* Effect.raceFirst(Effect.sleep(Duration.millis(options.pollMs)), wake.take)
      }
    }
  })

  // Finalizers run in reverse: the poller stops first, then running jobs get their grace period.
  // Finalizers are uninterruptible; the wait must not be, or the timeout could never cut it short.
  yield* Effect.addFinalizer(() =>
    Effect.interruptible(FiberSet.awaitEmpty(running)).pipe(
      Effect.timeoutOption(Duration.millis(options.graceMs)),
      Effect.flatMap(Option.match({
        onSome: () => Effect.void,
        onNone: () => Effect.logWarning("grace period over; releasing running jobs")
      }))
    ))
  if (kinds.length > 0 && options.concurrency > 0) yield* Effect.forkScoped(poll)
  yield* Effect.logDebug("workers started", { workerId, concurrency: options.concurrency, kinds })
  return { workerId } as const
})

const defectToError = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const errorId = crypto.randomUUID()
    yield* Effect.logError("job defect", { errorId }, cause)
    return new InternalError({ message: `An unexpected error occurred (error id ${errorId})`, errorId })
  })

/** Workers as a layer: options from GleanerConfig, alive as long as the layer's scope. */
export const WorkersLive: Layer.Layer<never, never, Store | JobHandlers | GleanerConfig> = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* GleanerConfig
    yield* runWorkers({
      concurrency: config.workers,
      leaseMs: config.leaseSeconds * 1000,
      pollMs: config.pollMs,
      graceMs: config.shutdownGraceSeconds * 1000,
      retryBaseMs: 1000
    })
  })
)
