/**
 * Layer composition: the API with its handlers, the global middleware, the docs, and the Node
 * HTTP server. Nothing here holds logic; it decides which layer needs which.
 *
 * Serving Gleaner (what `gleaner serve` does):
 *
 * ```ts
 * makeHttpServer().pipe(               // port and host from GleanerConfig
 *   Layer.provide(EngineLive),         // or EngineWithWorkersLive
 *   Layer.provide(storeLayerFromUrl(databaseUrlOf(settings))),
 *   Layer.provide(GleanerConfig.fromEnv),
 *   Layer.launch,
 *   NodeRuntime.runMain                // SIGTERM interrupts: the server closes with its scope
 * )
 * ```
 *
 * Tests serve the same app on a random port with `HttpAppLive` (or `serveApi` for an API of
 * their own) and `Layer.provideMerge(NodeHttpServer.layerTest)`.
 */
import { createServer } from "node:http"
import {
  HttpApiBuilder,
  HttpApiScalar,
  HttpMiddleware,
  HttpServer
} from "@effect/platform"
import type { HttpApi, HttpApiGroup, HttpApp, HttpRouter, HttpServerError } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { type EngineServices, GleanerConfig } from "@gleaner/core"
import { Effect, Layer } from "effect"
import { GleanerApi, V2 } from "./api.js"
import { authenticationLayer } from "./auth.js"
import { errorMiddleware, type ErrorMiddlewareOptions } from "./errors.js"
import { JobStreamsLive } from "./job-stream.js"
import { SessionProxyLive } from "./session-proxy.js"
import { FilesLive } from "./files.js"
import { HealthLive } from "./handlers/health.js"
import { BatchScrapeLive } from "./handlers/batch-scrape.js"
import { BrowserLive, InteractLive } from "./handlers/browser.js"
import { CrawlLive } from "./handlers/crawl.js"
import { MapLive } from "./handlers/map.js"
import { MonitorLive } from "./handlers/monitor.js"
import { ScrapeLive } from "./handlers/scrape.js"
import { TeamLive } from "./handlers/team.js"

/** Paths of the generated API description. Both need no key. */
export const docsPaths = { openApi: `${V2}/openapi.json`, docs: `${V2}/docs` } as const

/**
 * Around every request, outermost first: the request log, then open CORS (exposing the
 * rate-limit headers to browsers).
 */
export const requestMiddleware = (app: HttpApp.Default): HttpApp.Default =>
  HttpMiddleware.logger(HttpMiddleware.cors({
    exposedHeaders: ["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]
  })(app))

/** `GET /v2/openapi.json` and the browsable `GET /v2/docs` (Scalar, inlined: works offline). */
export const DocsLive: Layer.Layer<never, never, HttpApi.Api> = Layer.mergeAll(
  HttpApiBuilder.middlewareOpenApi({ path: docsPaths.openApi }),
  HttpApiScalar.layer({ path: docsPaths.docs })
)

/**
 * Serves any HttpApi the way Gleaner serves its own: envelope errors and body limit (errors.ts),
 * docs, CORS and request logs. `apiLayer` is `HttpApiBuilder.api(api)` with its groups provided.
 * Needs an `HttpServer` (and the platform services it comes with).
 */
export const serveApi = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R, LE, LR>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  apiLayer: Layer.Layer<HttpApi.Api, LE, LR>,
  options: ErrorMiddlewareOptions = {}
): Layer.Layer<never, LE, LR | HttpServer.HttpServer | HttpRouter.HttpRouter.DefaultServices> =>
  HttpApiBuilder.serve(requestMiddleware).pipe(
    Layer.provide([DocsLive, errorMiddleware(api, options)]),
    Layer.provide(apiLayer)
  )

/** Gleaner's API with every handler and the bearer-key middleware. */
export const HttpApiLive: Layer.Layer<HttpApi.Api, never, EngineServices | GleanerConfig> = HttpApiBuilder.api(
  GleanerApi
).pipe(
  Layer.provide([HealthLive, TeamLive, ScrapeLive, CrawlLive, MapLive, BatchScrapeLive, BrowserLive, InteractLive, MonitorLive]),
  Layer.provide(authenticationLayer(GleanerApi))
)

/**
 * Gleaner's API served on whatever `HttpServer` is provided (tests: `NodeHttpServer.layerTest`),
 * with the WebSocket status streams of crawls and batch scrapes on their status URLs
 * (job-stream.ts) and the files scrapes made (files.ts).
 */
export const HttpAppLive: Layer.Layer<
  never,
  never,
  EngineServices | GleanerConfig | HttpServer.HttpServer | HttpRouter.HttpRouter.DefaultServices
> = serveApi(GleanerApi, HttpApiLive).pipe(Layer.provide(JobStreamsLive()), Layer.provide(FilesLive), Layer.provide(SessionProxyLive))

export interface HttpServerOptions {
  /** TCP port; default `GleanerConfig.port` (PORT, 3002). 0 picks a free port. */
  readonly port?: number
  /** Interface to bind; default `GleanerConfig.host` (HOST, 0.0.0.0). */
  readonly host?: string
}

/**
 * Gleaner's API on a Node HTTP server, listening for as long as the layer lives and logging its
 * address. Needs the engine services and GleanerConfig; fails with `ServeError` when it cannot
 * listen.
 */
export const makeHttpServer = (
  options: HttpServerOptions = {}
): Layer.Layer<never, HttpServerError.ServeError, EngineServices | GleanerConfig> => {
  const nodeServer = Layer.unwrapEffect(
    Effect.map(GleanerConfig, (config) =>
      NodeHttpServer.layer(createServer, { port: options.port ?? config.port, host: options.host ?? config.host }))
  )
  return HttpAppLive.pipe(HttpServer.withLogAddress, Layer.provide(nodeServer))
}

/** `makeHttpServer()` with port and host from GleanerConfig. */
export const HttpServerLive = makeHttpServer()
