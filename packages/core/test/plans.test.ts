import { Effect, Exit, Layer, Option } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { GleanerConfig, mergePlans, Plans, plans } from "@gleaner/core"

const dir = mkdtempSync(join(tmpdir(), "gleaner-plans-"))
const load = (content: string) => {
  const path = join(dir, `${Math.random()}.json`)
  writeFileSync(path, content)
  return Effect.runPromiseExit(
    Effect.map(Plans, (p) => p.all).pipe(Effect.provide(Plans.fromConfig.pipe(Layer.provide(GleanerConfig.layer({ plansFile: Option.some(path) })))))
  )
}

describe("plans", () => {
  it("built-in plans follow the published tiers", () => {
    expect(plans.map((p) => p.name)).toEqual(["free", "hobby", "standard", "growth", "selfhost"])
    const free = plans[0]
    expect([free?.creditsPerPeriod, free?.concurrency, free?.rateLimits.scrape, free?.rateLimits.crawl]).toEqual([500, 2, 10, 1])
  })

  it("a plans file adds plans whose missing limits come from their base", () => {
    const merged = mergePlans(plans, [{ name: "team-a", base: "hobby", creditsPerPeriod: 42, concurrency: 3, rateLimits: { scrape: 7 } }])
    const plan = merged.find((p) => p.name === "team-a")
    expect(plan?.rateLimits.scrape).toBe(7)
    expect(plan?.rateLimits.map).toBe(100)
    expect(merged).toHaveLength(plans.length + 1)
  })

  it("enterprise switches: refused on the cloud tiers, allowed on selfhost, set per plan in the file", async () => {
    expect(plans.filter((p) => p.features.zeroDataRetention).map((p) => p.name)).toEqual(["selfhost"])
    const merged = mergePlans(plans, [{ name: "vetted", base: "hobby", creditsPerPeriod: 1, concurrency: 1, features: { ignoreRobotsTxt: true } }])
    expect(merged.find((p) => p.name === "vetted")?.features).toEqual({
      zeroDataRetention: false, ignoreRobotsTxt: true, robotsUserAgent: false, threatProtection: false
    })
    const layer = Plans.fromList(merged)
    const refused = await Effect.runPromiseExit(Effect.flatMap(Plans, (p) => p.require("vetted", ["ignoreRobotsTxt", "robotsUserAgent"])).pipe(Effect.provide(layer)))
    expect(Exit.isFailure(refused) && String(refused.cause)).toMatch(/robotsUserAgent parameter is an enterprise feature/)
    const unknownPlan = await Effect.runPromiseExit(Effect.flatMap(Plans, (p) => p.require("gone", ["zeroDataRetention"])).pipe(Effect.provide(layer)))
    expect(Exit.isFailure(unknownPlan)).toBe(true)
  })

  it("a plan named like a built-in one replaces it", async () => {
    const exit = await load(JSON.stringify([{ name: "free", creditsPerPeriod: 1000, concurrency: 4 }]))
    if (Exit.isFailure(exit)) throw new Error("must load")
    expect(exit.value.filter((p) => p.name === "free").map((p) => p.creditsPerPeriod)).toEqual([1000])
  })

  it("a plans file that does not parse stops the start with its path in the message", async () => {
    for (const bad of ["not json", JSON.stringify([{ name: "x", creditsPerPeriod: -1, concurrency: 1 }]), JSON.stringify([{ name: "x", creditsPerPeriod: 1, concurrency: 1, extra: true }]), JSON.stringify([{ name: "x", base: "nope", creditsPerPeriod: 1, concurrency: 1 }])]) {
      const exit = await load(bad)
      expect(Exit.isFailure(exit), bad).toBe(true)
    }
  })
})
