#!/usr/bin/env node
/**
 * The `gleaner` command: serve the API, run workers, scrape, crawl and map, monitor pages, manage teams and keys,
 * migrate.
 */
import { Command } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { crawl, map } from "./commands/crawl.js"
import { keys } from "./commands/keys.js"
import { migrate } from "./commands/migrate.js"
import { monitor } from "./commands/monitor.js"
import { scrape } from "./commands/scrape.js"
import { serve } from "./commands/serve.js"
import { teams } from "./commands/teams.js"
import { worker } from "./commands/worker.js"
import { version } from "./version.js"

const gleaner = Command.make("gleaner").pipe(
  Command.withDescription("Gleaner: a self-hostable web data engine speaking the Firecrawl v2 API"),
  Command.withSubcommands([serve, worker, scrape, crawl, map, monitor, keys, teams, migrate])
)

Command.run(gleaner, { name: "gleaner", version })(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
