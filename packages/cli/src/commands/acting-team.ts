/**
 * The team an in-process command acts for: `--team` (default `default`), made on a fresh data
 * directory with its key printed once, as `serve` would.
 */
import { Options } from "@effect/cli"
import { Accounts, bootstrap, DEFAULT_TEAM, GleanerConfig } from "@gleaner/core"
import { Console, Effect, Option } from "effect"

export const teamOption = Options.text("team").pipe(Options.withDefault(DEFAULT_TEAM), Options.withDescription("Team name or id"))

/** The team to act for, after making team `default` on a fresh data directory. */
export const teamNamed = (name: string) =>
  Effect.gen(function*() {
    const config = yield* GleanerConfig
    const { newKey } = yield* bootstrap({ apiKey: config.apiKey, defaultPlan: config.defaultPlan })
    if (Option.isSome(newKey)) yield* Console.error(`Created team "${DEFAULT_TEAM}"; its API key (shown once): ${newKey.value}`)
    return yield* (yield* Accounts).findTeam(name)
  })
