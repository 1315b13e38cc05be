/**
 * The team endpoints, authentication, unknown routes, CORS and the API description, driven over
 * a real socket against a real (in-memory SQLite) store.
 */
import { assert, describe, layer } from "@effect/vitest"
import {
  Accounts,
  Billing,
  ConcurrencyCheckResponse,
  CreditUsageHistoricalResponse,
  CreditUsageResponse,
  HealthResponse,
  JobQueue,
  messages,
  periodOf,
  QueueStatusResponse,
  TokenUsageHistoricalResponse,
  TokenUsageResponse
} from "@gleaner/core"
import { packageVersion } from "@gleaner/http"
import { Effect, Layer, Schema } from "effect"
import { appLayer, BootstrapKey, bootstrapKey, baseUrl, call, envelope } from "./support.js"

/** The default team on plan `free` (500 credits, concurrency 2) has used 7 credits and has one queued job. */
const Fixture = Layer.effectDiscard(Effect.gen(function*() {
  const { keyId, teamId } = yield* BootstrapKey
  yield* (yield* Billing).debit({ teamId, apiKeyId: keyId, operation: "scrape", credits: 7 })
  const team = yield* (yield* Accounts).findTeam(teamId)
  yield* (yield* JobQueue).enqueue({ team, kind: "test", payload: {} })
}))

const Env = Fixture.pipe(Layer.provideMerge(bootstrapKey), Layer.provideMerge(appLayer({ defaultPlan: "free" })))

const period = () => {
  const p = periodOf(Date.now())
  return { start: new Date(p.start).toISOString(), end: new Date(p.end).toISOString() }
}

const decode = <A, I>(schema: Schema.Schema<A, I>, body: unknown) => Schema.decodeUnknownSync(schema)(body)

