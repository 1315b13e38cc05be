/**
 * The engine's account, billing and queue services over a real store: the rules a user meets
 * before any capability runs. Keys are shown once and only their hashes kept; a revoked key stops
 * working; another team's job is not found; credits run out with a 402; a retried debit is
 * charged once; the usage report is derived from the ledger.
 */
import { assert, describe, layer } from "@effect/vitest"
import {
  Accounts,
  Billing,
  bootstrap,
  EngineLive,
  GleanerConfig,
  hashApiKey,
  JobQueue,
  messages,
  Usage
} from "@gleaner/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { UndiciFetcher } from "@gleaner/fetch-undici"
import { CronScheduler } from "@gleaner/scheduler-croner"
import { SqliteStore } from "../src/index.js"

const engine = EngineLive.pipe(
  Layer.provideMerge(SqliteStore.layer({ filename: ":memory:" })),
  Layer.provideMerge(UndiciFetcher.layer),
  Layer.provideMerge(CronScheduler),
  Layer.provideMerge(GleanerConfig.layer())
)

describe("engine services on SQLite", () => {
  layer(engine)("accounts", (it) => {
    it.effect("bootstrap makes the default team and a key once; a pinned key is imported instead", () =>
      Effect.gen(function*() {
        const first = yield* bootstrap({ apiKey: Option.none(), defaultPlan: "selfhost" })
        assert.strictEqual(first.team.name, "default")
        const key = Option.getOrThrow(first.newKey)
        const again = yield* bootstrap({ apiKey: Option.none(), defaultPlan: "selfhost" })
        assert.isTrue(Option.isNone(again.newKey))
        assert.strictEqual(again.team.id, first.team.id)
        const accounts = yield* Accounts
        assert.strictEqual((yield* accounts.authenticate(key)).team.id, first.team.id)

        const pinned = "fc-00112233445566778899aabbccddeeff"
        yield* bootstrap({ apiKey: Option.some(Redacted.make(pinned)), defaultPlan: "selfhost" })
        yield* bootstrap({ apiKey: Option.some(Redacted.make(pinned)), defaultPlan: "selfhost" })
        assert.strictEqual((yield* accounts.authenticate(pinned)).team.id, first.team.id)
        assert.strictEqual((yield* accounts.listKeys(first.team.id)).length, 2)
      }))

    it.effect("keys are stored as hashes, listed by prefix and stop working when revoked", () =>
      Effect.gen(function*() {
        const accounts = yield* Accounts
        const team = yield* accounts.createTeam("keys", "free")
        const { key, record } = yield* accounts.createKey(team.id, "ci")
        assert.strictEqual(record.displayPrefix, `${key.slice(0, 9)}…`)
        assert.notInclude(JSON.stringify(yield* accounts.listKeys(team.id)), key.slice(9))
        assert.strictEqual((yield* accounts.authenticate(key)).apiKeyId, record.id)
        yield* accounts.revokeKey(record.id)
        const refused = yield* Effect.flip(accounts.authenticate(key))
        assert.deepStrictEqual([refused._tag, refused.message], ["UnauthorizedError", messages.invalidToken])
        assert.strictEqual((yield* Effect.flip(accounts.authenticate(""))).message, messages.tokenMissing)
        assert.strictEqual((yield* Effect.flip(accounts.authenticate("fc-nothex"))).message, messages.invalidToken)
        assert.strictEqual((yield* Effect.flip(accounts.revokeKey(record.id)))._tag, "NotFoundError")
        assert.match(hashApiKey(key), /^[0-9a-f]{64}$/)
      }))

    it.effect("team names are unique and plans must exist", () =>
      Effect.gen(function*() {
        const accounts = yield* Accounts
        yield* accounts.createTeam("unique", "free")
        assert.strictEqual((yield* Effect.flip(accounts.createTeam("unique", "free")))._tag, "ConflictError")
        const unknownPlan = yield* Effect.flip(accounts.createTeam("other", "platinum"))
        assert.deepStrictEqual([unknownPlan._tag, unknownPlan.message.includes("free, hobby")], ["BadRequestError", true])
        const moved = yield* accounts.setPlan((yield* accounts.findTeam("unique")).id, "hobby")
        assert.deepStrictEqual([moved.plan, moved.maxConcurrency], ["hobby", 5])
      }))
  })

  layer(engine)("billing", (it) => {
    it.effect("credits come from the ledger; running out is a 402; a retried debit counts once", () =>
      Effect.gen(function*() {
        const accounts = yield* Accounts
        const billing = yield* Billing
        const team = yield* accounts.createTeam("billing", "free")
        const { record } = yield* accounts.createKey(team.id)
        yield* billing.debit({ teamId: team.id, apiKeyId: record.id, operation: "scrape", jobId: "job-1", credits: 300, idempotencyKey: "job-1:a" })
        assert.isFalse(yield* billing.debit({ teamId: team.id, operation: "scrape", jobId: "job-1", credits: 300, idempotencyKey: "job-1:a" }))
        yield* billing.debit({ teamId: team.id, operation: "map", credits: 150 })
        const balance = yield* billing.balance(team.id)
        assert.deepStrictEqual([balance.planCredits, balance.usedCredits, balance.remainingCredits], [500, 450, 50])
        yield* billing.ensure(team.id, 50)
        const refused = yield* Effect.flip(billing.ensure(team.id, 51))
        assert.deepStrictEqual([refused._tag, refused.message], ["InsufficientCreditsError", messages.insufficientCredits])

        const usage = yield* Usage
        assert.deepStrictEqual((yield* usage.tokens(team)).remainingTokens, 750)
        const byKey = yield* usage.creditHistory(team, true)
        assert.deepStrictEqual(byKey.periods.map((p) => [p.apiKey, p.creditsUsed]).sort(), [["(no key)", 150], [record.displayPrefix, 300]])
        assert.deepStrictEqual((yield* usage.tokenHistory(team, false)).periods.map((p) => p.tokensUsed), [450 * 15])
      }))
  })

  layer(engine)("job queue", (it) => {
    it.effect("another team's job is not found; a job id that is not a UUID is a 400", () =>
      Effect.gen(function*() {
        const accounts = yield* Accounts
        const queue = yield* JobQueue
        const mine = yield* accounts.createTeam("mine", "free")
        const theirs = yield* accounts.createTeam("theirs", "free")
        const job = yield* queue.enqueue({ team: theirs, kind: "crawl", payload: { url: "https://example.com" } })
        assert.strictEqual((yield* queue.get(theirs.id, job.id)).id, job.id)
        const hidden = yield* Effect.flip(queue.get(mine.id, job.id))
        assert.deepStrictEqual([hidden._tag, hidden.message], ["NotFoundError", messages.jobNotFound])
        assert.strictEqual((yield* Effect.flip(queue.cancel(mine.id, job.id)))._tag, "NotFoundError")
        const malformed = yield* Effect.flip(queue.get(mine.id, "not-a-uuid"))
        assert.deepStrictEqual([malformed._tag, malformed.message], ["BadRequestError", messages.invalidJobId])
        assert.strictEqual((yield* queue.cancel(theirs.id, job.id)).status, "cancelled")
        assert.strictEqual((yield* queue.status(theirs)).queued, 0)
      }))
  })
})

