/**
 * `Gleaner.open()`: the whole engine in your own Node process, called like the official SDK.
 * It opens the store (a SQLite file by default), runs the job workers in-process, and acts for
 * one team (`default` unless told otherwise, created on first open). Method names and return
 * shapes are those of `@mendable/firecrawl-js`, added here as each capability lands.
 */
import { Effect, Exit, Layer, ManagedRuntime, Option, Schema } from "effect"
import {
  bootstrap,
  databaseUrlOf,
  DEFAULT_TEAM,
  EngineWithWorkersLive,
  GleanerConfig,
  type GleanerSettings,
  type MonitorCheckStatus,
  type MonitorPageStatus,
  type Team,
  Usage,
  Accounts,
  BadRequestError,
  BatchScraper,
  BatchScrapeRequest,
  Crawler,
  CrawlRequest,
  type Document,
  Mapper,
  MapRequest,
  type PageJobStatus,
  ScrapeRequest,
  Scraper,
  Store,
  BrowserCreateRequest,
  BrowserExecuteRequest,
  BrowserSessions,
  ScrapeInteract,
  ScrapeInteractRequest,
  CreateMonitorRequest,
  Monitors,
  UpdateMonitorRequest
} from "@gleaner/core"
import { PlaywrightBrowser, PlaywrightSessions } from "@gleaner/browser-playwright"
import { UndiciFetcher } from "@gleaner/fetch-undici"
import { SmtpMailer } from "@gleaner/mailer-smtp"
import { CronScheduler } from "@gleaner/scheduler-croner"
import { storeLayerFromUrl } from "@gleaner/store-sql"
import { GleanerClientError, toClientError } from "./client-error.js"

/** Options of `scrape`: the body of `POST /v2/scrape` without `url` (formats, onlyMainContent, …). */
export type ScrapeOptions = Omit<typeof ScrapeRequest.Encoded, "url">

const decodeScrapeRequest = Schema.decodeUnknown(ScrapeRequest, { errors: "all", onExcessProperty: "error" })

/** Options of `crawl`/`startCrawl`: the body of `POST /v2/crawl` without `url`. */
export type CrawlOptions = Omit<typeof CrawlRequest.Encoded, "url">
const decodeCrawlRequest = Schema.decodeUnknown(CrawlRequest, { errors: "all", onExcessProperty: "error" })

/** Options of `batchScrape`/`startBatchScrape`, shaped as the SDK's. */
export interface BatchScrapeOptions {
  readonly options?: ScrapeOptions
  readonly webhook?: typeof BatchScrapeRequest.Encoded["webhook"]
  readonly appendToId?: string
  readonly ignoreInvalidURLs?: boolean
  readonly maxConcurrency?: number
  readonly zeroDataRetention?: boolean
}
const decodeBatchRequest = Schema.decodeUnknown(BatchScrapeRequest, { errors: "all", onExcessProperty: "error" })

/** Options of `map`: the body of `POST /v2/map` without `url` (search, sitemap, limit, …). */
export type MapOptions = Omit<typeof MapRequest.Encoded, "url">
const decodeMapRequest = Schema.decodeUnknown(MapRequest, { errors: "all", onExcessProperty: "error" })
const decodeBrowserCreate = Schema.decodeUnknown(BrowserCreateRequest, { errors: "all", onExcessProperty: "error" })
const decodeBrowserExecute = Schema.decodeUnknown(BrowserExecuteRequest, { errors: "all", onExcessProperty: "error" })
const decodeInteract = Schema.decodeUnknown(ScrapeInteractRequest, { errors: "all", onExcessProperty: "error" })
const decodeCreateMonitor = Schema.decodeUnknown(CreateMonitorRequest, { errors: "all", onExcessProperty: "error" })
const decodeUpdateMonitor = Schema.decodeUnknown(UpdateMonitorRequest, { errors: "all", onExcessProperty: "error" })

/** The body of `POST /v2/monitor`, as the SDK's `createMonitor` takes it. */
export type CreateMonitorOptions = Omit<typeof CreateMonitorRequest.Encoded, "origin" | "integration">
/** The body of `PATCH /v2/monitor/:id`. */
export type UpdateMonitorOptions = Omit<typeof UpdateMonitorRequest.Encoded, "origin" | "integration">

