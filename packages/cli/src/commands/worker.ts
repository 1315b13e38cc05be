/**
 * `gleaner worker`: a process that only runs jobs (scale-out on Postgres: any number of these
 * beside `gleaner serve` processes). SIGTERM stops claiming and lets running jobs finish.
 */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { GleanerConfig } from "@gleaner/core"
import { ProcessLive } from "../layers.js"

export const worker = Command.make("worker", {}, () =>
  Effect.gen(function*() {
    const config = yield* GleanerConfig
    yield* Effect.logInfo(`Worker running ${config.workers} job fibers; stop with Ctrl-C or SIGTERM`)
    return yield* Effect.never
  }).pipe(Effect.provide(ProcessLive))).pipe(Command.withDescription("Run job workers without the HTTP API"))
