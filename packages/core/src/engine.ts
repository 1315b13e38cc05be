/**
 * The engine's services wired together. Needs only the ports (Store, Fetcher) and GleanerConfig;
 * each adapter package provides those and gets every service of the engine.
 */
import { Effect, Layer } from "effect"
import { Accounts } from "./accounts/accounts.js"
import { Billing } from "./billing/billing.js"
import { Plans } from "./billing/plans.js"
import { RateLimiter } from "./billing/rate-limiter.js"
import { TeamConcurrency } from "./billing/team-concurrency.js"
import { Usage } from "./billing/usage.js"
import { Crawler } from "./crawl/crawler.js"
import { JobHandlers } from "./jobs/handlers.js"
import { JobQueue } from "./jobs/job-queue.js"
import { WorkersLive } from "./jobs/workers.js"
import { Scraper } from "./scrape/scraper.js"

const base = Layer.mergeAll(Accounts.Default, Billing.Default, RateLimiter.Default, JobQueue.Default, TeamConcurrency.Default)

export type EngineServices = Accounts | Billing | RateLimiter | JobQueue | TeamConcurrency | Usage | Plans | Scraper | Crawler

/** Every engine service; no background work. Needs the Store, the Fetcher and GleanerConfig. */
export const EngineLive = Crawler.Default.pipe(
  Layer.provideMerge(Layer.mergeAll(Usage.Default, Scraper.Default)),
  Layer.provideMerge(base),
  Layer.provideMerge(Plans.fromConfig)
)

/** The handler of every job kind the engine knows (capabilities add theirs here). */
export const EngineJobHandlers = Layer.effect(
  JobHandlers,
  Effect.map(Crawler, (crawler) => new Map([[crawler.handler.kind, crawler.handler]]))
)

/** The engine plus worker fibers processing jobs for as long as the layer lives. */
export const EngineWithWorkersLive = WorkersLive.pipe(Layer.provide(EngineJobHandlers), Layer.provideMerge(EngineLive))
