/**
 * The one Config definition: the only place that reads the environment. Each setting is
 * declared once with its name, default and description; `docs/configuration.md` is checked
 * against `settings` by a test, so the two cannot drift.
 */
import { availableParallelism } from "node:os"
import { parseCidr } from "./net/address-policy.js"
import { Config, type ConfigError, ConfigProvider, Context, Effect, Layer, LogLevel, Option, Redacted } from "effect"

interface Setting<A> {
  readonly name: string
  readonly default: string
  readonly description: string
  readonly config: Config.Config<A>
}

const setting = <A>(
  name: string,
  defaultText: string,
  description: string,
  make: (name: string) => Config.Config<A>
): Setting<A> => ({ name, default: defaultText, description, config: make(name) })

const logLevels = {
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
} as const

/** One core is left to the main thread (fetching, storage, the API). */
const defaultTransformThreads = Math.min(4, Math.max(0, availableParallelism() - 1))

export const settings = {
  port: setting("PORT", "3002", "TCP port of the HTTP server.", (n) =>
    Config.port(n).pipe(Config.withDefault(3002))),
  host: setting("HOST", "0.0.0.0", "Interface the HTTP server binds to.", (n) =>
    Config.string(n).pipe(Config.withDefault("0.0.0.0"))),
  dataDir: setting("GLEANER_DATA_DIR", "./data", "Directory for the embedded database and stored files.", (n) =>
    Config.string(n).pipe(Config.withDefault("./data"))),
  databaseUrl: setting(
    "GLEANER_DATABASE_URL",
    "(the SQLite file `gleaner.db` in the data directory)",
    "A SQLite file path, `:memory:`, or a `postgres://` URL.",
    (n) => Config.option(Config.string(n))
  ),
  apiKey: setting(
    "GLEANER_API_KEY",
    "(none: a key is generated on first start)",
    "Pins the default team's API key (an `fc-` key of 32 hex digits); reused on restart.",
    (n) =>
      Config.option(
        Config.redacted(n).pipe(
          Config.validate({
            message: "GLEANER_API_KEY must be fc- followed by 32 hex digits",
            validation: (key) => /^fc-[0-9a-f]{32}$/.test(Redacted.value(key))
          })
        )
      )
  ),
  allowedNetworks: setting(
    "GLEANER_ALLOWED_NETWORKS",
    "(empty)",
    "Comma-separated CIDR ranges exempt from the private-address (SSRF) guard, e.g. `127.0.0.0/8`.",
    (n) =>
      Config.array(Config.string(), n).pipe(
        Config.validate({
          message: "GLEANER_ALLOWED_NETWORKS must be a comma-separated list of CIDR ranges",
          validation: (list) => list.every((c) => c.trim() === "" || parseCidr(c) !== undefined)
        }),
        Config.map((list) => list.map((c) => c.trim()).filter((c) => c.length > 0)),
        Config.withDefault<ReadonlyArray<string>>([])
      )
  ),
  chromiumPath: setting(
    "GLEANER_CHROMIUM_PATH",
    "(search: chromium-headless-shell, then chromium, then the one of @sparticuz/chromium)",
    "The Chromium binary for pages that need a browser (JavaScript shells, `waitFor`, `mobile`, screenshots, actions) and for browser sessions. Without one, shells and `waitFor` pages are fetched with a warning; screenshots, actions and sessions answer 400 saying how to install one.",
    (n) => Config.option(Config.nonEmptyString(n))
  ),
  browserContexts: setting(
    "GLEANER_BROWSER_CONTEXTS",
    "4",
    "Pages rendered in the browser at once (one isolated browser context each).",
    (n) => Config.integer(n).pipe(Config.validate({ message: "must be between 1 and 256", validation: (v) => v >= 1 && v <= 256 }), Config.withDefault(4))
  ),
  browserSessions: setting(
    "GLEANER_BROWSER_SESSIONS",
    "4",
    "Browser sessions (`POST /v2/browser`) this process runs at once, each its own Chromium; beyond it creating one answers 503 (0 turns sessions off).",
    (n) => Config.integer(n).pipe(Config.validate({ message: "must be between 0 and 256", validation: (v) => v >= 0 && v <= 256 }), Config.withDefault(4))
  ),
  auth: setting(
    "GLEANER_AUTH",
    "on",
    "`on` checks API keys. `off` maps every request to the default team (single-user local use; warns at start).",
    (n) => Config.literal("on", "off")(n).pipe(Config.withDefault("on" as const))
  ),
  defaultPlan: setting(
    "GLEANER_DEFAULT_PLAN",
    "selfhost",
    "Plan given to the bootstrap team and to teams created without `--plan`.",
    (n) => Config.string(n).pipe(Config.withDefault("selfhost"))
  ),
  plansFile: setting(
    "GLEANER_PLANS_FILE",
    "(none: the built-in plans)",
    "A JSON file of extra plans (`[{name, base?, creditsPerPeriod, concurrency, rateLimits?, features?}]`; `features` allows `zeroDataRetention`, `ignoreRobotsTxt`, `robotsUserAgent`, `threatProtection`); a plan named like a built-in one replaces it.",
    (n) => Config.option(Config.string(n))
  ),
  retentionDays: setting(
    "GLEANER_RETENTION_DAYS",
    "7",
    "How long scrape results and jobs are kept before they expire (`expiresAt`).",
    (n) => Config.number(n).pipe(Config.validate({ message: "must be > 0", validation: (v) => v > 0 }), Config.withDefault(7))
  ),
  maxPageBytes: setting(
    "GLEANER_MAX_PAGE_BYTES",
    "26214400",
    "Largest page (decompressed) a scrape accepts, in bytes; larger bodies are refused.",
    (n) => Config.integer(n).pipe(Config.validate({ message: "must be ≥ 1024", validation: (v) => v >= 1024 }), Config.withDefault(25 * 1024 * 1024))
  ),
  stealthProxyUrl: setting(
    "GLEANER_STEALTH_PROXY_URL",
    "(none)",
    "Proxy (`http://user:pass@host:port`) used for `proxy: \"stealth\"`/`\"enhanced\"`; without one those scrapes go direct with a warning.",
    (n) => Config.option(Config.redacted(n))
  ),
  publicUrl: setting(
    "GLEANER_PUBLIC_URL",
    "(derived from each request's Host)",
    "Base URL used in absolute links the API returns (job `url`, `next`).",
    (n) => Config.option(Config.string(n))
  ),
  fileUrls: setting(
    "GLEANER_FILE_URLS",
    "served",
    "How screenshots and action PDFs are returned: `served` (kept under the data directory, returned as unguessable URLs on this server, deleted with the job results) or `data` (inline `data:` URLs, nothing kept).",
    (n) => Config.literal("served", "data")(n).pipe(Config.withDefault("served" as const))
  ),
  transformThreads: setting(
    "GLEANER_TRANSFORM_THREADS",
    "CPU cores − 1, at most 4",
    "Worker threads that turn fetched HTML into markdown, links and the other formats, so page processing uses more than one core and never stalls the API (0: in the main thread).",
    (n) => Config.integer(n).pipe(Config.validate({ message: "must be ≥ 0", validation: (v) => v >= 0 }), Config.withDefault(defaultTransformThreads))
  ),
  workers: setting("GLEANER_WORKERS", "4", "Job worker fibers per process (0 disables job processing).", (n) =>
    Config.integer(n).pipe(Config.validate({ message: "must be ≥ 0", validation: (v) => v >= 0 }), Config.withDefault(4))),
  leaseSeconds: setting(
    "GLEANER_JOB_LEASE_SECONDS",
    "30",
    "How long a claimed job stays leased without a heartbeat before another worker may take it.",
    (n) => Config.integer(n).pipe(Config.validate({ message: "must be ≥ 1", validation: (v) => v >= 1 }), Config.withDefault(30))
  ),
  pollMs: setting("GLEANER_JOB_POLL_MS", "250", "How often an idle worker looks for new jobs, in milliseconds.", (n) =>
    Config.integer(n).pipe(Config.validate({ message: "must be ≥ 10", validation: (v) => v >= 10 }), Config.withDefault(250))),
  shutdownGraceSeconds: setting(
    "GLEANER_SHUTDOWN_GRACE_SECONDS",
    "20",
    "On SIGTERM, how long running jobs may finish before they are released back to the queue.",
    (n) => Config.integer(n).pipe(Config.withDefault(20))
  ),
  webhookRetrySeconds: setting(
    "GLEANER_WEBHOOK_RETRY_SECONDS",
    "60,300,900",
    "Delays before each retry of a webhook delivery that failed, in seconds, comma-separated; after the last one it is given up (empty: no retries).",
    (n) =>
      Config.array(Config.string(), n).pipe(
        Config.map((list) => list.map((d) => d.trim()).filter((d) => d.length > 0)),
        Config.validate({
          message: "GLEANER_WEBHOOK_RETRY_SECONDS must be a comma-separated list of non-negative numbers of seconds",
          validation: (list) => list.every((d) => /^\d+(\.\d+)?$/.test(d))
        }),
        Config.map((list): ReadonlyArray<number> => list.map(Number)),
        Config.withDefault<ReadonlyArray<number>>([60, 300, 900])
      )
  ),
  webhookPollMs: setting(
    "GLEANER_WEBHOOK_POLL_MS",
    "1000",
    "How often the webhook sender looks for due deliveries (and retries), in milliseconds.",
    (n) => Config.integer(n).pipe(Config.validate({ message: "must be ≥ 10", validation: (v) => v >= 10 }), Config.withDefault(1000))
  ),
  smtpUrl: setting(
    "GLEANER_SMTP_URL",
    "(none: e-mail is off)",
    "SMTP relay for monitor e-mail: `smtp://[user:pass@]host[:port]`, or `smtps://…` for TLS.",
    (n) =>
      Config.option(Config.string(n).pipe(
        Config.validate({
          message: "GLEANER_SMTP_URL must be smtp://[user:pass@]host[:port] or smtps://…",
          validation: (url) => URL.canParse(url) && /^smtps?:$/.test(new URL(url).protocol)
        })
      ))
  ),
  smtpFrom: setting("GLEANER_SMTP_FROM", "gleaner@localhost", "Sender address of monitor e-mail.", (n) =>
    Config.string(n).pipe(Config.withDefault("gleaner@localhost"))),
  logLevel: setting("GLEANER_LOG_LEVEL", "info", "Minimum log level: trace, debug, info, warning, error, none.", (n) =>
    Config.literal("trace", "debug", "info", "warning", "error", "none")(n).pipe(
      Config.withDefault("info" as const),
      Config.map((level) => logLevels[level])
    )),
  logFormat: setting("GLEANER_LOG_FORMAT", "pretty", "`pretty` for people, `json` for log collectors.", (n) =>
    Config.literal("pretty", "json")(n).pipe(Config.withDefault("pretty" as const)))
} as const

