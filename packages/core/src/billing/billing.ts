/**
 * Billing: the credit ledger and the balances derived from it. Debits name the operation and
 * the job that caused them and may carry an idempotency key, so a retried page is charged once.
 */
import { Clock, Effect, Option } from "effect"
import { InsufficientCreditsError, messages, NotFoundError } from "../errors.js"
import { uuidv7At } from "../ids.js"
import { Store, type Team } from "../ports/store.js"
import { creditsToTokens } from "./credits.js"
import { periodOf } from "./period.js"
import { Plans } from "./plans.js"

export interface Balance {
  readonly planCredits: number
  readonly usedCredits: number
  /** Never below zero. */
  readonly remainingCredits: number
  readonly periodStart: number
  /** Exclusive end of the period. */
  readonly periodEnd: number
}

export interface Debit {
  readonly teamId: string
  readonly apiKeyId?: string | null
  readonly operation: string
  readonly jobId?: string | null
  readonly credits: number
  /** A second debit with the same key is ignored (retries never charge twice). */
  readonly idempotencyKey?: string
}

export interface UsagePeriod {
  readonly startDate: string
  readonly endDate: string
  readonly apiKeyId: string | null
  readonly creditsUsed: number
}

export class Billing extends Effect.Service<Billing>()("@gleaner/core/Billing", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const plans = yield* Plans

    const planCreditsOf = (team: Team): number =>
      Option.match(plans.find(team.plan), { onNone: () => 0, onSome: (p) => p.creditsPerPeriod })

    const teamOrFail = (teamId: string) =>
      store.teams.get(teamId).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new NotFoundError({ message: messages.creditUsageNotFound })),
          onSome: Effect.succeed
        }))
      )

    const balance = Effect.fnUntraced(function*(teamId: string) {
      const team = yield* teamOrFail(teamId)
      const period = periodOf(yield* Clock.currentTimeMillis)
      const used = yield* store.ledger.periodTotal(teamId, period.start)
      const planCredits = planCreditsOf(team)
      return {
        planCredits,
        usedCredits: used,
        remainingCredits: Math.max(0, planCredits - used),
        periodStart: period.start,
        periodEnd: period.end
      } satisfies Balance
    })

    /** Fails with 402 unless the team can afford `credits` now. */
    const ensure = Effect.fnUntraced(function*(teamId: string, credits: number) {
      const b = yield* balance(teamId)
      if (b.remainingCredits < credits) {
        return yield* new InsufficientCreditsError({ message: messages.insufficientCredits })
      }
      return b
    })

    /** Records a debit; true when written, false when its idempotency key was already used. */
    const debit = Effect.fnUntraced(function*(d: Debit) {
      const now = yield* Clock.currentTimeMillis
      return yield* store.ledger.append({
        id: uuidv7At(now),
        teamId: d.teamId,
        apiKeyId: d.apiKeyId ?? null,
        operation: d.operation,
        jobId: d.jobId ?? null,
        credits: d.credits,
        periodStart: periodOf(now).start,
        createdAt: now,
        idempotencyKey: d.idempotencyKey ?? null
      })
    })

    const history = Effect.fn("Billing.history")(function*(teamId: string, byApiKey: boolean) {
      yield* teamOrFail(teamId)
      const rows = yield* store.ledger.usageByPeriod(teamId, { byApiKey })
      return rows.map((r): UsagePeriod => ({
        startDate: new Date(r.periodStart).toISOString(),
        endDate: new Date(periodOf(r.periodStart).end).toISOString(),
        apiKeyId: r.apiKeyId,
        creditsUsed: r.credits
      }))
    })

    return { balance, ensure, debit, history, creditsToTokens } as const
  })
}) {}
