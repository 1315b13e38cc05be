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
  type Team,
  Usage,
  Accounts,
  BadRequestError,
  type Document,
  ScrapeRequest,
  Scraper,
  Store
} from "@gleaner/core"
import { UndiciFetcher } from "@gleaner/fetch-undici"
import { storeLayerFromUrl } from "@gleaner/store-sql"
import { toClientError } from "./client-error.js"

/** Options of `scrape`: the body of `POST /v2/scrape` without `url` (formats, onlyMainContent, …). */
export type ScrapeOptions = Omit<typeof ScrapeRequest.Encoded, "url">

const decodeScrapeRequest = Schema.decodeUnknown(ScrapeRequest, { errors: "all", onExcessProperty: "error" })

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

  /** Stops the workers (running jobs get their grace period) and closes the store. */
  close(): Promise<void> {
    return this.runtime.dispose()
  }
}
