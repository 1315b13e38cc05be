/**
 * `gleaner keys create|list|revoke`: API keys. A key is printed once, when it is created; only
 * its hash is kept.
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { Accounts, DEFAULT_TEAM } from "@gleaner/core"
import { AdminLive } from "../layers.js"
import { iso, printJson, printTable } from "../output.js"

const json = Options.boolean("json").pipe(Options.withDescription("Print JSON instead of a table"))
const team = Options.text("team").pipe(Options.withDescription("Team name or id"), Options.withDefault(DEFAULT_TEAM))

const create = Command.make(
  "create",
  {
    team,
    name: Options.text("name").pipe(Options.withDescription("A label for the key"), Options.withDefault("cli")),
    json
  },
  ({ json, name, team }) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const found = yield* accounts.findTeam(team)
      const created = yield* accounts.createKey(found.id, name)
      if (json) return yield* printJson({ id: created.record.id, team: found.name, name, key: created.key })
      yield* Console.log(`API key for team "${found.name}" (shown once):\n  ${created.key}`)
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("Create an API key"))

const list = Command.make(
  "list",
  { team: Options.text("team").pipe(Options.withDescription("Only this team (name or id)"), Options.optional), json },
  ({ json, team }) =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const teamId = Option.isSome(team) ? (yield* accounts.findTeam(team.value)).id : undefined
      const keys = yield* accounts.listKeys(teamId)
      if (json) return yield* printJson(keys)
      yield* printTable(keys.map((k) => ({
        id: k.id,
        key: k.displayPrefix,
        name: k.name,
        team: k.teamId,
        created: iso(k.createdAt),
        revoked: iso(k.revokedAt)
      })))
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("List API keys (only their prefixes)"))

const revoke = Command.make(
  "revoke",
  { id: Args.text({ name: "id" }).pipe(Args.withDescription("Key id, as `keys list` shows it")) },
  ({ id }) =>
    Effect.gen(function*() {
      yield* (yield* Accounts).revokeKey(id)
      yield* Console.log(`Key ${id} revoked.`)
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("Revoke an API key"))

export const keys = Command.make("keys").pipe(
  Command.withDescription("Manage API keys"),
  Command.withSubcommands([create, list, revoke])
)
