/**
 * The usage endpoints when the store misbehaves: a team that vanished after authentication is
 * upstream's 404, a broken database is upstream's 500 with an error id that is in the logs.
 */
import { UndiciFetcher } from "@gleaner/fetch-undici"
import { CronScheduler } from "@gleaner/scheduler-croner"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { EngineLive, GleanerConfig, messages, Store } from "@gleaner/core"
import { HttpAppLive } from "@gleaner/http"
import { SqliteStore } from "@gleaner/store-sql"
import { Effect, HashMap, Layer, Logger, Option, Schema } from "effect"
import { BootstrapKey, bootstrapKey, call, envelope, QuietLogs } from "./support.js"

/** The real store, with `teams.get` finding nothing and `ledger.periodTotal` dying for team reads. */
const BrokenStore = Layer.effect(
  Store,
  Effect.map(Store, (store) => ({
    ...store,
    teams: { ...store.teams, get: () => Effect.succeed(Option.none()) }
  }))
).pipe(Layer.provide(SqliteStore.layer({ filename: ":memory:" })))

const DyingStore = Layer.effect(
  Store,
  Effect.map(Store, (store) => ({
    ...store,
    ledger: { ...store.ledger, periodTotal: () => Effect.die(new Error("the ledger table is gone")) }
  }))
).pipe(Layer.provide(SqliteStore.layer({ filename: ":memory:" })))

const errorIds: Array<unknown> = []
const CaptureErrorIds = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, logLevel }) => {
    if (logLevel._tag === "Error") errorIds.push(Option.getOrUndefined(HashMap.get(annotations, "errorId")))
  })
)

const serverOn = <E>(store: Layer.Layer<Store, E>) =>
  bootstrapKey.pipe(
    Layer.provideMerge(HttpAppLive),
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provideMerge(EngineLive),
    Layer.provideMerge(store),
    Layer.provideMerge(UndiciFetcher.layer),
    Layer.provideMerge(CronScheduler),
    Layer.provideMerge(GleanerConfig.layer({ defaultPlan: "free" })),
    Layer.provide(CaptureErrorIds),
    Layer.provide(QuietLogs)
  )

layer(serverOn(BrokenStore), { excludeTestServices: true })("a team that vanished", (it) => {
  it.effect("token usage is 404 Could not find token usage information", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const tokens = yield* call("GET", "/v2/team/token-usage", { key })
      assert.strictEqual(tokens.status, 404)
      assert.deepStrictEqual(tokens.body, { success: false, code: "NOT_FOUND", error: messages.tokenUsageNotFound })
      const credits = yield* call("GET", "/v2/team/credit-usage", { key })
      assert.strictEqual(credits.status, 404)
      assert.strictEqual(envelope(credits).error, messages.creditUsageNotFound)
    }))
})

layer(serverOn(DyingStore), { excludeTestServices: true })("a broken database", (it) => {
  it.effect("token usage is 500 Internal server error while fetching token usage, with a logged error id", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const reply = yield* call("GET", "/v2/team/token-usage", { key })
      assert.strictEqual(reply.status, 500)
      const body = envelope(reply)
      assert.strictEqual(body.code, "UNKNOWN_ERROR")
      assert.strictEqual(body.error, messages.tokenUsageFailed)
      const { errorId } = Schema.decodeUnknownSync(Schema.Struct({ errorId: Schema.String }))(body.details)
      assert.include(errorIds, errorId)
    }))
})
