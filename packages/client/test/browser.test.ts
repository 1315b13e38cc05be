/**
 * Browser features in-process: a screenshot comes back inline (there is no server to serve
 * files), and a browser session is created, run, listed, driven over its local DevTools endpoint
 * and deleted with its credits billed; interact re-opens a scrape's page in a session and
 * stopInteraction ends it. Skips loudly without Chromium (fails with CI=true).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { chromium } from "playwright-core"
import { Effect, Option } from "effect"
import { Gleaner } from "@gleaner/client"
import { findChromium } from "@gleaner/browser-playwright"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"

const hasChromium = Option.isSome(Effect.runSync(Effect.orElseSucceed(findChromium(process.env), () => Option.none())))
if (!hasChromium) {
  if (process.env["CI"] === "true") throw new Error("CI=true but no Chromium was found (apt-get install -y chromium-headless-shell)")
  console.warn("\n[client] SKIPPING browser.test.ts: no Chromium (apt-get install -y chromium-headless-shell)\n")
}

let site: FixtureSite
let gleaner: Gleaner
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 5, bombMegabytes: 16 })
  gleaner = await Gleaner.open({ database: ":memory:", settings: { allowedNetworks: ["127.0.0.0/8"] } })
})
afterAll(async () => {
  await gleaner.close()
  await site.close()
})

describe.skipIf(!hasChromium)("Gleaner browser features", () => {
  it("a screenshot is an inline PNG data URL", async () => {
    const doc = await gleaner.scrape(`${site.url}/article`, { formats: ["markdown", "screenshot"] })
    expect(doc.screenshot).toMatch(/^data:image\/png;base64,iVBORw0KGgo/)
    expect(doc.metadata["engine"]).toBe("browser")
  }, 30_000)

  it("browser sessions: create, execute, drive over DevTools, list, delete with credits billed", async () => {
    const before = (await gleaner.getCreditUsage()).remainingCredits
    const session = await gleaner.browser({ ttl: 120 })
    expect(session.cdpUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//)
    const cdp = await chromium.connectOverCDP(session.cdpUrl)
    try {
      const page = cdp.contexts()[0]?.pages()[0] ?? await (cdp.contexts()[0] ?? await cdp.newContext()).newPage()
      await page.goto(`${site.url}/article`)
      const ran = await gleaner.browserExecute(session.id, { code: "console.log('hi'); return document.title", language: "node" })
      expect(ran).toMatchObject({ success: true, exitCode: 0, killed: false, stdout: "hi\n", result: await page.title() })
    } finally {
      await cdp.close()
    }
    const active = await gleaner.listBrowsers({ status: "active" })
    expect(active.sessions.map((s) => s.id)).toContain(session.id)
    const ended = await gleaner.deleteBrowser(session.id)
    expect(ended).toMatchObject({ success: true, creditsBilled: 2 })
    expect((await gleaner.getCreditUsage()).remainingCredits).toBe(before - 2)
    await expect(gleaner.browserExecute(session.id, { code: "return 1", language: "node" })).rejects.toMatchObject({ status: 410 })
    await expect(gleaner.browserExecute(session.id, { code: "1", language: "bash" })).rejects.toMatchObject({ status: 410 })
  }, 60_000)

  it("interact re-opens a scrape's page with its actions replayed; stopInteraction ends and bills it", async () => {
    const actions = [{ type: "executeJavascript" as const, script: "document.title = 'Changed by actions'" }]
    const doc = await gleaner.scrape(`${site.url}/article`, { formats: ["markdown"], actions })
    const scrapeId = String(doc.metadata["scrapeId"])
    const ran = await gleaner.interact(scrapeId, { code: "return document.title", language: "node" })
    expect(ran).toMatchObject({ success: true, result: "Changed by actions", exitCode: 0, killed: false })
    expect(ran.cdpUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//)
    const again = await gleaner.interact(scrapeId, { code: "return location.pathname", language: "node" })
    expect(again).toMatchObject({ sessionId: ran.sessionId, result: "/article" })
    expect(await gleaner.stopInteraction(scrapeId)).toMatchObject({ success: true, creditsBilled: 2, cleanupQueued: true })
    await expect(gleaner.stopInteraction(scrapeId)).rejects.toMatchObject({ status: 404 })
    await expect(gleaner.interact(scrapeId, { prompt: "Read the title" })).rejects.toMatchObject({ status: 400 })
  }, 60_000)
})
