/**
 * `gleaner monitor create|list|run|checks`: monitors of team `default` (or `--team`) from the
 * command line. `create` makes a monitor of some URLs (or a site to crawl) on a cron schedule;
 * `list` shows the team's monitors; `run` checks one now in this process, with a progress line
 * on stderr, and prints one line per page (status, URL) and the diffs with `--diff`; `checks`
 * lists a monitor's checks. `--json` prints the API's objects instead.
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option, Schema } from "effect"
import { CreateMonitorRequest, Monitors } from "@gleaner/core"
import { AdminLive, ProcessLive } from "../layers.js"
import { teamNamed, teamOption } from "./acting-team.js"
import { progressBar } from "../progress.js"

const jsonOption = Options.boolean("json").pipe(Options.withDescription("Print the API's JSON"))
const monitorArg = Args.text({ name: "monitor-id" }).pipe(Args.withDescription("The monitor's id"))

const create = Command.make(
  "create",
  {
    name: Options.text("name").pipe(Options.withDescription("What to call the monitor")),
    cron: Options.text("cron").pipe(Options.optional, Options.withDescription("Cron schedule, such as \"0 */6 * * *\"")),
    every: Options.text("every").pipe(Options.optional, Options.withDescription("Schedule in words, such as \"every 30 minutes\" or \"daily at 9:00\"")),
    timezone: Options.text("timezone").pipe(Options.withDefault("UTC"), Options.withDescription("IANA time zone of the schedule")),
    urls: Options.text("url").pipe(Options.repeated, Options.withDescription("A page to watch (repeatable)")),
    crawl: Options.text("crawl").pipe(Options.optional, Options.withDescription("A site to crawl; the pages found are watched")),
    limit: Options.integer("limit").pipe(Options.optional, Options.withDescription("Pages at most for --crawl")),
    webhook: Options.text("webhook").pipe(Options.optional, Options.withDescription("URL receiving monitor.page and monitor.check.completed")),
    email: Options.text("email").pipe(Options.repeated, Options.withDescription("E-mail a summary with diffs to this address (repeatable)")),
    goal: Options.text("goal").pipe(Options.optional, Options.withDescription("What changes matter; each change is judged against it")),
    ignore: Options.text("ignore").pipe(Options.repeated, Options.withDescription("Regex of lines whose changes are ignored (repeatable)")),
    ignoreSelector: Options.text("ignore-selector").pipe(Options.repeated, Options.withDescription("CSS selector of areas whose changes are ignored (repeatable)")),
    json: jsonOption,
    team: teamOption
  },
  (options) =>
    Effect.gen(function*() {
      const team = yield* teamNamed(options.team)
      const targets = [
        ...(options.urls.length > 0 ? [{ type: "scrape", urls: options.urls }] : []),
        ...Option.match(options.crawl, {
          onNone: () => [],
          onSome: (url) => [{ type: "crawl", url, ...Option.match(options.limit, { onNone: () => ({}), onSome: (limit) => ({ crawlOptions: { limit } }) }) }]
        })
      ]
      const request = yield* Schema.decodeUnknown(CreateMonitorRequest, { errors: "all" })({
        name: options.name,
        schedule: {
          ...Option.match(options.cron, { onNone: () => ({}), onSome: (cron) => ({ cron }) }),
          ...Option.match(options.every, { onNone: () => ({}), onSome: (text) => ({ text }) }),
          timezone: options.timezone
        },
        targets,
        ...Option.match(options.webhook, { onNone: () => ({}), onSome: (url) => ({ webhook: { url } }) }),
        ...(options.email.length === 0 ? {} : { notification: { email: { enabled: true, recipients: options.email, includeDiffs: true } } }),
        ...Option.match(options.goal, { onNone: () => ({}), onSome: (goal) => ({ goal }) }),
        ...(options.ignore.length + options.ignoreSelector.length === 0 ? {} : {
          ignore: {
            ...(options.ignore.length === 0 ? {} : { patterns: options.ignore }),
            ...(options.ignoreSelector.length === 0 ? {} : { selectors: options.ignoreSelector })
          }
        })
      })
      const monitor = yield* (yield* Monitors).create({ team, apiKeyId: null }, request)
      if (options.json) return yield* Console.log(JSON.stringify(monitor, null, 2))
      yield* Console.log(monitor.id)
      yield* Console.error(`Monitor "${monitor.name}" (${monitor.schedule.cron}, ${monitor.schedule.timezone}); next run ${monitor.nextRunAt ?? "never"}, about ${monitor.estimatedCreditsPerMonth} credits a month`)
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("Create a monitor of --url pages or a --crawl site on a --cron (or --every) schedule; prints its id"))

const list = Command.make(
  "list",
  {
    limit: Options.integer("limit").pipe(Options.withDefault(100)),
    json: jsonOption,
    team: teamOption
  },
  (options) =>
    Effect.gen(function*() {
      const team = yield* teamNamed(options.team)
      const monitors = yield* (yield* Monitors).list(team.id, { limit: Math.min(100, Math.max(1, options.limit)), offset: 0 })
      if (options.json) return yield* Console.log(JSON.stringify(monitors, null, 2))
      for (const m of monitors) {
        const last = m.lastCheckSummary === null ? "never checked" : `${m.lastCheckSummary.changed} changed, ${m.lastCheckSummary.new} new, ${m.lastCheckSummary.removed} removed, ${m.lastCheckSummary.error} errors`
        yield* Console.log(`${m.id}  ${m.status.padEnd(6)}  ${m.schedule.cron} ${m.schedule.timezone}  ${m.name}  (${last})`)
      }
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("List the team's monitors"))

const run = Command.make(
  "run",
  {
    monitorId: monitorArg,
    diff: Options.boolean("diff").pipe(Options.withDescription("Print the diff of each changed page")),
    quiet: Options.boolean("quiet").pipe(Options.withAlias("q"), Options.withDescription("No progress line")),
    json: jsonOption,
    team: teamOption
  },
  (options) =>
    Effect.gen(function*() {
      const team = yield* teamNamed(options.team)
      const monitors = yield* Monitors
      const started = yield* monitors.run({ team, apiKeyId: null }, options.monitorId)
      yield* Console.error(`check ${started.id}`)
      const bar = progressBar("pages", !options.quiet)
      let detail = (yield* monitors.check(team.id, options.monitorId, started.id, { limit: 100 })).detail
      while (detail.status === "queued" || detail.status === "running") {
        yield* bar.update(detail.summary.totalPages, detail.summary.totalPages)
        yield* Effect.sleep("250 millis")
        detail = (yield* monitors.check(team.id, options.monitorId, started.id, { limit: 100 })).detail
      }
      yield* bar.finish
      const pages = [...detail.pages]
      for (let skip = 100; pages.length === skip; skip += 100) {
        pages.push(...(yield* monitors.check(team.id, options.monitorId, started.id, { limit: 100, skip })).detail.pages)
      }
      if (options.json) return yield* Console.log(JSON.stringify({ ...detail, pages }, null, 2))
      for (const page of pages) {
        yield* Console.log(`${page.status.padEnd(7)} ${page.url}${page.error === null ? "" : `  ${page.error}`}`)
        if (options.diff && page.diff?.text !== undefined) yield* Console.log(page.diff.text)
      }
      const s = detail.summary
      yield* Console.error(`${detail.status}: ${s.totalPages} pages, ${s.same} same, ${s.changed} changed, ${s.new} new, ${s.removed} removed, ${s.error} errors, ${detail.actualCredits ?? 0} credits`)
    }).pipe(Effect.provide(ProcessLive))
).pipe(Command.withDescription("Check a monitor now, in this process; prints one line per page (or --json)"))

const checks = Command.make(
  "checks",
  {
    monitorId: monitorArg,
    limit: Options.integer("limit").pipe(Options.withDefault(25)),
    json: jsonOption,
    team: teamOption
  },
  (options) =>
    Effect.gen(function*() {
      const team = yield* teamNamed(options.team)
      const found = yield* (yield* Monitors).checks(team.id, options.monitorId, { limit: Math.min(100, Math.max(1, options.limit)) })
      if (options.json) return yield* Console.log(JSON.stringify(found, null, 2))
      for (const c of found) {
        const s = c.summary
        yield* Console.log(`${c.id}  ${c.createdAt}  ${c.trigger.padEnd(9)}  ${c.status.padEnd(9)}  ${s.changed} changed, ${s.new} new, ${s.removed} removed, ${s.error} errors of ${s.totalPages}`)
      }
    }).pipe(Effect.provide(AdminLive))
).pipe(Command.withDescription("List a monitor's checks, newest first"))

export const monitor = Command.make("monitor").pipe(
  Command.withDescription("Create, list, run and inspect page monitors"),
  Command.withSubcommands([create, list, run, checks])
)
