/**
 * The official Firecrawl JS SDK, unchanged, against Gleaner: the account calls return what the
 * ledger, the plan and the queue say, and errors come back as the SDK's own SdkError.
 */
import { assert, layer } from "@effect/vitest"
import Firecrawl, { SdkError } from "@mendable/firecrawl-js"
import { Billing, messages, periodOf } from "@gleaner/core"
import { Effect, Layer } from "effect"
import { appLayer, BootstrapKey, bootstrapKey, baseUrl } from "./support.js"

const Fixture = Layer.effectDiscard(Effect.gen(function*() {
  const { keyId, teamId } = yield* BootstrapKey
  yield* (yield* Billing).debit({ teamId, apiKeyId: keyId, operation: "scrape", credits: 7 })
}))

const Env = Fixture.pipe(Layer.provideMerge(bootstrapKey), Layer.provideMerge(appLayer({ defaultPlan: "hobby" })))

const sdk = (apiKey: string) => Effect.map(baseUrl, (apiUrl) => new Firecrawl({ apiKey, apiUrl }))

layer(Env, { excludeTestServices: true })("official SDK", (it) => {
  it.effect("getCreditUsage, getTokenUsage, getConcurrency, getQueueStatus", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk((yield* BootstrapKey).key)
      const period = periodOf(Date.now())
      const billingPeriodStart = new Date(period.start).toISOString()
      const billingPeriodEnd = new Date(period.end).toISOString()

      const credits = yield* Effect.promise(() => firecrawl.getCreditUsage())
      assert.deepStrictEqual(credits, { remainingCredits: 2_993, planCredits: 3_000, billingPeriodStart, billingPeriodEnd })

      const tokens = yield* Effect.promise(() => firecrawl.getTokenUsage())
      assert.deepStrictEqual(tokens, { remainingTokens: 2_993 * 15, planTokens: 45_000, billingPeriodStart, billingPeriodEnd })

      const concurrency = yield* Effect.promise(() => firecrawl.getConcurrency())
      assert.deepStrictEqual(concurrency, { concurrency: 0, maxConcurrency: 5 })

      const queue = yield* Effect.promise(() => firecrawl.getQueueStatus())
      assert.deepStrictEqual(queue, {
        success: true,
        jobsInQueue: 0,
        activeJobsInQueue: 0,
        waitingJobsInQueue: 0,
        maxConcurrency: 5,
        mostRecentSuccess: null
      })

      const history = yield* Effect.promise(() => firecrawl.getTokenUsageHistorical(true))
      assert.strictEqual(history.success, true)
      assert.deepStrictEqual(history.periods.map((p) => p.tokensUsed), [105])
    }))

  it.effect("a wrong key is the SDK's SdkError with status 401 and upstream's message", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk("fc-0123456789abcdef0123456789abcdef")
      const error = yield* Effect.flip(Effect.tryPromise(() => firecrawl.getCreditUsage()))
      assert.instanceOf(error.error, SdkError)
      if (!(error.error instanceof SdkError)) return
      assert.strictEqual(error.error.status, 401)
      assert.strictEqual(error.error.message, messages.invalidToken)
      assert.strictEqual(error.error.code, "UNAUTHORIZED")
    }))
})