type Settings = typeof settings
export type GleanerSettings = {
  readonly [K in keyof Settings]: Config.Config.Success<Settings[K]["config"]>
}

const configs = Object.fromEntries(Object.entries(settings).map(([key, s]) => [key, s.config])) as {
  readonly [K in keyof Settings]: Settings[K]["config"]
}

/** Every setting as one Config, read from the current ConfigProvider. */
export const gleanerConfig: Config.Config<GleanerSettings> = Config.all(configs)

/** The resolved configuration; services take the slice they need from it. */
export class GleanerConfig extends Context.Tag("@gleaner/core/GleanerConfig")<GleanerConfig, GleanerSettings>() {
  /** Reads every setting from the environment (or whatever ConfigProvider is current). */
  static readonly fromEnv: Layer.Layer<GleanerConfig, ConfigError.ConfigError> = Layer.effect(this, gleanerConfig)

  /** The defaults with explicit values on top, for embedding and tests: ignores the environment. */
  static readonly make = (overrides: Partial<GleanerSettings> = {}): Effect.Effect<GleanerSettings, ConfigError.ConfigError> =>
    Effect.map(
      Effect.withConfigProvider(gleanerConfig, ConfigProvider.fromMap(new Map())),
      (defaults) => ({ ...defaults, ...overrides })
    )

  static readonly layer = (overrides: Partial<GleanerSettings> = {}): Layer.Layer<GleanerConfig, ConfigError.ConfigError> =>
    Layer.effect(this, GleanerConfig.make(overrides))
}

/** The database used when none is configured: the SQLite file in the data directory. */
export const databaseUrlOf = (s: Pick<GleanerSettings, "dataDir" | "databaseUrl">): string =>
  Option.getOrElse(s.databaseUrl, () => `${s.dataDir.replace(/\/+$/, "")}/gleaner.db`)
