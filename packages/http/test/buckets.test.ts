/**
 * Rate-limit buckets are declared per endpoint and looked up in one table; an authenticated
 * endpoint without a bucket is a startup error, not a silently unlimited route.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Authentication, authenticationLayer, endpointBuckets, GleanerApi, RateBucket } from "@gleaner/http"
import { Cause, Effect, Exit, Layer, Schema } from "effect"
import { engineLayer } from "./support.js"

class Forgetful extends HttpApi.make("forgetful").add(
  HttpApiGroup.make("g")
    .add(HttpApiEndpoint.get("declared", "/declared").addSuccess(Schema.String).annotate(RateBucket, "scrape"))
    .add(HttpApiEndpoint.get("forgotten", "/forgotten").addSuccess(Schema.String))
    .middleware(Authentication)
    .prefix("/v2")
).add(HttpApiGroup.make("open").add(HttpApiEndpoint.get("health", "/").addSuccess(Schema.String))) {}

describe("rate-limit buckets", () => {
  it("every authenticated endpoint of the Gleaner API declares its bucket", () => {
    const { buckets, undeclared } = endpointBuckets(GleanerApi)
    assert.deepStrictEqual(undeclared, [])
    assert.deepStrictEqual(Object.fromEntries(buckets), {
      "GET /v2/team/credit-usage": "account",
      "GET /v2/team/credit-usage/historical": "account",
      "GET /v2/team/token-usage": "account",
      "GET /v2/team/token-usage/historical": "account",
      "GET /v2/team/queue-status": "account",
      "GET /v2/concurrency-check": "crawlStatus",
      "POST /v2/scrape": "scrape",
      "GET /v2/scrape/:jobId": "crawlStatus",
      "POST /v2/scrape/:jobId/interact": "browserExecute",
      "DELETE /v2/scrape/:jobId/interact": "browserExecute",
      "POST /v2/crawl": "crawl",
      "POST /v2/crawl/params-preview": "crawl",
      "GET /v2/crawl/active": "crawlStatus",
      "GET /v2/crawl/ongoing": "crawlStatus",
      "GET /v2/crawl/:jobId": "crawlStatus",
      "DELETE /v2/crawl/:jobId": "crawlStatus",
      "GET /v2/crawl/:jobId/errors": "crawlStatus",
      "POST /v2/map": "map",
      "POST /v2/batch/scrape": "scrape",
      "GET /v2/batch/scrape/:jobId": "crawlStatus",
      "DELETE /v2/batch/scrape/:jobId": "crawlStatus",
      "GET /v2/batch/scrape/:jobId/errors": "crawlStatus",
      "POST /v2/browser": "browser",
      "GET /v2/browser": "browserExecute",
      "POST /v2/browser/:sessionId/execute": "browserExecute",
      "DELETE /v2/browser/:sessionId": "browserExecute",
      "POST /v2/interact": "browser",
      "GET /v2/interact": "browserExecute",
      "POST /v2/interact/:sessionId/execute": "browserExecute",
      "DELETE /v2/interact/:sessionId": "browserExecute",
      "POST /v2/monitor": "crawl",
      "GET /v2/monitor": "crawlStatus",
      "GET /v2/monitor/:monitorId": "crawlStatus",
      "PATCH /v2/monitor/:monitorId": "crawl",
      "DELETE /v2/monitor/:monitorId": "crawlStatus",
      "POST /v2/monitor/:monitorId/run": "crawl",
      "GET /v2/monitor/:monitorId/checks": "crawlStatus",
      "GET /v2/monitor/:monitorId/checks/:checkId": "crawlStatus"
    })
  })

  it("unauthenticated endpoints need none; authenticated ones without one are reported", () => {
    const { buckets, undeclared } = endpointBuckets(Forgetful)
    assert.deepStrictEqual(Object.fromEntries(buckets), { "GET /v2/declared": "scrape" })
    assert.deepStrictEqual(undeclared, ["GET /v2/forgotten"])
  })

  it.effect("the authentication layer refuses to start with an undeclared bucket", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Layer.build(authenticationLayer(Forgetful)).pipe(Effect.scoped))
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) assert.include(Cause.pretty(exit.cause), "GET /v2/forgotten")
    }).pipe(Effect.provide(engineLayer())))
})
