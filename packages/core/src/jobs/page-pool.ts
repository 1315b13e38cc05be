/**
 * The page pool that crawls and batch scrapes share: N fibers take the job's pending pages from
 * an in-memory queue, run `process` on each (which settles the page in the store and may return
 * new pages it admitted to the frontier), and stop when nothing is queued or in flight. Pages
 * added to the store by someone else meanwhile (a batch scrape's `appendToId`) are picked up
 * before the pool ends. A page whose `process` fails is settled as failed, never lost.
 */
import { Cause, Clock, Effect, Queue, Ref } from "effect"
import { type GleanerError, InternalError } from "../errors.js"
import type { StoreService } from "../ports/store.js"

export interface PoolPage {
  readonly key: string
  readonly url: string
  readonly depth: number
}

export interface PagePoolOptions {
  readonly store: StoreService
  readonly jobId: string
  /** Pages in flight at once. */
  readonly workers: number
  /** Milliseconds each worker waits after a page (politeness `delay`). */
  readonly delayMs?: number
  /** Scrapes one page and settles it; the new pages it added to the frontier. */
  readonly process: (page: PoolPage) => Effect.Effect<ReadonlyArray<PoolPage>, GleanerError>
  /** Runs once for a page settled as failed here (not again for one already settled). */
  readonly onFailed?: (page: PoolPage, error: GleanerError) => Effect.Effect<void>
}

const errorJson = (code: string, error: string): string => JSON.stringify({ code, error })

/** Settles a page as failed with the error's code and message. */
export const failPage = (store: StoreService, jobId: string, key: string, error: GleanerError) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    store.jobPages.settle(jobId, key, { status: "failed", error: errorJson(error.code, error.message) }, now))

export const runPagePool = (options: PagePoolOptions): Effect.Effect<void> =>
  Effect.gen(function*() {
    const { store, jobId, workers } = options
    const fail = (page: PoolPage, error: GleanerError) =>
      Effect.gen(function*() {
        const settled = yield* failPage(store, jobId, page.key, error)
        if (settled && options.onFailed !== undefined) yield* options.onFailed(page, error)
        return []
      })
    const safely = (page: PoolPage) =>
      options.process(page).pipe(
        Effect.catchAll((error) => fail(page, error)),
        Effect.catchAllDefect((defect) =>
          Effect.zipRight(
            Effect.logError("job page failed", { jobId, url: page.url, defect: Cause.pretty(Cause.die(defect)) }),
            fail(page, new InternalError({ message: "Internal error while scraping this page" }))
          ))
      )

    // a round drains what is pending now; pages added from outside meanwhile start another round
    for (;;) {
      const pending = yield* store.jobPages.pending(jobId, Number.MAX_SAFE_INTEGER)
      if (pending.length === 0) return
      const queue = yield* Queue.unbounded<PoolPage | null>()
      yield* Queue.offerAll(queue, pending.map((p) => ({ key: p.key, url: p.url, depth: p.depth })))
      const outstanding = yield* Ref.make(pending.length)
      const worker = Effect.gen(function*() {
        for (;;) {
          const page = yield* Queue.take(queue)
          if (page === null) return
          const added = yield* safely(page)
          if (options.delayMs !== undefined) yield* Effect.sleep(options.delayMs)
          yield* Ref.update(outstanding, (n) => n + added.length)
          if (added.length > 0) yield* Queue.offerAll(queue, added)
          const left = yield* Ref.updateAndGet(outstanding, (n) => n - 1)
          if (left === 0) yield* Queue.offerAll(queue, Array.from({ length: workers }, () => null))
        }
      })
      yield* Effect.all(Array.from({ length: Math.max(1, workers) }, () => worker), { concurrency: "unbounded", discard: true })
    }
  })
