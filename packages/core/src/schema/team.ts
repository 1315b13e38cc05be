/**
 * Wire types of the team/account endpoints (API.md §3.13): usage, history, queue, concurrency.
 */
import { Schema } from "effect"
import { IsoDate } from "./common.js"

const success = { success: Schema.Literal(true) }

export const CreditUsage = Schema.Struct({
  remainingCredits: Schema.Number,
  planCredits: Schema.Number,
  billingPeriodStart: Schema.NullOr(IsoDate),
  billingPeriodEnd: Schema.NullOr(IsoDate)
}).annotations({ identifier: "CreditUsage" })

export const CreditUsageResponse = Schema.Struct({ ...success, data: CreditUsage }).annotations({
  identifier: "CreditUsageResponse"
})

export const TokenUsage = Schema.Struct({
  remainingTokens: Schema.Number,
  planTokens: Schema.Number,
  billingPeriodStart: Schema.NullOr(IsoDate),
  billingPeriodEnd: Schema.NullOr(IsoDate)
}).annotations({ identifier: "TokenUsage" })

export const TokenUsageResponse = Schema.Struct({ ...success, data: TokenUsage }).annotations({
  identifier: "TokenUsageResponse"
})

const periodFields = {
  startDate: IsoDate,
  endDate: IsoDate,
  /** The key's display prefix, when grouped by API key. */
  apiKey: Schema.optional(Schema.String)
}

export const CreditUsageHistoricalResponse = Schema.Struct({
  ...success,
  periods: Schema.Array(Schema.Struct({ ...periodFields, creditsUsed: Schema.Number }))
}).annotations({ identifier: "CreditUsageHistoricalResponse" })

export const TokenUsageHistoricalResponse = Schema.Struct({
  ...success,
  periods: Schema.Array(Schema.Struct({ ...periodFields, tokensUsed: Schema.Number }))
}).annotations({ identifier: "TokenUsageHistoricalResponse" })

export const HistoricalParams = Schema.Struct({
  byApiKey: Schema.optional(Schema.BooleanFromString)
})

export const QueueStatusResponse = Schema.Struct({
  ...success,
  jobsInQueue: Schema.Number,
  activeJobsInQueue: Schema.Number,
  waitingJobsInQueue: Schema.Number,
  maxConcurrency: Schema.Number,
  mostRecentSuccess: Schema.NullOr(IsoDate)
}).annotations({ identifier: "QueueStatusResponse" })

export const ConcurrencyCheckResponse = Schema.Struct({
  ...success,
  concurrency: Schema.Number,
  maxConcurrency: Schema.Number
}).annotations({ identifier: "ConcurrencyCheckResponse" })

export const HealthResponse = Schema.Struct({
  message: Schema.String,
  documentation_url: Schema.String,
  version: Schema.String
}).annotations({ identifier: "HealthResponse" })
