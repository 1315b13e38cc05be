/**
 * The in-process client: the engine opened on a real SQLite file, called with the SDK's method
 * names, closed and reopened on the same file.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { Gleaner, GleanerClientError } from "@gleaner/client"

const dir = mkdtempSync(join(tmpdir(), "gleaner-client-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("Gleaner.open", () => {
  it("answers the SDK's account methods for the default team", async () => {
    const gleaner = await Gleaner.open({ dataDir: dir })
    try {
      expect(gleaner.team.name).toBe("default")
      const credits = await gleaner.getCreditUsage()
      expect(credits).toMatchObject({ remainingCredits: 100_000_000, planCredits: 100_000_000 })
      expect(Date.parse(credits.billingPeriodEnd ?? "") - Date.parse(credits.billingPeriodStart ?? "")).toBeGreaterThan(27 * 86_400_000)
      expect(await gleaner.getTokenUsage()).toMatchObject({ remainingTokens: 1_500_000_000, planTokens: 1_500_000_000 })
      expect(await gleaner.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 50 })
      expect(await gleaner.getQueueStatus()).toMatchObject({ success: true, jobsInQueue: 0, mostRecentSuccess: null })
      expect(await gleaner.getCreditUsageHistorical()).toEqual({ success: true, periods: [] })
    } finally {
      await gleaner.close()
    }
  })

  it("reopens the same database with the same team", async () => {
    const first = await Gleaner.open({ database: join(dir, "same.db") })
    const id = first.team.id
    await first.close()
    const second = await Gleaner.open({ database: join(dir, "same.db") })
    try {
      expect(second.team.id).toBe(id)
    } finally {
      await second.close()
    }
  })

  it("acts for the named team, creating it on the given plan", async () => {
    const gleaner = await Gleaner.open({ database: join(dir, "teams.db"), team: "research", settings: { defaultPlan: "hobby" } })
    try {
      expect(gleaner.team.name).toBe("research")
      expect(await gleaner.getCreditUsage()).toMatchObject({ remainingCredits: 3000, planCredits: 3000 })
      expect(await gleaner.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 5 })
    } finally {
      await gleaner.close()
    }
  })

  it("rejects with the SDK's error fields", async () => {
    const opening = Gleaner.open({ database: ":memory:", settings: { defaultPlan: "platinum" } })
    await expect(opening).rejects.toBeInstanceOf(GleanerClientError)
    await expect(opening).rejects.toMatchObject({ status: 400, code: "BAD_REQUEST", message: expect.stringContaining("platinum") })
  })
})
