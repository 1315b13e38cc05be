/**
 * Monitors in-process: a crawl target on a small local site whose pages come and go — the pages
 * found are the monitored set, a page no longer linked is `removed`, a new one `new`, an edited
 * one `changed` — with the e-mail of each check at a real SMTP server on 127.0.0.1, ignored
 * lines kept out of the comparison, and the client's monitor methods end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Gleaner, GleanerClientError } from "@gleaner/client"
import { type SmtpTestServer, startSmtpServer } from "@gleaner/fixture-site"
import { Option } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"

const pages: Record<string, string> = {}
const page = (title: string, body: string, links: ReadonlyArray<string>) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p>` +
  `<p>Rendered at ${new Date().toISOString()}</p>` +
  `<ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join("")}</ul></main></body></html>`

let server: Server
let origin = ""
let smtp: SmtpTestServer
let gleaner: Gleaner
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = pages[new URL(req.url ?? "/", "http://x").pathname]
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" }).end(body ?? "gone")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
  smtp = await startSmtpServer()
  gleaner = await Gleaner.open({
    database: ":memory:",
    settings: { allowedNetworks: ["127.0.0.0/8"], pollMs: 50, smtpUrl: Option.some(smtp.url), smtpFrom: "watch@gleaner.test" }
  })
})
afterAll(async () => {
  await gleaner.close()
  await smtp.close()
  await new Promise((resolve) => server.close(resolve))
})

const checkNow = async (id: string) => {
  const started = await gleaner.runMonitor(id)
  for (let i = 0; i < 200; i++) {
    const check = await gleaner.getMonitorCheck(id, started.id)
    if (check.status !== "queued" && check.status !== "running") return check
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("the check did not finish")
}
const statuses = (check: { readonly pages: ReadonlyArray<{ readonly url: string; readonly status: string }> }) =>
  Object.fromEntries(check.pages.map((p) => [new URL(p.url).pathname, p.status]))

describe("monitors in-process", () => {
  it("a crawl target reports new, changed, same and removed pages, and mails each check", async () => {
    pages["/"] = page("Home", "Welcome", ["/a", "/b"])
    pages["/a"] = page("A", "Alpha costs 10 euros", [])
    pages["/b"] = page("B", "Beta", [])
    const monitor = await gleaner.createMonitor({
      name: "Site",
      schedule: { text: "every 6 hours", timezone: "Europe/Berlin" },
      targets: [{ type: "crawl", url: `${origin}/`, crawlOptions: { limit: 10, sitemap: "skip" } }],
      notification: { email: { enabled: true, recipients: ["team@example.com"], includeDiffs: true } },
      ignore: { patterns: ["^Rendered at "] },
      goal: "price in euros"
    })
    expect(monitor.schedule).toEqual({ cron: "0 */6 * * *", timezone: "Europe/Berlin" })
    // a crawl target without a known page count is estimated at its limit: 120 runs × 10 pages
    expect(monitor.estimatedCreditsPerMonth).toBe(1200)

    const first = await checkNow(monitor.id)
    expect(statuses(first)).toEqual({ "/": "new", "/a": "new", "/b": "new" })
    expect(first.targetResults[0]).toMatchObject({ type: "crawl", pages: 3 })
    // the estimate follows the pages the crawl found
    expect((await gleaner.getMonitor(monitor.id)).estimatedCreditsPerMonth).toBe(1200)

    // the clock line changes on every render and is ignored; /b goes away, /c arrives, /a changes
    pages["/"] = page("Home", "Welcome", ["/a", "/c"])
    pages["/a"] = page("A", "Alpha costs 12 euros", [])
    pages["/c"] = page("C", "Gamma", [])
    delete pages["/b"]
    const second = await checkNow(monitor.id)
    // the home page's link list is navigation to the main-content extractor: its text did not change
    expect(statuses(second)).toEqual({ "/": "same", "/a": "changed", "/b": "removed", "/c": "new" })
    expect(second.status).toBe("completed")
    const alpha = second.pages.find((p) => p.url.endsWith("/a"))
    expect(alpha?.diff?.text).toContain("+Alpha costs 12 euros")
    expect(alpha?.diff?.text).not.toContain("Rendered at")
    expect(alpha?.judgment).toMatchObject({ meaningful: true, judge: "deterministic" })
    expect(second.summary).toEqual({ totalPages: 4, same: 1, changed: 1, new: 1, removed: 1, error: 0 })

    const third = await checkNow(monitor.id)
    expect(statuses(third)).toEqual({ "/": "same", "/a": "same", "/c": "same" })

    // one e-mail per check that had news: the first and second
    const mails = await smtp.waitForMessages(2)
    expect(mails.map((m) => m.from)).toEqual(["watch@gleaner.test", "watch@gleaner.test"])
    expect(mails[1]?.text).toContain(`REMOVED  ${origin}/b`)
    expect(mails[1]?.text).toContain("+Alpha costs 12 euros")
    expect(smtp.messages).toHaveLength(2)
    expect(third.notificationStatus).toMatchObject({ email: { status: "nothing_to_report" } })

    const checks = await gleaner.listMonitorChecks(monitor.id)
    expect(checks.map((c) => c.id)).toEqual([third.id, second.id, first.id])
    expect((await gleaner.listMonitorChecks(monitor.id, { status: "failed" }))).toEqual([])
    expect((await gleaner.listMonitors()).map((m) => m.id)).toContain(monitor.id)
  })

  it("a page whose only differences are noise is never `changed` over 20 checks", async () => {
    let served = 0
    // every request renders new tokens, timestamps and cache-busters; the content stays the same
    const noisy = () => {
      served += 1
      const token = randomBytes(24).toString("base64url")
      const epoch = Date.now() + served
      return `<html><head><title>Plans</title><link rel="stylesheet" href="/style.${randomBytes(5).toString("hex")}.css"></head><body>
        <header><a href="/?utm_source=mail&utm_campaign=${served}">Home</a> <a href="/account;jsessionid=${randomBytes(16).toString("hex").toUpperCase()}">Account</a></header>
        <main><h1>Plans</h1>
          <p>The Team plan costs $49 a month and includes 5 seats.</p>
          <p><img src="/chart.png?v=${epoch}" alt="Usage chart"> <a href="/pricing.pdf?cb=${epoch}&fbclid=${token}">Download the price list</a></p>
          <form action="/subscribe?csrf_token=${token}"><button>Subscribe</button></form>
          <p>Request ${randomUUID()} served in ${served % 7} ms.</p>
          <div class="freshness">Updated ${new Date(epoch).toUTCString()} (${served} views)</div>
          <p><a href="/checkout?plan=team&session_id=${token}">Buy now</a></p>
        </main></body></html>`
    }
    const dynamic = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(noisy()))
    await new Promise<void>((resolve) => dynamic.listen(0, "127.0.0.1", resolve))
    const address = dynamic.address()
    const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/plans`
    try {
      const monitor = await gleaner.createMonitor({
        name: "Noisy plans",
        schedule: { cron: "0 0 * * *" },
        targets: [{ type: "scrape", urls: [url] }],
        ignore: { selectors: [".freshness"], patterns: ["^Request .* served in \\d+ ms\\.$"] }
      })
      const results: Array<string> = []
      for (let i = 0; i < 21; i++) results.push((await checkNow(monitor.id)).pages[0]?.status ?? "none")
      expect(results[0]).toBe("new")
      expect(results.slice(1)).toEqual(Array.from({ length: 20 }, () => "same"))
      expect(served).toBe(21)
      await gleaner.deleteMonitor(monitor.id)
    } finally {
      await new Promise((resolve) => dynamic.close(resolve))
    }
  })

  it("updates, pauses and deletes; bad input and unknown ids are refused", async () => {
    pages["/solo"] = page("Solo", "One page", [])
    const monitor = await gleaner.createMonitor({
      name: "Solo",
      schedule: { cron: "0 9 * * 1-5", timezone: "UTC" },
      targets: [{ type: "scrape", urls: [`${origin}/solo`] }]
    })
    const renamed = await gleaner.updateMonitor(monitor.id, { name: "Solo page", retentionDays: 7 })
    expect(renamed).toMatchObject({ name: "Solo page", retentionDays: 7, status: "active" })
    const paused = await gleaner.updateMonitor(monitor.id, { status: "paused" })
    expect(paused.nextRunAt).toBeNull()
    await expect(gleaner.runMonitor(monitor.id)).rejects.toMatchObject({ status: 409 })
    const resumed = await gleaner.updateMonitor(monitor.id, { status: "active" })
    expect(resumed.nextRunAt).not.toBeNull()
    await expect(gleaner.updateMonitor(monitor.id, {})).rejects.toMatchObject({ status: 400, message: "Update body cannot be empty" })
    await expect(gleaner.createMonitor({ name: "x", schedule: { cron: "* * *" }, targets: [{ type: "scrape", urls: [`${origin}/solo`] }] }))
      .rejects.toBeInstanceOf(GleanerClientError)
    expect(await gleaner.deleteMonitor(monitor.id)).toBe(true)
    await expect(gleaner.getMonitor(monitor.id)).rejects.toMatchObject({ status: 404 })
  })
})
