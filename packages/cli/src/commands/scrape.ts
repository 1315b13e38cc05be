/**
 * `gleaner scrape URL`: one page, in this process, for team `default` (or `--team`). Prints the
 * markdown; `--format` picks another output, `--json` prints the whole document, `--screenshot
 * FILE` also saves a full-page screenshot (PNG; JPEG when FILE ends in .jpg or .jpeg).
 */
import { Args, Command, Options } from "@effect/cli"
import { writeFile } from "node:fs/promises"
import { Console, Effect, Option, Schema } from "effect"
import { Accounts, bootstrap, DEFAULT_TEAM, type Document, GleanerConfig, InternalError, ScrapeRequest, Scraper } from "@gleaner/core"
import { ScrapeCommandLive } from "../layers.js"

const outputs = ["markdown", "html", "rawHtml", "links", "images", "summary", "json"] as const

/** The bytes of the screenshot the document carries (inline: the CLI has no server to serve files). */
const screenshotBytes = (document: Document): Uint8Array | undefined => {
  const match = /^data:image\/(?:png|jpeg);base64,(.*)$/.exec(document.screenshot ?? "")
  return match?.[1] === undefined ? undefined : Buffer.from(match[1], "base64")
}

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
    team: Options.text("team").pipe(Options.withDefault(DEFAULT_TEAM), Options.withDescription("Team name or id")),
    screenshot: Options.file("screenshot").pipe(
      Options.optional,
      Options.withDescription("Also save a full-page screenshot to this file (PNG, or JPEG for .jpg/.jpeg); needs Chromium")
    )
  },
  ({ format, full, json, screenshot, team, url }) =>
    Effect.gen(function*() {
      const config = yield* GleanerConfig
      // a fresh data directory: make team `default` (and say where its key went) before scraping
      const { newKey } = yield* bootstrap({ apiKey: config.apiKey, defaultPlan: config.defaultPlan })
      if (Option.isSome(newKey)) yield* Console.error(`Created team "${DEFAULT_TEAM}"; its API key (shown once): ${newKey.value}`)
      const found = yield* (yield* Accounts).findTeam(team)
      const shot = Option.map(screenshot, (file) => ({ type: "screenshot", fullPage: true, ...(/\.jpe?g$/i.test(file) ? { quality: 85 } : {}) }))
      const formats = Option.match(shot, { onNone: () => [format], onSome: (s) => [format, s] })
      const request = yield* Schema.decodeUnknown(ScrapeRequest)({ url, formats, onlyMainContent: !full })
      const document = yield* (yield* Scraper).scrape({ team: found, apiKeyId: null }, request)
      if (Option.isSome(screenshot)) {
        const bytes = screenshotBytes(document)
        if (bytes === undefined) return yield* new InternalError({ message: "The scrape returned no screenshot" })
        yield* Effect.tryPromise({
          try: () => writeFile(screenshot.value, bytes),
          catch: (cause) => new InternalError({ message: `Could not write ${screenshot.value}: ${cause instanceof Error ? cause.message : String(cause)}` })
        })
        yield* Console.error(`Screenshot saved to ${screenshot.value} (${bytes.length} bytes)`)
      }
      const { screenshot: _inline, ...shown } = document
      yield* Console.log(json ? JSON.stringify(shown, null, 2) : printable(document, format))
      if (!json && document.warning !== undefined) yield* Console.error(`warning: ${document.warning}`)
    }).pipe(Effect.provide(ScrapeCommandLive))
).pipe(Command.withDescription("Scrape one URL and print its markdown (or --format, --json)"))
