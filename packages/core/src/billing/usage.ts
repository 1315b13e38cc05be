/**
 * Usage reports in the shapes of the team endpoints (API.md §3.13), shared by the HTTP adapter
 * and the in-process client so both answer exactly the same.
 */
import { Effect } from "effect"
import type { Schema } from "effect"
import { JobQueue } from "../jobs/job-queue.js"
import { Store, type Team } from "../ports/store.js"
import type {
  ConcurrencyCheckResponse,
  CreditUsage,
  CreditUsageHistoricalResponse,
  QueueStatusResponse,
  TokenUsage,
  TokenUsageHistoricalResponse
} from "../schema/team.js"
import { Billing } from "./billing.js"
import { creditsToTokens } from "./credits.js"
import { TeamConcurrency } from "./team-concurrency.js"

const iso = (ms: number) => new Date(ms).toISOString()

export class Usage extends Effect.Service<Usage>()("@gleaner/core/Usage", {
  effect: Effect.gen(function*() {
    const billing = yield* Billing
    const queue = yield* JobQueue
    const store = yield* Store
    const teamConcurrency = yield* TeamConcurrency

    const credits = Effect.fn("Usage.credits")(function*(team: Team) {
      const b = yield* billing.balance(team.id)
      return {
        remainingCredits: b.remainingCredits,
        planCredits: b.planCredits,
        billingPeriodStart: iso(b.periodStart),
        billingPeriodEnd: iso(b.periodEnd)
      } satisfies typeof CreditUsage.Type
    })

    const tokens = Effect.fn("Usage.tokens")(function*(team: Team) {
      const c = yield* credits(team)
      return {
        remainingTokens: creditsToTokens(c.remainingCredits),
        planTokens: creditsToTokens(c.planCredits),
        billingPeriodStart: c.billingPeriodStart,
        billingPeriodEnd: c.billingPeriodEnd
      } satisfies typeof TokenUsage.Type
    })

    const periods = Effect.fn("Usage.periods")(function*(team: Team, byApiKey: boolean) {
      const rows = yield* billing.history(team.id, byApiKey)
      const keys = byApiKey ? new Map((yield* store.apiKeys.list(team.id)).map((k) => [k.id, k.displayPrefix])) : undefined
      return rows.map((r) => ({
        startDate: r.startDate,
        endDate: r.endDate,
        credits: r.creditsUsed,
        ...(keys === undefined ? {} : { apiKey: r.apiKeyId === null ? "(no key)" : keys.get(r.apiKeyId) ?? r.apiKeyId })
      }))
    })

    const creditHistory = (team: Team, byApiKey: boolean) =>
      Effect.map(periods(team, byApiKey), (ps): Schema.Schema.Type<typeof CreditUsageHistoricalResponse> => ({
        success: true,
        periods: ps.map(({ credits: used, ...p }) => ({ ...p, creditsUsed: used }))
      }))

    const tokenHistory = (team: Team, byApiKey: boolean) =>
      Effect.map(periods(team, byApiKey), (ps): Schema.Schema.Type<typeof TokenUsageHistoricalResponse> => ({
        success: true,
        periods: ps.map(({ credits: used, ...p }) => ({ ...p, tokensUsed: creditsToTokens(used) }))
      }))

    const queueStatus = Effect.fn("Usage.queueStatus")(function*(team: Team) {
      const s = yield* queue.status(team)
      return {
        success: true,
        jobsInQueue: s.queued + s.running,
        activeJobsInQueue: s.running,
        waitingJobsInQueue: s.queued,
        maxConcurrency: s.maxConcurrency,
        mostRecentSuccess: s.lastCompletedAt === null ? null : iso(s.lastCompletedAt)
      } satisfies typeof QueueStatusResponse.Type
    })

    const concurrency = Effect.fn("Usage.concurrency")(function*(team: Team) {
      const s = yield* queue.status(team)
      return {
        success: true,
        concurrency: s.running + (yield* teamConcurrency.running(team.id)),
        maxConcurrency: s.maxConcurrency
      } satisfies typeof ConcurrencyCheckResponse.Type
    })

    return { credits, tokens, creditHistory, tokenHistory, queueStatus, concurrency } as const
  })
}) {}
