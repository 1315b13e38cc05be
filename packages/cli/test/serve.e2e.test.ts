/**
 * The README's first command, for real: `pnpm start` on a fresh data directory starts the server
 * with no other set-up, prints a key once, and the official SDK works with that key. Keys and
 * teams made with the CLI work against the running server; a restart on the same data directory
 * keeps teams, keys and the credit ledger; a pinned GLEANER_API_KEY is used instead of a new one.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Firecrawl from "@mendable/firecrawl-js"
import { Billing, databaseUrlOf, EngineLive, GleanerConfig, Store } from "@gleaner/core"
import { UndiciFetcher } from "@gleaner/fetch-undici"
import { CronScheduler } from "@gleaner/scheduler-croner"
import { storeLayerFromUrl } from "@gleaner/store-sql"
import { Effect, Layer, Option } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { startFixtureSite } from "@gleaner/fixture-site"
import { findChromium } from "@gleaner/browser-playwright"
import { gleaner, gleanerOutput, startServer } from "./processes.js"

const dirs: Array<string> = []
const freshDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "gleaner-e2e-"))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const hasChromium = Option.isSome(Effect.runSync(Effect.orElseSucceed(findChromium(process.env), () => Option.none())))
if (!hasChromium) {
  const message = "[cli] no Chromium (apt-get install -y chromium-headless-shell): gleaner scrape --screenshot is not tested"
  if (process.env["CI"] === "true") throw new Error(`CI=true but ${message}`)
  console.warn(`\n${message}\n`)
}

const get = async (url: string, key?: string) => {
  const response = await fetch(url, key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } })
  return { status: response.status, body: (await response.json()) as unknown }
}

/** Debits credits straight into the ledger of a stopped server's database. */
const debit = (dataDir: string, credits: number) =>
  Effect.runPromise(Effect.gen(function*() {
    const store = yield* Store
    const team = Option.getOrThrow(yield* store.teams.findByName("default"))
    yield* (yield* Billing).debit({ teamId: team.id, operation: "scrape", credits })
  }).pipe(Effect.provide(EngineLive.pipe(
    Layer.provideMerge(storeLayerFromUrl(databaseUrlOf({ dataDir, databaseUrl: Option.none() }))),
    Layer.provideMerge(UndiciFetcher.layer),
    Layer.provideMerge(CronScheduler),
    Layer.provideMerge(GleanerConfig.layer({ dataDir }))
  ))))

