/**
 * `gleaner crawl URL` and `gleaner map URL`: a crawl or a map run in this process for team
 * `default` (or `--team`), with this process's own job workers. The crawl shows a progress bar
 * on stderr (`--quiet` hides it) and prints one line per page (status, URL, title), or the whole
 * result with `--json`; map prints one URL per line, or the links with `--json`.
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option, Schema } from "effect"
import { Crawler, CrawlRequest, Mapper, MapRequest, type Team } from "@gleaner/core"
import { AdminLive, ProcessLive } from "../layers.js"
import { teamNamed, teamOption } from "./acting-team.js"
import { progressBar } from "../progress.js"

const jsonOption = Options.boolean("json").pipe(Options.withDescription("Print the whole result as JSON"))
const repeated = (name: string, description: string) =>
  Options.text(name).pipe(Options.repeated, Options.withDescription(description))

const waitForCrawl = (team: Team, id: string, showProgress: boolean) =>
  Effect.gen(function*() {
    const crawler = yield* Crawler
    const bar = progressBar("pages", showProgress)
    for (;;) {
      const status = yield* crawler.status(team.id, id, { limit: 1 })
      yield* bar.update(status.completed, status.total)
      if (status.status !== "scraping") {
        yield* bar.finish
        return status.status
      }
      yield* Effect.sleep("250 millis")
    }
  })

export const crawl = Command.make(
  "crawl",
  {
    url: Args.text({ name: "url" }).pipe(Args.withDescription("Where the crawl starts")),
    limit: Options.integer("limit").pipe(Options.withDefault(100), Options.withDescription("Pages at most")),
    depth: Options.integer("max-depth").pipe(Options.optional, Options.withDescription("Link hops from the start at most")),
    include: repeated("include", "Only paths matching this regex (repeatable)"),
    exclude: repeated("exclude", "Skip paths matching this regex (repeatable)"),
    sitemap: Options.choice("sitemap", ["include", "skip", "only"] as const).pipe(Options.withDefault("include" as const)),
    entireDomain: Options.boolean("entire-domain").pipe(Options.withDescription("Follow links outside the start path too")),
    subdomains: Options.boolean("subdomains").pipe(Options.withDescription("Follow links to subdomains")),
    quiet: Options.boolean("quiet").pipe(Options.withAlias("q"), Options.withDescription("No progress bar")),
    json: jsonOption,
    team: teamOption
  },
  (options) =>
    Effect.gen(function*() {
      const team = yield* teamNamed(options.team)
      const request = yield* Schema.decodeUnknown(CrawlRequest)({
        url: options.url,
        limit: options.limit,
        sitemap: options.sitemap,
        ...(Option.isSome(options.depth) ? { maxDiscoveryDepth: options.depth.value } : {}),
        ...(options.include.length > 0 ? { includePaths: options.include } : {}),
        ...(options.exclude.length > 0 ? { excludePaths: options.exclude } : {}),
        ...(options.entireDomain ? { crawlEntireDomain: true } : {}),
        ...(options.subdomains ? { allowSubdomains: true } : {})
      })
      const crawler = yield* Crawler
      const { id } = yield* crawler.start({ team, apiKeyId: null }, request)
      yield* Console.error(`crawl ${id}`)
      // Ctrl-C: stop the crawl rather than leave it running for the next process with workers
      const state = yield* waitForCrawl(team, id, !options.quiet).pipe(
        Effect.onInterrupt(() => Effect.ignore(crawler.cancel(team.id, id)))
      )
      const all = yield* crawler.status(team.id, id, { limit: 1000 })
      const documents = [...all.data]
      for (let next = all.nextSkip; next !== undefined && next > 0;) {
        const page = yield* crawler.status(team.id, id, { skip: next, limit: 1000 })
        if (page.data.length === 0) break
        documents.push(...page.data)
        next = page.nextSkip
      }
      if (options.json) {
        const { nextSkip: _next, limit: _limit, ...status } = all
        yield* Console.log(JSON.stringify({ id, ...status, data: documents }, null, 2))
      } else {
        for (const doc of documents) {
          yield* Console.log(`${doc.metadata.statusCode} ${doc.metadata.sourceURL ?? doc.metadata.url} ${doc.metadata.title ?? ""}`.trimEnd())
        }
        const errors = yield* crawler.errors(team.id, id)
        yield* Console.error(`${state}: ${documents.length} pages, ${errors.errors.length} failed, ${errors.robotsBlocked.length} blocked by robots.txt, ${all.creditsUsed} credits`)
      }
    }).pipe(Effect.provide(ProcessLive))
).pipe(Command.withDescription("Crawl a site from URL with a progress bar; prints one line per page (or --json)"))

export const map = Command.make(
  "map",
  {
    url: Args.text({ name: "url" }).pipe(Args.withDescription("The site to map")),
    search: Options.text("search").pipe(Options.optional, Options.withDescription("Rank the URLs by relevance to this query")),
    limit: Options.integer("limit").pipe(Options.withDefault(5000), Options.withDescription("URLs at most")),
    sitemap: Options.choice("sitemap", ["include", "skip", "only"] as const).pipe(Options.withDefault("include" as const)),
    json: jsonOption,
    team: teamOption
  },
  (options) =>
    Effect.gen(function*() {
      const team = yield* teamNamed(options.team)
      const request = yield* Schema.decodeUnknown(MapRequest)({
        url: options.url,
        limit: options.limit,
        sitemap: options.sitemap,
        ...(Option.isSome(options.search) ? { search: options.search.value } : {})
      })
      const result = yield* (yield* Mapper).map({ team, apiKeyId: null }, request)
      if (options.json) yield* Console.log(JSON.stringify(result, null, 2))
      else for (const link of result.links) yield* Console.log(link.url)
      if (!options.json && result.warning !== undefined) yield* Console.error(`warning: ${result.warning}`)
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("List a site's URLs from its sitemaps and links (or --json with titles)"))
