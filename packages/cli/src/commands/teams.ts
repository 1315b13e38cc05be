/**
 * `gleaner teams create|list|secret`: teams, their plans and their webhook signing secrets.
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect } from "effect"
import { Accounts, DEFAULT_TEAM, GleanerConfig, Webhooks } from "@gleaner/core"
import { AdminLive } from "../layers.js"
import { iso, printJson, printTable } from "../output.js"

const json = Options.boolean("json").pipe(Options.withDescription("Print JSON instead of a table"))

const create = Command.make(
  "create",
  {
    name: Args.text({ name: "name" }).pipe(Args.withDescription("Team name (unique)")),
    plan: Options.text("plan").pipe(
      Options.optional,
      Options.withDescription("Plan of the team: free, hobby, standard, growth, selfhost or one of GLEANER_PLANS_FILE (default: GLEANER_DEFAULT_PLAN)")
    ),
    json
  },
  ({ json, name, plan }) =>
    Effect.gen(function*() {
      const config = yield* GleanerConfig
      const accounts = yield* Accounts
      const team = yield* accounts.createTeam(name, plan._tag === "Some" ? plan.value : config.defaultPlan)
      const key = yield* accounts.createKey(team.id, "default")
      if (json) return yield* printJson({ team, apiKey: key.key })
      yield* Console.log(`Team "${team.name}" created on plan ${team.plan} (id ${team.id}).`)
      yield* Console.log(`Its API key, shown once:\n  ${key.key}`)
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("Create a team (and its first API key)"))

const list = Command.make("list", { json }, ({ json }) =>
  Effect.gen(function*() {
    const teams = yield* (yield* Accounts).listTeams()
    if (json) return yield* printJson(teams)
    yield* printTable(teams.map((t) => ({
      id: t.id,
      name: t.name,
      plan: t.plan,
      concurrency: String(t.maxConcurrency),
      created: iso(t.createdAt)
    })))
  }).pipe(Effect.provide(AdminLive))).pipe(Command.withDescription("List teams"))

const secret = Command.make(
  "secret",
  {
    team: Options.text("team").pipe(Options.withDescription("Team name or id"), Options.withDefault(DEFAULT_TEAM)),
    rotate: Options.boolean("rotate").pipe(
      Options.withDescription("Replace the secret with a new one (webhooks still queued are signed with the new one)")
    ),
    json
  },
  ({ json, rotate, team }) =>
    Effect.gen(function*() {
      const found = yield* (yield* Accounts).findTeam(team)
      const webhooks = yield* Webhooks
      const value = rotate ? yield* webhooks.rotateSecret(found.id) : yield* webhooks.secret(found.id)
      if (json) return yield* printJson({ team: found.name, secret: value })
      yield* Console.log(`Webhook signing secret of team "${found.name}"${rotate ? " (new)" : ""}:\n  ${value}`)
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("Print the team's webhook signing secret (made on first use)"))

export const teams = Command.make("teams").pipe(
  Command.withDescription("Manage teams"),
  Command.withSubcommands([create, list, secret])
)
