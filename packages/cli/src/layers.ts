/**
 * The CLI's composition root: configuration from the environment, logging as configured, the
 * store the configuration names, and the engine on top.
 */
import { Effect, Layer, Logger } from "effect"
import { BlobStores, databaseUrlOf, EngineLive, EngineWithWorkersLive, GleanerConfig } from "@gleaner/core"
import { PlaywrightBrowser, PlaywrightSessions } from "@gleaner/browser-playwright"
import { UndiciFetcher } from "@gleaner/fetch-undici"
import { SmtpMailer } from "@gleaner/mailer-smtp"
import { CronScheduler } from "@gleaner/scheduler-croner"
import { storeLayerFromUrl } from "@gleaner/store-sql"

export const ConfigLive = GleanerConfig.fromEnv

/** Logger format and level from GLEANER_LOG_FORMAT and GLEANER_LOG_LEVEL. */
export const LoggingLive = Layer.unwrapEffect(
  Effect.map(GleanerConfig, (config) =>
    Layer.merge(
      Logger.replace(Logger.defaultLogger, config.logFormat === "json" ? Logger.jsonLogger : Logger.prettyLoggerDefault),
      Logger.minimumLogLevel(config.logLevel)
    ))
)

export const StoreLive = Layer.unwrapEffect(Effect.map(GleanerConfig, (config) => storeLayerFromUrl(databaseUrlOf(config))))

/** Engine services over the configured store, without background work (admin commands). */
export const AdminLive = EngineLive.pipe(
  Layer.provideMerge(StoreLive),
  Layer.provideMerge(UndiciFetcher.layer),
  Layer.provideMerge(CronScheduler),
  Layer.provideMerge(LoggingLive),
  Layer.provideMerge(ConfigLive)
)

/** Chromium when the machine has one (GLEANER_CHROMIUM_PATH or the system's), else none. */
export const BrowserLive = PlaywrightBrowser.layerConfig()

/** The engine with a browser, without background work (`gleaner scrape`). */
export const ScrapeCommandLive = EngineLive.pipe(
  Layer.provideMerge(StoreLive),
  Layer.provideMerge(UndiciFetcher.layer),
  Layer.provideMerge(CronScheduler),
  Layer.provideMerge(BrowserLive),
  Layer.provideMerge(LoggingLive),
  Layer.provideMerge(ConfigLive)
)

/** Engine services plus job workers (serve, worker). */
export const ProcessLive = EngineWithWorkersLive.pipe(
  Layer.provideMerge(StoreLive),
  Layer.provideMerge(UndiciFetcher.layer),
  Layer.provideMerge(CronScheduler),
  Layer.provideMerge(BrowserLive),
  // a Chromium per browser session (POST /v2/browser), when the machine has one
  Layer.provideMerge(PlaywrightSessions.layerConfig()),
  Layer.provideMerge(BlobStores.fromConfig),
  // monitor e-mail through GLEANER_SMTP_URL, when set
  Layer.provideMerge(SmtpMailer.fromConfig),
  Layer.provideMerge(LoggingLive),
  Layer.provideMerge(ConfigLive)
)
