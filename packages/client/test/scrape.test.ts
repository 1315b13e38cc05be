/**
 * `gleaner.scrape()` in-process against our fixture site: the same Document the API answers,
 * options checked like the API checks them, errors with the SDK's fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Gleaner, GleanerClientError } from "@gleaner/client"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"

let site: FixtureSite
let gleaner: Gleaner
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 5, bombMegabytes: 32 })
  gleaner = await Gleaner.open({ database: ":memory:", settings: { allowedNetworks: ["127.0.0.0/8"] } })
})
afterAll(async () => {
  await gleaner.close()
  await site.close()
})

describe("Gleaner#scrape", () => {
  it("returns markdown and metadata, and the stored document by id", async () => {
    const doc = await gleaner.scrape(`${site.url}/article`, { formats: ["markdown", "links"] })
    expect(doc.markdown).toMatch(/^# /m)
    expect(doc.links?.length).toBeGreaterThan(0)
    expect(doc.metadata).toMatchObject({ statusCode: 200, creditsUsed: 1, cacheState: "miss" })
    expect((await gleaner.getScrape(String(doc.metadata.scrapeId))).markdown).toBe(doc.markdown)
    expect((await gleaner.getCreditUsage()).remainingCredits).toBe(100_000_000 - 1)
  })

  it("refuses options the API refuses", async () => {
    await expect(gleaner.scrape(`${site.url}/article`, { timeout: 2000, waitFor: 1500 })).rejects.toMatchObject({ status: 400, code: "BAD_REQUEST" })
    // an unknown option is refused too (the API's strict body)
    const loose: Record<string, unknown> = { pageOptions: {} }
    await expect(gleaner.scrape(`${site.url}/article`, loose)).rejects.toBeInstanceOf(GleanerClientError)
  })

  it("surfaces scrape failures with their code", async () => {
    await expect(gleaner.scrape(`${site.url}/docx`)).rejects.toMatchObject({ status: 500, code: "SCRAPE_UNSUPPORTED_FILE_ERROR" })
  })
})
