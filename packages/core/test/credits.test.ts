import { describe, expect, it } from "vitest"
import {
  browserSessionCredits,
  creditsToTokens,
  documentCredits,
  extractCredits,
  failedScrapeCredits,
  requiredCredits,
  searchCredits
} from "@gleaner/core"

describe("credit rules (API.md §5)", () => {
  it("charges one credit for a plain page and five with json extraction", () => {
    expect(documentCredits({})).toBe(1)
    expect(documentCredits({ json: true })).toBe(5)
  })

  it("adds one credit per PDF page beyond the first", () => {
    expect(documentCredits({ pdfPages: 1 })).toBe(1)
    expect(documentCredits({ pdfPages: 12 })).toBe(12)
  })

  it("adds four for lockdown and one for zero data retention outside lockdown", () => {
    expect(documentCredits({ lockdown: true })).toBe(5)
    expect(documentCredits({ zeroDataRetention: true })).toBe(2)
    expect(documentCredits({ zeroDataRetention: true, lockdown: true })).toBe(5)
  })

  it("charges nothing for a failed scrape except a lockdown cache miss", () => {
    expect(failedScrapeCredits({})).toBe(0)
    expect(failedScrapeCredits({ lockdownCacheMiss: true })).toBe(1)
  })

  it("charges search by started blocks of ten results", () => {
    expect(searchCredits(0)).toBe(0)
    expect(searchCredits(6)).toBe(2)
    expect(searchCredits(11)).toBe(4)
    expect(searchCredits(11, { zeroDataRetention: true })).toBe(20)
  })

  it("prices extract from the result size", () => {
    expect(extractCredits("")).toBe(20)
    expect(extractCredits("x".repeat(4000))).toBe(Math.ceil(1300 / 15))
  })

  it("bills browser minutes at 2, or 7 once a prompt was used", () => {
    expect(browserSessionCredits(10_000)).toBe(2)
    expect(browserSessionCredits(61_000)).toBe(4)
    expect(browserSessionCredits(30_000, { usedPrompt: true })).toBe(7)
  })

  it("converts credits to tokens at 15 per credit", () => {
    expect(creditsToTokens(3)).toBe(45)
  })

  it("pre-checks the route minimum, else the limit, else the URL count", () => {
    expect(requiredCredits({ routeMinimum: 20, limit: 5 })).toBe(20)
    expect(requiredCredits({ limit: 100 })).toBe(100)
    expect(requiredCredits({ urls: 3 })).toBe(3)
    expect(requiredCredits({})).toBe(1)
  })
})
