/**
 * A monitor's definition, checked: the schedule as a cron expression the Scheduler accepts in a
 * known time zone, targets whose URLs, crawl rules and scrape options would run, ignore patterns
 * that compile, and the credits a month of checks is expected to cost. Everything a check will
 * need is refused here with a 400, so a scheduled check never fails on its own definition.
 */
import { Effect, Either } from "effect"
import { documentCredits } from "../billing/credits.js"
import { scopeOf } from "../crawl/crawl-run.js"
import { BadRequestError } from "../errors.js"
import { uuidv7At } from "../ids.js"
import type { Scheduler } from "../ports/scheduler.js"
import type { MonitorIgnore, MonitorScheduleInput, MonitorTarget, StoredMonitorTarget } from "../schema/monitor.js"
import type { ScrapeOptions } from "../schema/scrape-options.js"
import type { Scraper } from "../scrape/scraper.js"
import { normalizeRequestUrl } from "../scrape/url.js"
import { compileNoiseRules } from "./noise.js"
import { cronFromText } from "./schedule-text.js"

const bad = (path: ReadonlyArray<string | number>, message: string) =>
  new BadRequestError({ message, details: [{ path, message }] })

/** The cron expression and zone of a schedule input, validated by the Scheduler. */
export const resolveSchedule = (scheduler: Scheduler["Type"], input: MonitorScheduleInput) =>
  Effect.gen(function*() {
    const cron = input.cron ?? (yield* cronFromText(input.text ?? ""))
    const timezone = input.timezone ?? "UTC"
    yield* scheduler.validate(cron, timezone)
    return { cron: cron.trim(), timezone }
  })

/** Extraction billed like an LLM call (5 credits a page): a json format, or changeTracking in json mode. */
const llmJson = (options: ScrapeOptions | undefined): boolean =>
  (options?.formats ?? []).some((f) =>
    typeof f === "object" && (f.type === "json" || (f.type === "changeTracking" && "modes" in f && (f.modes ?? []).includes("json"))))

/** True when the target's scrape extracts JSON (its pages are then also compared field by field). */
export const wantsJson = (options: ScrapeOptions | undefined): boolean =>
  llmJson(options) || (options?.formats ?? []).some((f) => typeof f === "object" && f.type === "deterministicJson")

/** Checks every target and gives each an id; search targets are refused until search lands. */
export const resolveTargets = (scraper: Scraper, targets: ReadonlyArray<MonitorTarget>, now: number) =>
  Effect.forEach(targets, (target, index) =>
    Effect.gen(function*() {
      const id = target.id ?? uuidv7At(now + index)
      switch (target.type) {
        case "search":
          return yield* bad(["targets", index, "type"], "Search targets are not available on Gleaner yet (they arrive with search); use a scrape or crawl target.")
        case "scrape": {
          const urls: Array<string> = []
          for (const [i, raw] of target.urls.entries()) {
            const url = yield* Effect.mapError(normalizeRequestUrl(raw), (e) => bad(["targets", index, "urls", i], e.message))
            yield* scraper.validate({ ...target.scrapeOptions, url: url.href })
            urls.push(url.href)
          }
          return { ...target, id, urls } satisfies StoredMonitorTarget
        }
        case "crawl": {
          const url = yield* Effect.mapError(normalizeRequestUrl(target.url), (e) => bad(["targets", index, "url"], e.message))
          const scope = scopeOf(url, { url: url.href, ...target.crawlOptions })
          if (!scope.ok) return yield* bad(["targets", index, "crawlOptions", scope.field, scope.index], scope.message)
          yield* scraper.validate({ ...target.scrapeOptions, url: url.href })
          return { ...target, id, url: url.href } satisfies StoredMonitorTarget
        }
      }
    }))

/** Ignore patterns must compile; selectors are checked by the scrape itself. */
export const checkIgnore = (ignore: MonitorIgnore | null | undefined) => {
  const compiled = compileNoiseRules({ excludePatterns: ignore?.patterns ?? [] })
  return compiled.ok ? Either.right(compiled.rules) : Either.left(bad(["ignore", "patterns", compiled.index], compiled.message))
}

const HOUR_MS = 3_600_000
const MONTH_MS = 30 * 86_400_000

/**
 * Runs of the schedule in the 30 days after `fromMs`. Counting every run of a busy schedule
 * would take seconds (croner needs ~70 µs a run in a time zone), so a five-field expression is
 * counted as (its minutes in an hour) × (the hours it fires in): the minute field is the same in
 * every hour, and the hours are at most 720. Nicknames (`@hourly`, …) fire at most hourly and are
 * counted run by run. Around a DST change the count may be off by the runs of one hour.
 */
export const runsPerMonth = (scheduler: Scheduler["Type"], cron: string, timezone: string, fromMs: number) =>
  Effect.gen(function*() {
    const fields = cron.trim().split(/\s+/)
    const [minutes, ...rest] = fields
    if (fields.length !== 5 || minutes === undefined) return yield* scheduler.countRuns(cron, timezone, fromMs, fromMs + MONTH_MS, 1_000)
    const hourStart = Date.UTC(2000, 0, 1)
    const perHour = yield* scheduler.countRuns(`${minutes} * * * *`, "UTC", hourStart - 1, hourStart + HOUR_MS - 1, 60)
    const hours = yield* scheduler.countRuns(["0", ...rest].join(" "), timezone, fromMs, fromMs + MONTH_MS, 1_000)
    return perHour * hours
  })

/**
 * Pages one check visits per target: a scrape target's URLs; a crawl target's `limit`, else the
 * pages its last check found, else one.
 */
export const pagesPerCheck = (targets: ReadonlyArray<StoredMonitorTarget>, foundByTarget: ReadonlyMap<string, number>) =>
  targets.map((target) => ({
    target,
    pages: target.type === "scrape" ? target.urls.length : target.crawlOptions?.limit ?? Math.max(1, foundByTarget.get(target.id) ?? 1)
  }))

/** Credits one check is expected to cost: pages × each page's credits (5 with JSON extraction). */
export const creditsPerCheck = (targets: ReadonlyArray<StoredMonitorTarget>, foundByTarget: ReadonlyMap<string, number>): number =>
  pagesPerCheck(targets, foundByTarget).reduce(
    (sum, { pages, target }) => sum + pages * documentCredits({ json: llmJson(target.scrapeOptions) }),
    0
  )
