/**
 * The engine's services wired together. Needs only the ports (Store, Fetcher, Scheduler; Mailer when e-mail is wanted) and GleanerConfig;
 * each adapter package provides those and gets every service of the engine.
 */
import { Effect, Layer } from "effect"
import { Accounts } from "./accounts/accounts.js"
import { Billing } from "./billing/billing.js"
import { Plans } from "./billing/plans.js"
import { RateLimiter } from "./billing/rate-limiter.js"
import { TeamConcurrency } from "./billing/team-concurrency.js"
import { Usage } from "./billing/usage.js"
import { BatchScraper } from "./batch/batch-scraper.js"
import { BrowserSessions } from "./browser-sessions/browser-sessions.js"
import { Crawler } from "./crawl/crawler.js"
import { ScrapeInteract } from "./interact/scrape-interact.js"
import { Mapper } from "./map/mapper.js"
import { MonitorSchedulesLive } from "./monitors/monitor-schedules.js"
import { Monitors } from "./monitors/monitors.js"
import { JobHandlers } from "./jobs/handlers.js"
import { JobQueue } from "./jobs/job-queue.js"
import { PageJobs } from "./jobs/page-jobs.js"
import { RetentionSweeperLive } from "./jobs/retention.js"
import { WorkersLive } from "./jobs/workers.js"
import { HtmlTransformer } from "./scrape/html-threads.js"
import { Scraper } from "./scrape/scraper.js"
import { WebhookDeliveryLive } from "./webhooks/delivery.js"
import { Webhooks } from "./webhooks/webhooks.js"

const base = Layer.mergeAll(Accounts.Default, Billing.Default, RateLimiter.Default, JobQueue.Default, TeamConcurrency.Default, Webhooks.Default, HtmlTransformer.Default)

export type EngineServices = Accounts | Billing | BrowserSessions | RateLimiter | JobQueue | TeamConcurrency | Usage | Plans | Scraper | ScrapeInteract | PageJobs | Crawler | BatchScraper | Webhooks | Mapper | Monitors | HtmlTransformer

/** Every engine service; no background work. Needs the Store, the Fetcher and GleanerConfig. */
export const EngineLive = Layer.mergeAll(ScrapeInteract.Default, Monitors.Default).pipe(
  Layer.provideMerge(Layer.mergeAll(Crawler.Default, BatchScraper.Default, Mapper.Default, BrowserSessions.Default)),
  Layer.provideMerge(Layer.mergeAll(Usage.Default, Scraper.Default, PageJobs.Default)),
  Layer.provideMerge(base),
  Layer.provideMerge(Plans.fromConfig)
)

/** The handler of every job kind the engine knows (capabilities add theirs here). */
export const EngineJobHandlers = Layer.effect(
  JobHandlers,
  Effect.gen(function*() {
    const handlers = [(yield* Crawler).handler, (yield* BatchScraper).handler, (yield* Monitors).handler]
    return new Map(handlers.map((handler) => [handler.kind, handler]))
  })
)

/** The engine plus worker fibers processing jobs, and the webhook sender, for as long as the layer lives. */
export const EngineWithWorkersLive = Layer.mergeAll(WorkersLive.pipe(Layer.provide(EngineJobHandlers)), WebhookDeliveryLive, RetentionSweeperLive, MonitorSchedulesLive).pipe(
  Layer.provideMerge(EngineLive)
)
