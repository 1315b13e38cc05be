/**
 * Retention: crawls, batch scrapes and other settled jobs (with their pages) and stored scrape
 * documents are deleted once older than `GLEANER_RETENTION_DAYS`, the date their `expiresAt`
 * reports; monitor checks, check pages and snapshots once older than their monitor's
 * `retentionDays`; served files (screenshots, action PDFs) go by whole days once the day is that old. `sweepExpired` does one pass; `RetentionSweeperLive` runs it at start and then every
 * ten minutes for as long as the layer lives (in every process with workers: the deletes are
 * idempotent, so several processes sweeping at once do no harm).
 */
import { Clock, Effect, Layer, Option, Schedule } from "effect"
import { GleanerConfig } from "../config.js"
import { BlobStore } from "../ports/blob-store.js"
import { Store } from "../ports/store.js"

const sweepEvery = "10 minutes"

/** Deletes what has expired by now; how many jobs, documents and files went. */
export const sweepExpired = Effect.gen(function*() {
  const store = yield* Store
  const { retentionDays } = yield* GleanerConfig
  const now = yield* Clock.currentTimeMillis
  let jobs = 0
  // purgeSettled deletes in batches; go on until a batch comes back short
  for (;;) {
    const purged = yield* store.jobs.purgeSettled(now - retentionDays * 86_400_000)
    jobs += purged.length
    if (purged.length < 500) break
  }
  const documents = yield* store.documents.purgeExpired(now)
  // monitor checks, their pages and snapshots go by each monitor's own retentionDays
  const checks = yield* store.monitorChecks.purgeExpired(now)
  const blobs = yield* Effect.serviceOption(BlobStore)
  const files = Option.isSome(blobs) ? yield* blobs.value.purgeBefore(now - retentionDays * 86_400_000) : 0
  return { jobs, documents, files, checks } as const
})

export const RetentionSweeperLive: Layer.Layer<never, never, Store | GleanerConfig> = Layer.scopedDiscard(
  Effect.forkScoped(
    sweepExpired.pipe(
      Effect.tap(({ checks, documents, files, jobs }) =>
        jobs + documents + files + checks > 0 ? Effect.logInfo("retention sweep", { jobs, documents, files, checks }) : Effect.void),
      Effect.catchAllCause((cause) => Effect.logError("retention sweep failed", cause)),
      Effect.repeat(Schedule.spaced(sweepEvery))
    )
  )
)
