/**
 * `gleaner serve`: the Firecrawl-compatible HTTP API with in-process job workers. On a fresh
 * database it creates team `default` and prints its API key once, with a curl line to try it.
 * SIGTERM/SIGINT close the server and give running jobs their grace period.
 */
import { Command } from "@effect/cli"
import { Console, Effect, Layer, Option } from "effect"
import { bootstrap, GleanerConfig } from "@gleaner/core"
import { HttpServerLive } from "@gleaner/http"
import { ProcessLive } from "../layers.js"

const banner = (key: string, port: number) =>
  [
    "",
    "Gleaner created team \"default\" and this API key. It is shown once; keep it:",
    "",
    `    ${key}`,
    "",
    "Try it:",
    `    curl -H "Authorization: Bearer ${key}" http://localhost:${port}/v2/team/credit-usage`,
    ""
  ].join("\n")

export const serve = Command.make("serve", {}, () =>
  Effect.gen(function*() {
    const config = yield* GleanerConfig
    const { newKey } = yield* bootstrap({ apiKey: config.apiKey, defaultPlan: config.defaultPlan })
    if (Option.isSome(newKey)) yield* Console.log(banner(newKey.value, config.port))
    return yield* Layer.launch(HttpServerLive)
  }).pipe(Effect.provide(ProcessLive))).pipe(Command.withDescription("Serve the Firecrawl v2 API (and run job workers)"))
