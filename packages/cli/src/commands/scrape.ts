/**
 * `gleaner scrape URL`: one page, in this process, for team `default` (or `--team`). Prints the
 * markdown; `--format` picks another output, `--json` prints the whole document.
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option, Schema } from "effect"
import { Accounts, bootstrap, DEFAULT_TEAM, type Document, GleanerConfig, ScrapeRequest, Scraper } from "@gleaner/core"
import { AdminLive } from "../layers.js"

const outputs = ["markdown", "html", "rawHtml", "links", "images", "summary", "json"] as const

const printable = (document: Document, format: (typeof outputs)[number]): string => {
  const value = document[format]
  if (value === undefined) return ""
  return typeof value === "string" ? value : JSON.stringify(value, null, 2)
}

export const scrape = Command.make(
  "scrape",
  {
    url: Args.text({ name: "url" }).pipe(Args.withDescription("The page to scrape")),
    format: Options.choice("format", outputs).pipe(Options.withAlias("f"), Options.withDefault("markdown" as const), Options.withDescription("What to print")),
    json: Options.boolean("json").pipe(Options.withDescription("Print the whole document as JSON")),
    full: Options.boolean("full-page").pipe(Options.withDescription("Keep the whole page, not only its main content")),
    team: Options.text("team").pipe(Options.withDefault(DEFAULT_TEAM), Options.withDescription("Team name or id"))
  },
  ({ format, full, json, team, url }) =>
    Effect.gen(function*() {
      const config = yield* GleanerConfig
      // a fresh data directory: make team `default` (and say where its key went) before scraping
      const { newKey } = yield* bootstrap({ apiKey: config.apiKey, defaultPlan: config.defaultPlan })
      if (Option.isSome(newKey)) yield* Console.error(`Created team "${DEFAULT_TEAM}"; its API key (shown once): ${newKey.value}`)
      const found = yield* (yield* Accounts).findTeam(team)
      const request = yield* Schema.decodeUnknown(ScrapeRequest)({ url, formats: [format], onlyMainContent: !full })
      const document = yield* (yield* Scraper).scrape({ team: found, apiKeyId: null }, request)
      yield* Console.log(json ? JSON.stringify(document, null, 2) : printable(document, format))
      if (!json && document.warning !== undefined) yield* Console.error(`warning: ${document.warning}`)
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("Scrape one URL and print its markdown (or --format, --json)"))