layer(Env, { excludeTestServices: true })("team endpoints", (it) => {
  it.effect("GET / answers the health document", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/")
      assert.strictEqual(reply.status, 200)
      const health = decode(HealthResponse, reply.body)
      assert.strictEqual(health.version, packageVersion)
      assert.strictEqual(health.documentation_url, `${yield* baseUrl}/v2/docs`)
    }))

  it.effect("credit usage is the plan minus the ledger", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const reply = yield* call("GET", "/v2/team/credit-usage", { key })
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(decode(CreditUsageResponse, reply.body), {
        success: true,
        data: { remainingCredits: 493, planCredits: 500, billingPeriodStart: period().start, billingPeriodEnd: period().end }
      })
    }))

  it.effect("token usage is credit usage × 15", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const reply = yield* call("GET", "/v2/team/token-usage", { key })
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(decode(TokenUsageResponse, reply.body), {
        success: true,
        data: { remainingTokens: 493 * 15, planTokens: 500 * 15, billingPeriodStart: period().start, billingPeriodEnd: period().end }
      })
    }))

  it.effect("historical usage per period, and per API key when asked", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const { end, start } = period()
      const credits = yield* call("GET", "/v2/team/credit-usage/historical", { key })
      assert.deepStrictEqual(decode(CreditUsageHistoricalResponse, credits.body), {
        success: true,
        periods: [{ startDate: start, endDate: end, creditsUsed: 7 }]
      })
      const byKey = yield* call("GET", "/v2/team/credit-usage/historical?byApiKey=true", { key })
      assert.deepStrictEqual(decode(CreditUsageHistoricalResponse, byKey.body), {
        success: true,
        periods: [{ startDate: start, endDate: end, apiKey: `${key.slice(0, 9)}…`, creditsUsed: 7 }]
      })
      const tokens = yield* call("GET", "/v2/team/token-usage/historical?byApiKey=true", { key })
      assert.deepStrictEqual(decode(TokenUsageHistoricalResponse, tokens.body), {
        success: true,
        periods: [{ startDate: start, endDate: end, apiKey: `${key.slice(0, 9)}…`, tokensUsed: 105 }]
      })
    }))

  it.effect("a byApiKey that is not a boolean is a 400", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v2/team/token-usage/historical?byApiKey=maybe", { key: (yield* BootstrapKey).key })
      assert.strictEqual(reply.status, 400)
      const body = envelope(reply)
      assert.strictEqual(body.code, "BAD_REQUEST")
      assert.strictEqual(body.error, "Bad Request")
    }))

  it.effect("queue status and concurrency come from the job queue and the plan", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const queue = yield* call("GET", "/v2/team/queue-status", { key })
      assert.deepStrictEqual(decode(QueueStatusResponse, queue.body), {
        success: true,
        jobsInQueue: 1,
        activeJobsInQueue: 0,
        waitingJobsInQueue: 1,
        maxConcurrency: 2,
        mostRecentSuccess: null
      })
      const concurrency = yield* call("GET", "/v2/concurrency-check", { key })
      assert.deepStrictEqual(decode(ConcurrencyCheckResponse, concurrency.body), {
        success: true,
        concurrency: 0,
        maxConcurrency: 2
      })
    }))

  it.effect("successful responses carry the bucket's rate-limit state", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const first = yield* call("GET", "/v2/team/queue-status", { key })
      const second = yield* call("GET", "/v2/team/queue-status", { key })
      assert.strictEqual(first.headers["x-ratelimit-limit"], "1000")
      assert.strictEqual(Number(second.headers["x-ratelimit-remaining"]), Number(first.headers["x-ratelimit-remaining"]) - 1)
      const reset = Number(first.headers["x-ratelimit-reset"])
      assert.isTrue(reset * 1000 > Date.now() && reset * 1000 <= Date.now() + 60_000)
      // concurrency-check counts against crawlStatus (1500 a minute on free)
      const status = yield* call("GET", "/v2/concurrency-check", { key })
      assert.strictEqual(status.headers["x-ratelimit-limit"], "1500")
    }))

  it.effect("a missing key is 401 Token missing", () =>
    Effect.gen(function*() {
      for (const headers of [{}, { authorization: "Bearer " }]) {
        const reply = yield* call("GET", "/v2/team/credit-usage", { headers })
        assert.strictEqual(reply.status, 401)
        assert.deepStrictEqual(reply.body, { success: false, code: "UNAUTHORIZED", error: messages.tokenMissing })
      }
    }))

  it.effect("a wrong key, or another scheme, is 401 Invalid token", () =>
    Effect.gen(function*() {
      for (const authorization of ["Bearer fc-00000000000000000000000000000000", "Bearer nope", `Basic ${btoa("a:b")}`]) {
        const reply = yield* call("GET", "/v2/team/token-usage", { headers: { authorization } })
        assert.strictEqual(reply.status, 401)
        assert.strictEqual(envelope(reply).error, messages.invalidToken)
      }
    }))

  it.effect("unknown routes and methods answer a JSON 404 envelope", () =>
    Effect.gen(function*() {
      for (const [method, path] of [["GET", "/v2/nothing-here"], ["DELETE", "/v2/team/token-usage"], ["GET", "/v1/scrape"]] as const) {
        const reply = yield* call(method, path)
        assert.strictEqual(reply.status, 404)
        assert.deepStrictEqual(reply.body, { success: false, code: "NOT_FOUND", error: "Not found" })
      }
    }))

  it.effect("CORS is open, preflight included", () =>
    Effect.gen(function*() {
      const preflight = yield* call("OPTIONS", "/v2/team/token-usage", {
        headers: { origin: "https://example.com", "access-control-request-method": "GET", "access-control-request-headers": "authorization" }
      })
      assert.strictEqual(preflight.status, 204)
      assert.strictEqual(preflight.headers["access-control-allow-origin"], "*")
      const reply = yield* call("GET", "/v2/team/token-usage", { key: (yield* BootstrapKey).key, headers: { origin: "https://example.com" } })
      assert.strictEqual(reply.headers["access-control-allow-origin"], "*")
      assert.include(reply.headers["access-control-expose-headers"] ?? "", "X-RateLimit-Remaining")
    }))

  it.effect("/v2/openapi.json describes the API with the envelope as its errors", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v2/openapi.json")
      assert.strictEqual(reply.status, 200)
      const spec = decode(
        Schema.Struct({
          info: Schema.Struct({ title: Schema.String, version: Schema.String }),
          paths: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
          components: Schema.Struct({ securitySchemes: Schema.Record({ key: Schema.String, value: Schema.Unknown }) })
        }),
        reply.body
      )
      assert.strictEqual(spec.info.title, "Gleaner (Firecrawl v2 compatible)")
      assert.strictEqual(spec.info.version, packageVersion)
      for (const path of [
        "/",
        "/v2/team/credit-usage",
        "/v2/team/credit-usage/historical",
        "/v2/team/token-usage",
        "/v2/team/token-usage/historical",
        "/v2/team/queue-status",
        "/v2/concurrency-check"
      ]) assert.property(spec.paths, path)
      assert.property(spec.components.securitySchemes, "bearer")
      assert.notInclude(reply.text, "HttpApiDecodeError")
      const tokenUsage = decode(
        Schema.Struct({ get: Schema.Struct({ responses: Schema.Record({ key: Schema.String, value: Schema.Unknown }) }) }),
        spec.paths["/v2/team/token-usage"]
      )
      assert.includeMembers(Object.keys(tokenUsage.get.responses), ["200", "400", "401", "404", "429", "500"])
      assert.include(JSON.stringify(tokenUsage.get.responses["401"]), "#/components/schemas/UnauthorizedError")
      const envelopes = decode(
        Schema.Struct({
          components: Schema.Struct({
            schemas: Schema.Struct({
              UnauthorizedError: Schema.Struct({
                required: Schema.Array(Schema.String),
                properties: Schema.Struct({ code: Schema.Struct({ enum: Schema.Array(Schema.String) }) })
              })
            })
          })
        }),
        reply.body
      )
      const unauthorized = envelopes.components.schemas.UnauthorizedError
      assert.deepStrictEqual(unauthorized.required, ["success", "error", "code"])
      assert.deepStrictEqual(unauthorized.properties.code.enum, ["UNAUTHORIZED"])
    }))

  it.effect("/v2/docs is a browsable page", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v2/docs")
      assert.strictEqual(reply.status, 200)
      assert.include(reply.headers["content-type"] ?? "", "text/html")
      assert.include(reply.text, "Gleaner (Firecrawl v2 compatible)")
    }))
})

describe("auth off", () => {
  const Off = bootstrapKey.pipe(Layer.provideMerge(appLayer({ auth: "off", defaultPlan: "hobby" })))

  layer(Off, { excludeTestServices: true })("GLEANER_AUTH=off", (it) => {
    it.effect("every request acts for the default team, without a key", () =>
      Effect.gen(function*() {
        const reply = yield* call("GET", "/v2/team/credit-usage")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(decode(CreditUsageResponse, reply.body).data.planCredits, 3_000)
        const withJunk = yield* call("GET", "/v2/concurrency-check", { headers: { authorization: "Bearer whatever" } })
        assert.strictEqual(withJunk.status, 200)
        assert.strictEqual(decode(ConcurrencyCheckResponse, withJunk.body).maxConcurrency, 5)
      }))
  })
})