describe("gleaner serve (pnpm start)", () => {
  it("starts on a fresh data directory and the printed key works with the official SDK", async () => {
    const dataDir = freshDataDir()
    const server = await startServer({ GLEANER_DATA_DIR: dataDir })
    try {
      expect(server.output()).toContain("shown once")
      expect(server.output()).toContain(`curl -H "Authorization: Bearer ${server.printedKey}"`)
      const key = server.printedKey ?? ""
      const sdk = new Firecrawl({ apiKey: key, apiUrl: server.url })

      const credits = await sdk.getCreditUsage()
      expect(credits).toMatchObject({ remainingCredits: 100_000_000, planCredits: 100_000_000 })
      expect(credits.billingPeriodStart).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/)
      const tokens = await sdk.getTokenUsage()
      expect(tokens).toMatchObject({ remainingTokens: 1_500_000_000, planTokens: 1_500_000_000 })
      expect(await sdk.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 50 })
      expect(await sdk.getQueueStatus()).toEqual({
        success: true,
        jobsInQueue: 0,
        activeJobsInQueue: 0,
        waitingJobsInQueue: 0,
        maxConcurrency: 50,
        mostRecentSuccess: null
      })

      // without a key, or with a wrong one: the upstream 401 envelope
      expect(await get(`${server.url}/v2/team/credit-usage`)).toEqual({
        status: 401,
        body: { success: false, code: "UNAUTHORIZED", error: "Unauthorized: Token missing" }
      })
      await expect(new Firecrawl({ apiKey: "fc-00000000000000000000000000000000", apiUrl: server.url }).getCreditUsage())
        .rejects.toMatchObject({ status: 401, message: "Unauthorized: Invalid token" })

      // keys and teams made with the CLI while the server runs
      const env = { GLEANER_DATA_DIR: dataDir }
      const made = JSON.parse(await gleaner(["keys", "create", "--name", "ci", "--json"], env)) as { id: string; key: string }
      expect((await get(`${server.url}/v2/team/token-usage`, made.key)).status).toBe(200)
      const listed = await gleaner(["keys", "list"], env)
      expect(listed).toContain(made.key.slice(0, 9))
      expect(listed).not.toContain(made.key)
      await gleaner(["keys", "revoke", made.id], env)
      expect((await get(`${server.url}/v2/team/token-usage`, made.key)).status).toBe(401)

      const team = JSON.parse(await gleaner(["teams", "create", "acme", "--plan", "free", "--json"], env)) as { apiKey: string }
      expect(await new Firecrawl({ apiKey: team.apiKey, apiUrl: server.url }).getCreditUsage()).toMatchObject({ remainingCredits: 500, planCredits: 500 })
      expect(await gleaner(["teams", "list"], env)).toMatch(/acme\s+free\s+2/)
    } finally {
      await server.stop()
    }
  }, 180_000)

  it("stops cleanly on SIGTERM", async () => {
    const server = await startServer({ GLEANER_DATA_DIR: freshDataDir() }, { direct: true })
    expect(await server.stop("SIGTERM")).toBe(0)
    expect(server.output()).not.toMatch(/level=ERROR|ERROR \(/)
  }, 60_000)

  it("keeps teams, keys and the ledger across a restart", async () => {
    const dataDir = freshDataDir()
    const first = await startServer({ GLEANER_DATA_DIR: dataDir })
    const key = first.printedKey ?? ""
    await first.stop()
    await debit(dataDir, 7)

    const second = await startServer({ GLEANER_DATA_DIR: dataDir })
    try {
      expect(second.printedKey).toBeUndefined()
      const sdk = new Firecrawl({ apiKey: key, apiUrl: second.url })
      expect((await sdk.getCreditUsage()).remainingCredits).toBe(100_000_000 - 7)
      const history = await sdk.getCreditUsageHistorical(true)
      expect(history.periods.map((p) => [p.creditsUsed, p.apiKey])).toEqual([[7, "(no key)"]])
    } finally {
      await second.stop()
    }
  }, 180_000)

  it("uses a pinned GLEANER_API_KEY instead of printing a new one, on every start", async () => {
    const dataDir = freshDataDir()
    const pinned = "fc-0123456789abcdef0123456789abcdef"
    for (let start = 0; start < 2; start++) {
      const server = await startServer({ GLEANER_DATA_DIR: dataDir, GLEANER_API_KEY: pinned })
      try {
        expect(server.printedKey).toBeUndefined()
        expect((await get(`${server.url}/v2/concurrency-check`, pinned)).body).toEqual({ success: true, concurrency: 0, maxConcurrency: 50 })
      } finally {
        await server.stop()
      }
    }
  }, 180_000)

  it("gleaner scrape prints a page's markdown", async () => {
    const site = await startFixtureSite({ sitePages: 5, bombMegabytes: 16 })
    try {
      const env = { GLEANER_DATA_DIR: freshDataDir(), GLEANER_ALLOWED_NETWORKS: "127.0.0.0/8" }
      const markdown = await gleaner(["scrape", `${site.url}/article`], env)
      expect(markdown).toMatch(/^# /m)
      const links = JSON.parse(await gleaner(["scrape", `${site.url}/article`, "--format", "links"], env)) as Array<string>
      expect(links.length).toBeGreaterThan(0)
      const doc = JSON.parse(await gleaner(["scrape", `${site.url}/article`, "--json"], env)) as { metadata: { cacheState: string } }
      expect(doc.metadata.cacheState).toBe("hit")
    } finally {
      await site.close()
    }
  }, 60_000)

  it.skipIf(!hasChromium)("gleaner scrape --screenshot saves a full-page PNG and still prints the markdown", async () => {
    const site = await startFixtureSite({ sitePages: 5, bombMegabytes: 16 })
    try {
      const dataDir = freshDataDir()
      const file = join(dataDir, "page.png")
      const env = { GLEANER_DATA_DIR: dataDir, GLEANER_ALLOWED_NETWORKS: "127.0.0.0/8" }
      const out = await gleanerOutput(["scrape", `${site.url}/article`, "--screenshot", file], env)
      expect(out.stdout).toMatch(/^# /m)
      expect(out.stderr).toContain(`Screenshot saved to ${file}`)
      expect([...readFileSync(file).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47])
    } finally {
      await site.close()
    }
  }, 60_000)

  it("gleaner crawl shows progress and lists the pages; gleaner map lists the URLs", async () => {
    const site = await startFixtureSite({ sitePages: 40, bombMegabytes: 16 })
    try {
      const env = { GLEANER_DATA_DIR: freshDataDir(), GLEANER_ALLOWED_NETWORKS: "127.0.0.0/8", GLEANER_JOB_POLL_MS: "50" }
      const crawled = await gleanerOutput(["crawl", `${site.url}/site`, "--limit", "12", "--sitemap", "skip"], env)
      const lines = crawled.stdout.trim().split("\n")
      expect(lines).toHaveLength(12)
      for (const line of lines) expect(line).toMatch(new RegExp(`^200 ${site.url}/site`))
      expect(crawled.stderr).toContain("12/12 pages")
      expect(crawled.stderr).toMatch(/completed: 12 pages, 0 failed, \d+ blocked by robots\.txt, 12 credits/)
      const json = JSON.parse(await gleaner(["crawl", `${site.url}/site`, "--limit", "3", "--sitemap", "skip", "--json", "--quiet"], env)) as { status: string; data: Array<{ markdown: string }> }
      expect(json.status).toBe("completed")
      expect(json.data).toHaveLength(3)
      expect(json.data[0]?.markdown).toMatch(/Site (index|page)/)

      const mapped = (await gleaner(["map", `${site.url}/site`], env)).trim().split("\n")
      expect(mapped.filter((url) => /\/site\/\d+$/.test(url))).toHaveLength(40)
      const ranked = (await gleaner(["map", `${site.url}/site`, "--search", "page 7", "--limit", "1"], env)).trim()
      expect(ranked).toBe(`${site.url}/site/7`)
    } finally {
      await site.close()
    }
  }, 120_000)

  it("gleaner monitor create, run (twice), list and checks", async () => {
    const site = await startFixtureSite({ sitePages: 5, bombMegabytes: 16 })
    try {
      const env = { GLEANER_DATA_DIR: freshDataDir(), GLEANER_ALLOWED_NETWORKS: "127.0.0.0/8", GLEANER_JOB_POLL_MS: "50" }
      const created = await gleanerOutput(["monitor", "create", "--name", "Fixture pages", "--cron", "0 */6 * * *", "--timezone", "Europe/Berlin",
        "--url", `${site.url}/site/1`, "--url", `${site.url}/site/2`], env)
      const id = created.stdout.trim()
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      expect(created.stderr).toContain("Monitor \"Fixture pages\" (0 */6 * * *, Europe/Berlin)")
      expect(created.stderr).toContain("about 240 credits a month")

      const first = await gleanerOutput(["monitor", "run", id], env)
      expect(first.stdout.trim().split("\n")).toEqual([`new     ${site.url}/site/1`, `new     ${site.url}/site/2`])
      expect(first.stderr).toMatch(/completed: 2 pages, 0 same, 0 changed, 2 new, 0 removed, 0 errors, 2 credits/)
      const second = await gleanerOutput(["monitor", "run", id, "--quiet"], env)
      expect(second.stdout.trim().split("\n")).toEqual([`same    ${site.url}/site/1`, `same    ${site.url}/site/2`])

      const listed = await gleaner(["monitor", "list"], env)
      expect(listed).toContain(`${id}  active  0 */6 * * * Europe/Berlin  Fixture pages  (0 changed, 0 new, 0 removed, 0 errors)`)
      const checks = (await gleaner(["monitor", "checks", id], env)).trim().split("\n")
      expect(checks).toHaveLength(2)
      expect(checks[0]).toMatch(/manual\s+completed\s+0 changed, 0 new, 0 removed, 0 errors of 2$/)
      expect(checks[1]).toMatch(/manual\s+completed\s+0 changed, 2 new, 0 removed, 0 errors of 2$/)
    } finally {
      await site.close()
    }
  }, 120_000)

  it("gleaner migrate reports what it applied", async () => {
    const env = { GLEANER_DATA_DIR: freshDataDir() }
    expect(await gleaner(["migrate"], env)).toContain("Applied: 0001_foundation, 0002_scrape")
    expect(await gleaner(["migrate"], env)).toContain("up to date")
  }, 60_000)
})
