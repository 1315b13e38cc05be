/**
 * Plans: what a team may use. Credits per monthly billing period, per-minute request limits per
 * endpoint bucket, concurrent jobs, and the switches upstream sells as enterprise features. The built-in tiers follow Firecrawl's published plan
 * table so limits feel familiar; `selfhost` is the generous default of a self-hosted install.
 * Operators add or override plans with a JSON file (GLEANER_PLANS_FILE); the `Plans` service is
 * the only place plans are looked up.
 */
import { readFileSync } from "node:fs"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { GleanerConfig } from "../config.js"
import { ForbiddenError } from "../errors.js"

/** Endpoint buckets that share a per-minute request limit (upstream's rate-limiter modes). */
export const rateLimitBuckets = [
  "scrape",
  "map",
  "crawl",
  "search",
  "extract",
  "browser",
  "browserExecute",
  "crawlStatus",
  "extractStatus",
  "account"
] as const
export type RateLimitBucket = (typeof rateLimitBuckets)[number]

/** Request options a plan allows or refuses (API.md Part A 9). */
export const planFeatures = ["zeroDataRetention", "ignoreRobotsTxt", "robotsUserAgent", "threatProtection"] as const
export type PlanFeature = (typeof planFeatures)[number]

/** The 403 message of a refused feature (upstream's wording where it has one). */
const refusals: Readonly<Record<PlanFeature, string>> = {
  zeroDataRetention: "Zero Data Retention (ZDR) is not enabled for your team. Ask the operator of this Gleaner to allow zeroDataRetention on your plan.",
  ignoreRobotsTxt: "The ignoreRobotsTxt parameter is an enterprise feature that your team's plan does not include. Ask the operator of this Gleaner to allow it on your plan.",
  robotsUserAgent: "The robotsUserAgent parameter is an enterprise feature that your team's plan does not include. Ask the operator of this Gleaner to allow it on your plan.",
  threatProtection: "Threat protection is an enterprise feature that your team's plan does not include. Ask the operator of this Gleaner to allow it on your plan."
}

const allFeatures = (allowed: boolean): Record<PlanFeature, boolean> =>
  ({ zeroDataRetention: allowed, ignoreRobotsTxt: allowed, robotsUserAgent: allowed, threatProtection: allowed })

export interface Plan {
  readonly name: string
  /** Credits granted per billing period (a calendar month, UTC). */
  readonly creditsPerPeriod: number
  /** Jobs of the team that may run at once; more wait in the queue. */
  readonly concurrency: number
  /** Requests per minute per bucket. */
  readonly rateLimits: Readonly<Record<RateLimitBucket, number>>
  /** Which enterprise switches the plan allows. */
  readonly features: Readonly<Record<PlanFeature, boolean>>
}

const limits = (
  l: Omit<Record<RateLimitBucket, number>, "account" | "extractStatus" | "browserExecute"> &
    Partial<Record<"account" | "extractStatus" | "browserExecute", number>>
): Record<RateLimitBucket, number> => ({ account: 1000, extractStatus: 500, browserExecute: 10 * l.browser, ...l })

export const plans: ReadonlyArray<Plan> = [
  {
    name: "free",
    features: allFeatures(false),
    creditsPerPeriod: 500,
    concurrency: 2,
    rateLimits: limits({ scrape: 10, map: 10, crawl: 1, search: 5, extract: 10, browser: 2, crawlStatus: 1500 })
  },
  {
    name: "hobby",
    features: allFeatures(false),
    creditsPerPeriod: 3_000,
    concurrency: 5,
    rateLimits: limits({ scrape: 100, map: 100, crawl: 15, search: 50, extract: 100, browser: 5, crawlStatus: 1500 })
  },
  {
    name: "standard",
    features: allFeatures(false),
    creditsPerPeriod: 100_000,
    concurrency: 50,
    rateLimits: limits({ scrape: 500, map: 500, crawl: 50, search: 250, extract: 500, browser: 20, crawlStatus: 1500 })
  },
  {
    name: "growth",
    features: allFeatures(false),
    creditsPerPeriod: 500_000,
    concurrency: 100,
    rateLimits: limits({ scrape: 5000, map: 5000, crawl: 250, search: 2500, extract: 1000, browser: 50, crawlStatus: 1500 })
  },
  {
    name: "selfhost",
    features: allFeatures(true),
    creditsPerPeriod: 100_000_000,
    concurrency: 50,
    rateLimits: limits({
      scrape: 100_000,
      map: 100_000,
      crawl: 10_000,
      search: 100_000,
      extract: 10_000,
      browser: 1_000,
      crawlStatus: 100_000,
      account: 100_000,
      extractStatus: 100_000
    })
  }
]