/** How a finished-or-not job looks through the SDK (`getCrawlStatus`, `getBatchScrapeStatus`). */
export interface JobStatus {
  readonly id: string
  readonly status: PageJobStatus["status"]
  readonly completed: number
  readonly total: number
  readonly creditsUsed: number
  readonly expiresAt: string
  readonly next: null
  readonly data: ReadonlyArray<Document>
  readonly warning?: string
}

/** Waiting for a job: how often to look (seconds, default 0.25) and for how long at most. */
export interface WaitOptions {
  readonly pollInterval?: number
  readonly timeout?: number
}

const invalid = (what: string) => (e: { readonly message: string }) => new BadRequestError({ message: `Invalid ${what}: ${e.message}` })

export interface OpenOptions {
  /** A SQLite file path, `:memory:`, or a `postgres://` URL. Default: `gleaner.db` in `dataDir`. */
  readonly database?: string
  /** Directory for the embedded database and stored files. Default `./data`. */
  readonly dataDir?: string
  /** Name of the team the client acts for. Default `default` (created when missing). */
  readonly team?: string
  /** Any other setting, over the defaults; the environment is never read. */
  readonly settings?: Partial<GleanerSettings>
}

const makeRuntime = (settings: GleanerSettings) => {
  const config = Layer.succeed(GleanerConfig, settings)
  const store = storeLayerFromUrl(databaseUrlOf(settings))
  return ManagedRuntime.make(EngineWithWorkersLive.pipe(
    Layer.provideMerge(store),
    Layer.provideMerge(UndiciFetcher.layer),
    Layer.provideMerge(CronScheduler),
    // monitor e-mail through settings.smtpUrl, when set
    Layer.provideMerge(SmtpMailer.fromConfig),
    // Chromium when the machine has one (settings.chromiumPath or the system's), else none
    Layer.provideMerge(PlaywrightBrowser.layerConfig()),
    // a Chromium per browser session, when the machine has one
    Layer.provideMerge(PlaywrightSessions.layerConfig()),
    Layer.provideMerge(config)
  ))
}

type Runtime = ReturnType<typeof makeRuntime>
type Services = ManagedRuntime.ManagedRuntime.Context<Runtime>

export class Gleaner {
  private constructor(
    private readonly runtime: Runtime,
    /** The team every call acts for. */
    readonly team: Team
  ) {}

