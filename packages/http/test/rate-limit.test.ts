/**
 * Per-minute limits through the real path: the operator's plans file (GLEANER_PLANS_FILE) adds a
 * plan allowing 5 account requests a minute; a team on it sends 5 requests and the 6th is refused.
 * The server runs on the TestClock, which does not move, so the one-minute window cannot roll
 * over mid-test and the reset time is exact.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, it } from "@effect/vitest"
import { Accounts, messages } from "@gleaner/core"
import { Effect, Layer, Option, TestClock } from "effect"
import { appLayer, baseUrl, call, envelope } from "./support.js"

const plansFile = join(mkdtempSync(join(tmpdir(), "gleaner-plans-")), "plans.json")
writeFileSync(plansFile, JSON.stringify([{ name: "tiny", base: "free", creditsPerPeriod: 50, concurrency: 1, rateLimits: { account: 5 } }]))

const START = Date.parse("2026-03-10T12:00:20.000Z")

it.scoped("the request past the bucket's limit is a 429 with Retry-After and X-RateLimit-*", () =>
  Effect.gen(function*() {
    yield* TestClock.setTime(START)
    const accounts = yield* Accounts
    const team = yield* accounts.createTeam("tiny-team", "tiny")
    const { key } = yield* accounts.createKey(team.id)

    const url = `${yield* baseUrl}/v2/team/credit-usage`
    const replies = yield* Effect.forEach(
      Array.from({ length: 5 }),
      () =>
        Effect.promise(async () => {
          const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } })
          await response.arrayBuffer()
          return { status: response.status, remaining: Number(response.headers.get("x-ratelimit-remaining")) }
        }),
      { concurrency: 5 }
    )
    assert.isTrue(replies.every((r) => r.status === 200))
    const remaining = replies.map((r) => r.remaining).sort((a, b) => a - b)
    assert.deepStrictEqual(remaining, [0, 1, 2, 3, 4])

    const refused = yield* call("GET", "/v2/team/token-usage", { key })
    assert.strictEqual(refused.status, 429)
    const body = envelope(refused)
    assert.strictEqual(body.code, "RATE_LIMIT_EXCEEDED")
    assert.match(body.error, /^Rate limit exceeded\. Consumed \(req\/min\): 6, Remaining \(req\/min\): 0\. .* retry after 40s/)
    const resetSeconds = Math.ceil((START + 40_000) / 1000)
    assert.deepInclude(refused.headers, {
      "retry-after": "40",
      "x-ratelimit-limit": "5",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(resetSeconds)
    })

    // other buckets are counted apart
    assert.strictEqual((yield* call("GET", "/v2/concurrency-check", { key })).status, 200)
    // and other teams are not affected
    const other = yield* accounts.createKey((yield* accounts.createTeam("other", "tiny")).id)
    assert.strictEqual((yield* call("GET", "/v2/team/credit-usage", { key: other.key })).status, 200)
    // a missing key is still a 401, not a 429
    assert.strictEqual(envelope(yield* call("GET", "/v2/team/credit-usage")).error, messages.tokenMissing)
  }).pipe(Effect.provide(Layer.fresh(appLayer({ plansFile: Option.some(plansFile) })))))