const Count = Schema.Int.pipe(Schema.nonNegative())

/** A plan in the operator's plans file. Buckets it leaves out come from `base` (default `selfhost`). */
export const PlanSpec = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1)),
  base: Schema.optional(Schema.String),
  creditsPerPeriod: Count,
  concurrency: Schema.Int.pipe(Schema.positive()),
  rateLimits: Schema.optional(
    Schema.partialWith(Schema.Record({ key: Schema.Literal(...rateLimitBuckets), value: Count }), { exact: true })
  ),
  features: Schema.optional(
    Schema.partialWith(Schema.Record({ key: Schema.Literal(...planFeatures), value: Schema.Boolean }), { exact: true })
  )
}).annotations({ parseOptions: { onExcessProperty: "error" } })

export const PlansFile = Schema.Array(PlanSpec)

/** The built-in plans with the file's plans added (a plan of the same name is replaced). */
export const mergePlans = (builtIn: ReadonlyArray<Plan>, specs: typeof PlansFile.Type): ReadonlyArray<Plan> =>
  specs.reduce<ReadonlyArray<Plan>>((acc, spec) => {
    const baseName = spec.base ?? "selfhost"
    const base = acc.find((p) => p.name === baseName)
    if (base === undefined) throw new Error(`Plan "${spec.name}" is based on unknown plan "${baseName}"`)
    const plan: Plan = {
      name: spec.name,
      creditsPerPeriod: spec.creditsPerPeriod,
      concurrency: spec.concurrency,
      rateLimits: { ...base.rateLimits, ...spec.rateLimits },
      features: { ...base.features, ...spec.features }
    }
    return [...acc.filter((p) => p.name !== spec.name), plan]
  }, builtIn)

/** The enterprise switches a request uses (threat protection counts unless its mode is "off"). */
export const featuresRequested = (request: {
  readonly zeroDataRetention?: boolean | undefined
  readonly ignoreRobotsTxt?: boolean | undefined
  readonly robotsUserAgent?: string | undefined
  readonly threatProtection?: { readonly mode?: "off" | "normal" | undefined } | undefined
}): Array<PlanFeature> => [
  ...(request.zeroDataRetention === true ? ["zeroDataRetention" as const] : []),
  ...(request.ignoreRobotsTxt === true ? ["ignoreRobotsTxt" as const] : []),
  ...(request.robotsUserAgent !== undefined ? ["robotsUserAgent" as const] : []),
  ...(request.threatProtection !== undefined && request.threatProtection.mode !== "off" ? ["threatProtection" as const] : [])
]

/**
 * Fails with the 403 of the first feature in `used` that the plan does not allow (a plan that
 * does not exist allows none).
 */
const requireFeatures = (plan: Option.Option<Plan>, used: ReadonlyArray<PlanFeature>): Effect.Effect<void, ForbiddenError> => {
  const refused = used.find((feature) => !Option.exists(plan, (p) => p.features[feature]))
  return refused === undefined ? Effect.void : Effect.fail(new ForbiddenError({ message: refusals[refused] }))
}

export class Plans extends Context.Tag("@gleaner/core/Plans")<Plans, {
  readonly all: ReadonlyArray<Plan>
  readonly find: (name: string) => Option.Option<Plan>
  /** The 403 of the first feature in `used` that the named plan does not allow. */
  readonly require: (planName: string, used: ReadonlyArray<PlanFeature>) => Effect.Effect<void, ForbiddenError>
}>() {
  static readonly fromList = (list: ReadonlyArray<Plan>): Layer.Layer<Plans> => {
    const find = (name: string) => Option.fromNullable(list.find((p) => p.name === name))
    return Layer.succeed(this, { all: list, find, require: (name, used) => requireFeatures(find(name), used) })
  }

  static readonly builtIn: Layer.Layer<Plans> = Plans.fromList(plans)

  /** The built-in plans plus those of GLEANER_PLANS_FILE; a file that does not parse stops the start. */
  static readonly fromConfig: Layer.Layer<Plans, never, GleanerConfig> = Layer.unwrapEffect(
    Effect.gen(function*() {
      const { plansFile } = yield* GleanerConfig
      if (Option.isNone(plansFile)) return Plans.builtIn
      const path = plansFile.value
      const specs = yield* Effect.try(() => JSON.parse(readFileSync(path, "utf8"))).pipe(
        Effect.flatMap(Schema.decodeUnknown(PlansFile)),
        Effect.orDieWith((e) => new Error(`GLEANER_PLANS_FILE ${path} is not a valid plans file: ${String(e)}`))
      )
      return Plans.fromList(yield* Effect.try({ try: () => mergePlans(plans, specs), catch: (e) => e }).pipe(Effect.orDie))
    })
  )
}