  static async open(options: OpenOptions = {}): Promise<Gleaner> {
    const settings = await Effect.runPromise(GleanerConfig.make({
      ...options.settings,
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.database === undefined ? {} : { databaseUrl: Option.some(options.database) })
    }))
    const runtime = makeRuntime(settings)
    const team = await runtime.runPromiseExit(Effect.gen(function*() {
      const { team } = yield* bootstrap({ apiKey: settings.apiKey, defaultPlan: settings.defaultPlan })
      const name = options.team ?? DEFAULT_TEAM
      if (name === team.name) return team
      const existing = yield* (yield* Store).teams.findByName(name)
      return Option.isSome(existing) ? existing.value : yield* (yield* Accounts).createTeam(name, settings.defaultPlan)
    }))
    if (Exit.isFailure(team)) {
      await runtime.dispose()
      throw toClientError(team.cause)
    }
    return new Gleaner(runtime, team.value)
  }

  private async run<A, E>(effect: Effect.Effect<A, E, Services>): Promise<A> {
    const exit = await this.runtime.runPromiseExit(effect)
    if (Exit.isSuccess(exit)) return exit.value
    throw toClientError(exit.cause)
  }

  /** Scrapes one URL, as `POST /v2/scrape` would; options are checked like the API checks them. */
  scrape(url: string, options: ScrapeOptions = {}): Promise<Document> {
    const auth = { team: this.team, apiKeyId: null }
    return this.run(Effect.gen(function*() {
      const request = yield* decodeScrapeRequest({ ...options, url }).pipe(
        Effect.mapError((e) => new BadRequestError({ message: `Invalid scrape options: ${e.message}` }))
      )
      return yield* (yield* Scraper).scrape(auth, request)
    }))
  }

  /** A scrape made earlier by this team, by its `metadata.scrapeId`. */
  getScrape(id: string): Promise<Document> {
    return this.run(Effect.flatMap(Scraper, (s) => s.getDocument(this.team.id, id)))
  }

  /** Remaining and plan credits of the current billing period. */
  getCreditUsage() {
    return this.run(Effect.flatMap(Usage, (u) => u.credits(this.team)))
  }

  /** The same in tokens (credits × 15). */
  getTokenUsage() {
    return this.run(Effect.flatMap(Usage, (u) => u.tokens(this.team)))
  }

  /** Credits used per billing period, optionally per API key. */
  getCreditUsageHistorical(byApiKey = false) {
    return this.run(Effect.flatMap(Usage, (u) => u.creditHistory(this.team, byApiKey)))
  }

  getTokenUsageHistorical(byApiKey = false) {
    return this.run(Effect.flatMap(Usage, (u) => u.tokenHistory(this.team, byApiKey)))
  }

  /** Jobs running now against the team's limit. */
  async getConcurrency(): Promise<{ readonly concurrency: number; readonly maxConcurrency: number }> {
    const { concurrency, maxConcurrency } = await this.run(Effect.flatMap(Usage, (u) => u.concurrency(this.team)))
    return { concurrency, maxConcurrency }
  }

  /** Queued and running jobs of the team. */
  getQueueStatus() {
    return this.run(Effect.flatMap(Usage, (u) => u.queueStatus(this.team)))
  }

  /** Starts a crawl job (`POST /v2/crawl`); its pages are fetched by this process's workers. */
  async startCrawl(url: string, options: CrawlOptions = {}): Promise<{ readonly id: string }> {
    const auth = { team: this.team, apiKeyId: null }
    const { id } = await this.run(Effect.gen(function*() {
      const request = yield* decodeCrawlRequest({ ...options, url }).pipe(Effect.mapError(invalid("crawl options")))
      return yield* (yield* Crawler).start(auth, request)
    }))
    return { id }
  }

  /** A crawl's status with every document so far (all pages, as the SDK's auto-pagination). */
  getCrawlStatus(id: string): Promise<JobStatus> {
    return this.allPages(id, (skip) => Effect.flatMap(Crawler, (c) => c.status(this.team.id, id, { skip, limit: 1000 })))
  }

  /** Starts a crawl and waits for it to end; the final status with every document. */
  async crawl(url: string, options: CrawlOptions & WaitOptions = {}): Promise<JobStatus> {
    const { pollInterval, timeout, ...crawlOptions } = options
    const { id } = await this.startCrawl(url, crawlOptions)
    await this.waitFor(id, () => this.run(Effect.flatMap(Crawler, (c) => c.status(this.team.id, id, { limit: 0 }))), { pollInterval, timeout })
    return this.getCrawlStatus(id)
  }

  /** Cancels a crawl; true once it is cancelled. */
  async cancelCrawl(id: string): Promise<boolean> {
    const { status } = await this.run(Effect.flatMap(Crawler, (c) => c.cancel(this.team.id, id)))
    return status === "cancelled"
  }

  /** Failed pages and robots.txt-blocked URLs of a crawl. */
  getCrawlErrors(id: string) {
    return this.run(Effect.flatMap(Crawler, (c) => c.errors(this.team.id, id)))
  }

  /** The team's queued and running crawls. */
  async getActiveCrawls() {
    const crawls = await this.run(Effect.flatMap(Crawler, (c) => c.active(this.team.id)))
    return { success: true as const, crawls }
  }

  /** The crawl options a natural-language prompt would set. */
  async crawlParamsPreview(url: string, prompt: string) {
    const { data, warning } = await this.run(Effect.flatMap(Crawler, (c) => c.paramsPreview(url, prompt)))
    return { ...data, warning }
  }

  /** The site's URLs from its sitemaps and links (`POST /v2/map`), ranked by `search` when given. */
  map(url: string, options: MapOptions = {}) {
    const auth = { team: this.team, apiKeyId: null }
    return this.run(Effect.gen(function*() {
      const request = yield* decodeMapRequest({ ...options, url }).pipe(Effect.mapError(invalid("map options")))
      return yield* (yield* Mapper).map(auth, request)
    }))
  }

  /** Starts a batch scrape (`POST /v2/batch/scrape`); invalid URLs are dropped and listed. */
  async startBatchScrape(urls: ReadonlyArray<string>, options: BatchScrapeOptions = {}) {
    const auth = { team: this.team, apiKeyId: null }
    const { options: scrapeOptions, ...rest } = options
    return this.run(Effect.gen(function*() {
      const request = yield* decodeBatchRequest({ ...scrapeOptions, ...rest, urls }).pipe(Effect.mapError(invalid("batch scrape options")))
      return yield* (yield* BatchScraper).start(auth, request)
    }))
  }

  getBatchScrapeStatus(id: string): Promise<JobStatus> {
    return this.allPages(id, (skip) => Effect.flatMap(BatchScraper, (b) => b.status(this.team.id, id, { skip, limit: 1000 })))
  }

  /** Starts a batch scrape and waits for it to end. */
  async batchScrape(urls: ReadonlyArray<string>, options: BatchScrapeOptions & WaitOptions = {}): Promise<JobStatus> {
    const { pollInterval, timeout, ...batchOptions } = options
    const { id } = await this.startBatchScrape(urls, batchOptions)
    await this.waitFor(id, () => this.run(Effect.flatMap(BatchScraper, (b) => b.status(this.team.id, id, { limit: 0 }))), { pollInterval, timeout })
    return this.getBatchScrapeStatus(id)
  }

  async cancelBatchScrape(id: string): Promise<boolean> {
    const { status } = await this.run(Effect.flatMap(BatchScraper, (b) => b.cancel(this.team.id, id)))
    return status === "cancelled"
  }

  getBatchScrapeErrors(id: string) {
    return this.run(Effect.flatMap(BatchScraper, (b) => b.errors(this.team.id, id)))
  }

  private async allPages(
    id: string,
    page: (skip: number) => Effect.Effect<PageJobStatus, unknown, Services>
  ): Promise<JobStatus> {
    const first = await this.run(page(0))
    const data = [...first.data]
    for (let next = first.nextSkip; next !== undefined && next > 0;) {
      const more = await this.run(page(next))
      if (more.data.length === 0) break
      data.push(...more.data)
      next = more.nextSkip
    }
    const { status, completed, total, creditsUsed, expiresAt, warning } = first
    return { id, status, completed, total, creditsUsed, expiresAt, next: null, data, ...(warning === undefined ? {} : { warning }) }
  }

  /** Waits until the job has ended, looking at its counts only (`peek` reads no documents). */
  private async waitFor(id: string, peek: () => Promise<{ readonly status: JobStatus["status"] }>, options: { readonly pollInterval?: number | undefined; readonly timeout?: number | undefined }): Promise<void> {
    const started = Date.now()
    const everyMs = Math.max(50, (options.pollInterval ?? 0.25) * 1000)
    for (;;) {
      const { status } = await peek()
      if (status !== "scraping") return
      if (options.timeout !== undefined && Date.now() - started > options.timeout * 1000) {
        throw new GleanerClientError(`Job ${id} did not finish within ${options.timeout} s`, 408, "JOB_TIMEOUT", undefined)
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs))
    }
  }

  /**
   * Starts a browser session (`POST /v2/browser`). In-process there is no HTTP server, so
   * `cdpUrl` is the session's own DevTools endpoint on 127.0.0.1 and there is no live view.
   */
  browser(options: Omit<typeof BrowserCreateRequest.Encoded, "origin"> = {}) {
    const auth = { team: this.team, apiKeyId: null }
    return this.run(Effect.gen(function*() {
      const request = yield* decodeBrowserCreate(options).pipe(Effect.mapError(invalid("browser session options")))
      const created = yield* (yield* BrowserSessions).create(auth, request)
      return { success: true as const, id: created.id, cdpUrl: created.cdpEndpoint, expiresAt: new Date(created.expiresAt).toISOString() }
    }))
  }

  /** Runs code in a session's current page (`POST /v2/browser/:id/execute`); only `language: "node"`. */
  browserExecute(id: string, options: Omit<typeof BrowserExecuteRequest.Encoded, "origin">) {
    const teamId = this.team.id
    return this.run(Effect.gen(function*() {
      const request = yield* decodeBrowserExecute(options).pipe(Effect.mapError(invalid("execute options")))
      return yield* (yield* BrowserSessions).execute(teamId, id, request)
    }))
  }

  /** Ends a session and bills it (`DELETE /v2/browser/:id`). */
  deleteBrowser(id: string) {
    return this.run(Effect.flatMap(BrowserSessions, (s) => s.delete(this.team.id, id)))
  }

  /**
   * Runs code in a stored scrape's page (`POST /v2/scrape/:id/interact`): the first call re-opens
   * the page in a browser session (its URL, waitFor, actions replayed), later ones reuse that
   * session. `cdpUrl` is the session's local DevTools endpoint; only `language: "node"`.
   */
  interact(jobId: string, options: Omit<typeof ScrapeInteractRequest.Encoded, "origin">) {
    const auth = { team: this.team, apiKeyId: null }
    return this.run(Effect.gen(function*() {
      const request = yield* decodeInteract(options).pipe(Effect.mapError(invalid("interact options")))
      const { sessionId, token: _token, ...outcome } = yield* (yield* ScrapeInteract).interact(auth, jobId, request)
      const { endpoint } = yield* (yield* BrowserSessions).devtoolsForTeam(auth.team.id, sessionId)
      return { sessionId, cdpUrl: endpoint, ...outcome }
    }))
  }

  /** Ends the browser session of a scrape's interact calls and bills it (`DELETE /v2/scrape/:id/interact`). */
  stopInteraction(jobId: string) {
    return this.run(Effect.flatMap(ScrapeInteract, (s) => s.stop(this.team.id, jobId)))
  }

  /** The team's sessions (`GET /v2/browser`); a live one's `cdpUrl` is its local DevTools endpoint. */
  listBrowsers(options: { readonly status?: "active" | "destroyed" } = {}) {
    return this.run(Effect.map(
      Effect.flatMap(BrowserSessions, (s) => s.list(this.team.id, options.status)),
      (listed) => ({
        success: true as const,
        sessions: listed.map(({ record }) => ({
          id: record.id,
          status: record.status,
          streamWebView: record.streamWebView,
          createdAt: new Date(record.createdAt).toISOString(),
          lastActivity: new Date(record.lastActivityAt).toISOString()
        }))
      })
    ))
  }

  /** Creates a monitor (`POST /v2/monitor`): this process's scheduler runs its checks. */
  createMonitor(options: CreateMonitorOptions) {
    const auth = { team: this.team, apiKeyId: null }
    return this.run(Effect.gen(function*() {
      const request = yield* decodeCreateMonitor(options).pipe(Effect.mapError(invalid("monitor")))
      return yield* (yield* Monitors).create(auth, request)
    }))
  }

  /** The team's monitors, newest first. */
  listMonitors(options: { readonly limit?: number; readonly offset?: number } = {}) {
    return this.run(Effect.flatMap(Monitors, (m) => m.list(this.team.id, options)))
  }

  getMonitor(id: string) {
    return this.run(Effect.flatMap(Monitors, (m) => m.get(this.team.id, id)))
  }

  /** Changes a monitor (`PATCH`): any field of the create body, or `status: "active" | "paused"`. */
  updateMonitor(id: string, options: UpdateMonitorOptions) {
    const auth = { team: this.team, apiKeyId: null }
    return this.run(Effect.gen(function*() {
      const request = yield* decodeUpdateMonitor(options).pipe(Effect.mapError(invalid("monitor update")))
      return yield* (yield* Monitors).update(auth, id, request)
    }))
  }

  /** Deletes a monitor with its checks and snapshots; true once it is gone. */
  async deleteMonitor(id: string): Promise<boolean> {
    await this.run(Effect.flatMap(Monitors, (m) => m.remove(this.team.id, id)))
    return true
  }

  /** Queues a check now (`POST /v2/monitor/:id/run`); the check as queued. */
  runMonitor(id: string) {
    const auth = { team: this.team, apiKeyId: null }
    return this.run(Effect.flatMap(Monitors, (m) => m.run(auth, id)))
  }

  /** The monitor's checks, newest first, optionally of one status. */
  listMonitorChecks(id: string, options: { readonly limit?: number; readonly offset?: number; readonly status?: MonitorCheckStatus } = {}) {
    return this.run(Effect.flatMap(Monitors, (m) => m.checks(this.team.id, id, options)))
  }

  /** A check with all its pages (every page of the listing, as the SDK's auto-pagination). */
  async getMonitorCheck(id: string, checkId: string, options: { readonly status?: MonitorPageStatus } = {}) {
    const page = (skip: number) => this.run(Effect.flatMap(Monitors, (m) => m.check(this.team.id, id, checkId, { ...options, skip, limit: 100 })))
    const first = await page(0)
    const pages = [...first.detail.pages]
    for (let next = first.nextSkip; next !== undefined;) {
      const more = await page(next)
      pages.push(...more.detail.pages)
      next = more.nextSkip
    }
    return { ...first.detail, pages }
  }

  /** Stops the workers (running jobs get their grace period) and closes the store. */
  close(): Promise<void> {
    return this.runtime.dispose()
  }
}
