/**
 * The deterministic judge and the schedule texts of monitors: goal terms (stop words out, case,
 * accents and plurals folded, quoted phrases kept) found in changed lines make a change
 * meaningful, and every judgment says it came from the deterministic judge; plain-English
 * schedules become the cron expressions they stand for, anything else a 400.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { cronFromText, goalTerms, judgeChange } from "@gleaner/core"

describe("deterministic judge", () => {
  it("takes the goal's significant words and quoted phrases", () => {
    expect(goalTerms("Tell me when the prices of the \"Pro plan\" change")).toEqual({ words: ["price"], phrases: ["pro plan"] })
    expect(goalTerms("Café openings and batteries").words).toEqual(["cafe", "opening", "battery"])
  })

  it("calls a change meaningful when a goal term is in a changed line, pairing before and after", () => {
    const judgment = judgeChange("price changes", { removed: ["The price is $19."], added: ["The price is $24."] }, "changed")
    expect(judgment.meaningful).toBe(true)
    expect(judgment.judge).toBe("deterministic")
    expect(judgment.reason).toContain("Deterministic judge")
    expect(judgment.reason).toContain("\"price\"")
    expect(judgment.meaningfulChanges).toEqual([
      { type: "changed", before: "The price is $19.", after: "The price is $24.", reason: "Mentions \"price\"" }
    ])
  })

  it("folds case, accents and plurals", () => {
    expect(judgeChange("new CAFÉS", { added: ["Two cafes opened downtown"], removed: [] }, "changed").meaningful).toBe(true)
  })

  it("is not meaningful when no goal term is in the changed lines, and says which terms it looked for", () => {
    const judgment = judgeChange("price", { added: ["Opening hours: 9–5"], removed: ["Opening hours: 9–6"] }, "changed")
    expect(judgment.meaningful).toBe(false)
    expect(judgment.confidence).toBe("low")
    expect(judgment.reason).toContain("none of the goal terms (\"price\")")
    expect(judgment.meaningfulChanges).toEqual([])
  })

  it("judges a new or removed page by its lines", () => {
    expect(judgeChange("\"out of stock\"", { added: ["Widget", "Out of stock"], removed: [] }, "new").meaningfulChanges).toEqual([
      { type: "added", before: null, after: "Out of stock", reason: "Mentions \"out of stock\"" }
    ])
    expect(judgeChange("widget", { added: [], removed: ["Widget Pro"] }, "removed").reason).toContain("the removed page")
  })
})

describe("schedule texts", () => {
  const cron = (text: string) => Either.getOrElse(cronFromText(text), (e) => `error: ${e.message}`)
  it("reads the forms it documents", () => {
    expect(cron("every minute")).toBe("* * * * *")
    expect(cron("every 15 minutes")).toBe("*/15 * * * *")
    expect(cron("hourly")).toBe("0 * * * *")
    expect(cron("every 6 hours")).toBe("0 */6 * * *")
    expect(cron("daily")).toBe("0 0 * * *")
    expect(cron("Daily at 9:30")).toBe("30 9 * * *")
    expect(cron("every day at 6pm")).toBe("0 18 * * *")
    expect(cron("weekdays at 8am")).toBe("0 8 * * 1-5")
    expect(cron("every monday at 09:15")).toBe("15 9 * * 1")
    expect(cron("weekly")).toBe("0 0 * * 1")
    expect(cron("monthly")).toBe("0 0 1 * *")
  })
  it("refuses anything else with the forms it knows", () => {
    expect(cron("every 90 minutes")).toContain("Cannot read the schedule")
    expect(cron("daily at 25:00")).toContain("Cannot read the schedule")
    expect(cron("whenever")).toContain("\"every 15 minutes\"")
  })
})
