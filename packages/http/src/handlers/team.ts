/**
 * The team endpoints (API.md §3.13): credit and token usage, their history, queue status and
 * concurrency, all answered by core's Usage service for the authenticated team.
 */
import { HttpApiBuilder } from "@effect/platform"
import { messages, NotFoundError, Usage } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"
import { internalOnDefect } from "../errors.js"

const currentTeam = Effect.map(CurrentAuth, (auth) => auth.team)

export const TeamLive = HttpApiBuilder.group(GleanerApi, "team", (handlers) =>
  Effect.gen(function*() {
    const usage = yield* Usage
    return handlers
      .handle("creditUsage", () =>
        currentTeam.pipe(
          Effect.flatMap(usage.credits),
          Effect.map((data) => ({ success: true as const, data })),
          internalOnDefect(messages.creditUsageFailed)
        ))
      .handle("tokenUsage", () =>
        currentTeam.pipe(
          Effect.flatMap(usage.tokens),
          Effect.map((data) => ({ success: true as const, data })),
          Effect.catchTag("NotFoundError", () => Effect.fail(new NotFoundError({ message: messages.tokenUsageNotFound }))),
          internalOnDefect(messages.tokenUsageFailed)
        ))
      .handle("creditUsageHistorical", ({ urlParams }) =>
        Effect.flatMap(currentTeam, (team) => usage.creditHistory(team, urlParams.byApiKey ?? false)))
      .handle("tokenUsageHistorical", ({ urlParams }) =>
        Effect.flatMap(currentTeam, (team) => usage.tokenHistory(team, urlParams.byApiKey ?? false)))
      .handle("queueStatus", () => Effect.flatMap(currentTeam, usage.queueStatus))
      .handle("concurrencyCheck", () => Effect.flatMap(currentTeam, usage.concurrency))
  }))
