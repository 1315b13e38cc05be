/**
 * `gleaner migrate`: apply the store's migrations and exit (servers also do it at start).
 */
import { Command } from "@effect/cli"
import { Console, Effect } from "effect"
import { databaseUrlOf, GleanerConfig } from "@gleaner/core"
import { migrate as applyMigrations } from "@gleaner/store-sql"
import { ConfigLive } from "../layers.js"

export const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    const config = yield* GleanerConfig
    const applied = yield* applyMigrations(databaseUrlOf(config))
    yield* Console.log(applied.length === 0 ? "Database is up to date." : `Applied: ${applied.join(", ")}`)
  }).pipe(Effect.provide(ConfigLive))).pipe(Command.withDescription("Apply database migrations"))
