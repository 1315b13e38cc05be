/**
 * Test harness: Gleaner's HTTP app on a random port (NodeHttpServer.layerTest) over a fresh
 * in-memory SQLite store, bootstrapped with the default team and a key, plus a raw request helper
 * that returns status, headers and the decoded JSON body.
 */
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import type { HttpBody } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import {
  Accounts,
  bootstrap,
  EngineLive,
  EngineWithWorkersLive,
  ErrorEnvelope,
  GleanerConfig,
  type GleanerSettings
} from "@gleaner/core"
import { HttpAppLive } from "@gleaner/http"
import { UndiciFetcher } from "@gleaner/fetch-undici"
import { CronScheduler } from "@gleaner/scheduler-croner"
import { SqliteStore } from "@gleaner/store-sql"
import { Context, Effect, Layer, Logger, LogLevel, Option, Schema } from "effect"

/** The engine on a fresh in-memory database, with the given settings. */
export const engineLayer = (settings: Partial<GleanerSettings> = {}) =>
  EngineLive.pipe(
    Layer.provideMerge(SqliteStore.layer({ filename: ":memory:" })),
    Layer.provideMerge(UndiciFetcher.layer),
    Layer.provideMerge(CronScheduler),
    Layer.provideMerge(GleanerConfig.layer(settings))
  )

/** The engine with job workers (crawls, batch scrapes) on a fresh in-memory database. */
export const engineWithWorkersLayer = (settings: Partial<GleanerSettings> = {}) =>
  EngineWithWorkersLive.pipe(
    Layer.provideMerge(SqliteStore.layer({ filename: ":memory:" })),
    Layer.provideMerge(UndiciFetcher.layer),
    Layer.provideMerge(CronScheduler),
    Layer.provideMerge(GleanerConfig.layer({ pollMs: 50, ...settings }))
  )

/** Gleaner's HTTP app with job workers, on a random port. */
export const appWithWorkersLayer = (settings: Partial<GleanerSettings> = {}) =>
  HttpAppLive.pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provideMerge(engineWithWorkersLayer(settings)),
    Layer.provide(QuietLogs)
  )

/** Warnings and errors only: the request log of every test request is noise. */
export const QuietLogs = Logger.minimumLogLevel(LogLevel.Warning)

/** Gleaner's HTTP app on a random port; the layerTest HttpClient targets it. */
export const appLayer = (settings: Partial<GleanerSettings> = {}) =>
  HttpAppLive.pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provideMerge(engineLayer(settings)),
    Layer.provide(QuietLogs)
  )

/** The bootstrap team's key (the default team's plan is `GLEANER_DEFAULT_PLAN`). */
export class BootstrapKey extends Context.Tag("test/BootstrapKey")<BootstrapKey, {
  readonly key: string
  readonly teamId: string
  readonly keyId: string
}>() {}

export const bootstrapKey = Layer.effect(
  BootstrapKey,
  Effect.gen(function*() {
    const config = yield* GleanerConfig
    const { newKey, team } = yield* bootstrap({ apiKey: Option.none(), defaultPlan: config.defaultPlan })
    const key = Option.getOrThrow(newKey)
    const [record] = yield* (yield* Accounts).listKeys(team.id)
    if (record === undefined) return yield* Effect.dieMessage("bootstrap made no key")
    return { key, teamId: team.id, keyId: record.id }
  })
)

/** `http://127.0.0.1:<port>` of the test server. */
export const baseUrl = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}` : "http://invalid")

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body, or the text when it is not JSON. */
  readonly body: unknown
  readonly text: string
}

export interface CallOptions {
  readonly key?: string
  readonly headers?: Record<string, string>
  /** A value sent as JSON. */
  readonly json?: unknown
  /** Raw text sent as application/json (e.g. malformed JSON). */
  readonly text?: string
  /** Any other body (streams: chunked transfer). */
  readonly body?: HttpBody.HttpBody
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Sends a request and never fails on a status: the test looks at what a user would see. */
export const call = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", path: string, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(path).pipe(
      HttpClientRequest.setHeaders({
        ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
        ...options.headers
      })
    )
    if (options.json !== undefined) request = yield* HttpClientRequest.bodyJson(request, options.json)
    if (options.text !== undefined) request = HttpClientRequest.bodyText(request, options.text, "application/json")
    if (options.body !== undefined) request = HttpClientRequest.setBody(request, options.body)
    const response = yield* client.execute(request)
    const text = yield* response.text
    return { status: response.status, headers: response.headers, body: parse(text), text } satisfies Reply
  }).pipe(Effect.scoped, Effect.orDie)

/** The body decoded as the error envelope (fails the test when it is not one). */
export const envelope = (reply: Reply) => Schema.decodeUnknownSync(ErrorEnvelope)(reply.body)
