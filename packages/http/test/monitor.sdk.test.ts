/**
 * Monitors end to end with the official SDK against a real server: a monitor on a local page is
 * created and read back with every field, run three times — the page `new`, then `changed` with a
 * diff and a signed `monitor.page` webhook at a local receiver, then `same` with no page event —
 * with an e-mail carrying the diff at a real SMTP server on loopback; then paused (a run is
 * refused) and deleted (404). The raw API's 400s, 409s and pagination are checked alongside.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import { verifyWebhookSignature, Webhooks } from "@gleaner/core"
import { type SmtpTestServer, startSmtpServer } from "@gleaner/fixture-site"
import { SmtpMailer } from "@gleaner/mailer-smtp"
import { Effect, Layer, Schema } from "effect"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { sdk, sdkError, servePages } from "./browser-support.js"
import { appWithWorkersLayer, BootstrapKey, bootstrapKey, call } from "./support.js"

// the watched site: its pages change when the test says so
const content: Record<string, string> = {
  "/pricing": "<html><head><title>Pricing</title></head><body><main><h1>Pricing</h1><p>The Pro plan costs $19 per month.</p><p>Cancel any time.</p></main></body></html>"
}
let slowMs = 0
const site = servePages((request, response) => {
  const path = new URL(request.url ?? "/", "http://x").pathname
  const body = content[path]
  setTimeout(() => {
    response.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" })
    response.end(body ?? "not found")
  }, path === "/slow" ? slowMs : 0)
})
content["/slow"] = "<html><body><p>Slow page</p></body></html>"

interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
}
const received: Array<Received> = []
let receiver: Server
let receiverUrl = ""
let smtp: SmtpTestServer
beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  const address = receiver.address()
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hooks`
  smtp = await startSmtpServer()
})
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve))
  await smtp.close()
})

const settings = { allowedNetworks: ["127.0.0.0/8"], webhookPollMs: 100 }
// the SMTP server's port is known once it listens: the mailer layer is made when the layer is built
const mailer = Layer.unwrapEffect(Effect.sync(() => SmtpMailer.layer({ url: smtp.url, from: "monitors@gleaner.test" })))
const env = bootstrapKey.pipe(Layer.provideMerge(appWithWorkersLayer(settings)), Layer.provide(mailer))

const Event = Schema.parseJson(Schema.Struct({
  success: Schema.Boolean,
  type: Schema.String,
  id: Schema.String,
  webhookId: Schema.String,
  data: Schema.Array(Schema.Struct({
    monitorId: Schema.String,
    checkId: Schema.String,
    status: Schema.String,
    url: Schema.optional(Schema.String),
    isMeaningful: Schema.optional(Schema.Boolean),
    diff: Schema.optional(Schema.Struct({ text: Schema.optional(Schema.String) })),
    summary: Schema.optional(Schema.Struct({ totalPages: Schema.Number, same: Schema.Number, changed: Schema.Number }))
  })),
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}))
const events = () => received.map((r) => ({ ...Schema.decodeUnknownSync(Event)(r.body), signature: r.headers["x-firecrawl-signature"], raw: r.body }))

const waitFor = <A>(what: string, probe: Effect.Effect<A | undefined>, tries = 150) =>
  Effect.gen(function*() {
    for (let i = 0; i < tries; i++) {
      const found = yield* probe
      if (found !== undefined) return found
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.dieMessage(`timed out waiting for ${what}`)
  })

/** Runs the monitor and waits until the check has finished; the check with its pages. */
const runAndWait = (monitorId: string) =>
  Effect.gen(function*() {
    const firecrawl = yield* sdk
    const started = yield* Effect.promise(() => firecrawl.runMonitor(monitorId))
    assert.strictEqual(started.status, "queued")
    assert.strictEqual(started.trigger, "manual")
    return yield* waitFor("the check to finish", Effect.promise(async () => {
      const check = await firecrawl.getMonitorCheck(monitorId, started.id)
      return check.status === "queued" || check.status === "running" ? undefined : check
    }))
  })

/** `hour:minute` of an instant in Europe/Berlin. */
const berlinTime = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso))

layer(env, { excludeTestServices: true, timeout: 90_000 })("monitors through the SDK", (it) => {
  it.effect("create, get, new → changed (diff, signed webhook, e-mail) → same (no page event), pause, delete", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { teamId } = yield* BootstrapKey
      const page = `${site.origin}/pricing`
      const created = yield* Effect.promise(() =>
        firecrawl.createMonitor({
          name: "Pricing watch",
          schedule: { cron: "0 */6 * * *", timezone: "Europe/Berlin" },
          targets: [{ type: "scrape", urls: [page] }],
          webhook: { url: receiverUrl, metadata: { team: "growth" }, events: ["monitor.page", "monitor.check.completed"] },
          notification: { email: { enabled: true, recipients: ["ops@example.com"], includeDiffs: true } },
          retentionDays: 14,
          goal: "Tell me when the cost of the \"Pro plan\" changes",
          judgeEnabled: true
        }))

      // every field of the seed's monitor resource, as GET returns it
      const monitor = yield* Effect.promise(() => firecrawl.getMonitor(created.id))
      assert.strictEqual(monitor.id, created.id)
      assert.strictEqual(monitor.name, "Pricing watch")
      assert.strictEqual(monitor.status, "active")
      assert.deepStrictEqual(monitor.schedule, { cron: "0 */6 * * *", timezone: "Europe/Berlin" })
      const nextRunAt = monitor.nextRunAt ?? ""
      assert.isAbove(Date.parse(nextRunAt), Date.now())
      assert.isBelow(Date.parse(nextRunAt), Date.now() + 6 * 3_600_000 + 60_000)
      assert.include(["00:00", "06:00", "12:00", "18:00"], berlinTime(nextRunAt))
      assert.isNull(monitor.lastRunAt)
      assert.isNull(monitor.currentCheckId)
      assert.strictEqual(monitor.targets.length, 1)
      const target = monitor.targets[0]
      assert.strictEqual(target?.type, "scrape")
      assert.match(target?.id ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      assert.deepStrictEqual(target?.type === "scrape" ? target.urls : [], [page])
      assert.deepStrictEqual(monitor.webhook, { url: receiverUrl, metadata: { team: "growth" }, events: ["monitor.page", "monitor.check.completed"] })
      assert.deepStrictEqual(monitor.notification, { email: { enabled: true, recipients: ["ops@example.com"], includeDiffs: true } })
      assert.strictEqual(monitor.retentionDays, 14)
      // 4 runs a day × 30 days × 1 page × 1 credit
      assert.strictEqual(monitor.estimatedCreditsPerMonth, 120)
      assert.isNull(monitor.lastCheckSummary)
      assert.strictEqual(monitor.goal, "Tell me when the cost of the \"Pro plan\" changes")
      assert.strictEqual(monitor.judgeEnabled, true)
      assert.isTrue(Date.parse(monitor.createdAt) > 0 && Date.parse(monitor.updatedAt) > 0)
      assert.deepStrictEqual((yield* Effect.promise(() => firecrawl.listMonitors())).map((m) => m.id), [created.id])

      // first check: the page is new
      const first = yield* runAndWait(created.id)
      assert.strictEqual(first.status, "completed")
      assert.deepStrictEqual(first.summary, { totalPages: 1, same: 0, changed: 0, new: 1, removed: 0, error: 0 })
      assert.strictEqual(first.pages[0]?.status, "new")
      assert.strictEqual(first.pages[0]?.url, page)

      // second check: the price changed
      content["/pricing"] = (content["/pricing"] ?? "").replace("$19", "$24")
      const second = yield* runAndWait(created.id)
      assert.strictEqual(second.status, "completed")
      assert.strictEqual(second.summary.changed, 1)
      const changed = second.pages[0]
      assert.strictEqual(changed?.status, "changed")
      assert.include(changed?.diff?.text ?? "", "-The Pro plan costs $19 per month.")
      assert.include(changed?.diff?.text ?? "", "+The Pro plan costs $24 per month.")
      assert.strictEqual(changed?.previousScrapeId, first.pages[0]?.currentScrapeId)
      assert.strictEqual(changed?.judgment?.meaningful, true)
      assert.include(changed?.judgment?.reason ?? "", "Deterministic judge")
      assert.isAtLeast(second.actualCredits ?? 0, 1)
      assert.strictEqual(second.billingStatus, "confirmed")

      // its monitor.page event arrives signed with the team's secret
      const pageEvent = yield* waitFor("the monitor.page event", Effect.sync(() =>
        events().find((e) => e.type === "monitor.page" && e.data[0]?.checkId === second.id)))
      const secret = yield* Effect.flatMap(Webhooks, (w) => w.secret(teamId))
      assert.isTrue(verifyWebhookSignature(secret, pageEvent.raw, typeof pageEvent.signature === "string" ? pageEvent.signature : undefined))
      assert.strictEqual(pageEvent.id, created.id)
      assert.deepStrictEqual(pageEvent.metadata, { team: "growth" })
      assert.strictEqual(pageEvent.data[0]?.status, "changed")
      assert.strictEqual(pageEvent.data[0]?.url, page)
      assert.strictEqual(pageEvent.data[0]?.isMeaningful, true)
      assert.include(pageEvent.data[0]?.diff?.text ?? "", "+The Pro plan costs $24 per month.")

      // and an e-mail with the diff
      const mails = yield* Effect.promise(() => smtp.waitForMessages(2))
      const mail = mails.find((m) => m.text.includes("$24"))
      assert.isDefined(mail)
      assert.deepStrictEqual(mail?.to, ["ops@example.com"])
      assert.include(mail?.subject ?? "", "Pricing watch")
      assert.include(mail?.text ?? "", `CHANGED  ${page}`)
      assert.include(mail?.text ?? "", "+The Pro plan costs $24 per month.")

      // third check: nothing changed, no page event (its completion event tells us it is over)
      const third = yield* runAndWait(created.id)
      assert.strictEqual(third.pages[0]?.status, "same")
      assert.isNull(third.pages[0]?.diff ?? null)
      yield* waitFor("the check.completed event", Effect.sync(() =>
        events().find((e) => e.type === "monitor.check.completed" && e.data[0]?.checkId === third.id)))
      assert.isUndefined(events().find((e) => e.type === "monitor.page" && e.data[0]?.checkId === third.id))
      assert.strictEqual(smtp.messages.length, 2)

      const after = yield* Effect.promise(() => firecrawl.getMonitor(created.id))
      assert.deepStrictEqual(after.lastCheckSummary, { totalPages: 1, same: 1, changed: 0, new: 0, removed: 0, error: 0 })
      assert.isNotNull(after.lastRunAt)
      assert.isNull(after.currentCheckId)
      const history = yield* Effect.promise(() => firecrawl.listMonitorChecks(created.id))
      assert.deepStrictEqual(history.map((c) => c.id), [third.id, second.id, first.id])

      // paused: no next run, and a run is refused
      const paused = yield* Effect.promise(() => firecrawl.updateMonitor(created.id, { status: "paused" }))
      assert.strictEqual(paused.status, "paused")
      assert.isNull(paused.nextRunAt)
      const refused = yield* sdkError(firecrawl.runMonitor(created.id))
      assert.strictEqual(refused.status, 409)

      // deleted: gone
      assert.isTrue(yield* Effect.promise(() => firecrawl.deleteMonitor(created.id)))
      const gone = yield* sdkError(firecrawl.getMonitor(created.id))
      assert.strictEqual(gone.status, 404)
    }))

  it.effect("refuses bad definitions with 400s that say what is wrong", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const base = { name: "m", schedule: { cron: "*/15 * * * *" }, targets: [{ type: "scrape", urls: [`${site.origin}/pricing`] }] }
      const refused = (body: unknown) => Effect.map(call("POST", "/v2/monitor", { key, json: body }), (r) => ({ status: r.status, text: r.text }))
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ ...base, schedule: { cron: "61 * * * *" } }, "Invalid cron expression"],
        [{ ...base, schedule: { cron: "0 * * * *", timezone: "Mars/Olympus" } }, "Unknown time zone"],
        [{ ...base, schedule: { text: "whenever you like" } }, "Cannot read the schedule"],
        [{ ...base, targets: [] }, "at least one target"],
        [{ ...base, targets: Array.from({ length: 51 }, () => base.targets[0]) }, "At most 50 targets"],
        [{ ...base, notification: { email: { enabled: true, recipients: Array.from({ length: 26 }, (_, i) => `u${i}@example.com`) } } }, "At most 25"],
        [{ ...base, targets: [{ type: "search", queries: ["gleaner"] }] }, "Search targets are not available"],
        [{ ...base, ignore: { patterns: ["(unclosed"] } }, "(unclosed"]
      ]
      for (const [body, message] of cases) {
        const reply = yield* refused(body)
        assert.strictEqual(reply.status, 400, reply.text)
        assert.include(reply.text, message)
      }
      // schedule.text is read into a cron expression
      const created = yield* call("POST", "/v2/monitor", { key, json: { ...base, schedule: { text: "daily at 9:30", timezone: "Europe/Berlin" } } })
      assert.strictEqual(created.status, 200, created.text)
      const body = Schema.decodeUnknownSync(Schema.Struct({ data: Schema.Struct({ id: Schema.String, schedule: Schema.Struct({ cron: Schema.String }) }) }))(created.body)
      assert.strictEqual(body.data.schedule.cron, "30 9 * * *")
      const empty = yield* call("PATCH", `/v2/monitor/${body.data.id}`, { key, json: {} })
      assert.strictEqual(empty.status, 400)
      assert.include(empty.text, "Update body cannot be empty")
      const unknown = yield* call("GET", "/v2/monitor/0190a0a0-0000-7000-8000-000000000000", { key })
      assert.strictEqual(unknown.status, 404)
      yield* call("DELETE", `/v2/monitor/${body.data.id}`, { key })
    }))

  it.effect("a second run while a check is in progress is a 409 naming the running check", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      slowMs = 1500
      const monitor = yield* Effect.promise(() =>
        firecrawl.createMonitor({ name: "slow", schedule: { cron: "0 0 1 1 *" }, targets: [{ type: "scrape", urls: [`${site.origin}/slow`] }] }))
      const started = yield* Effect.promise(() => firecrawl.runMonitor(monitor.id))
      const { key } = yield* BootstrapKey
      const again = yield* call("POST", `/v2/monitor/${monitor.id}/run`, { key, json: {} })
      assert.strictEqual(again.status, 409)
      assert.include(again.text, "Monitor check is already running.")
      assert.include(again.text, started.id)
      const during = yield* Effect.promise(() => firecrawl.getMonitor(monitor.id))
      assert.strictEqual(during.currentCheckId, started.id)
      const done = yield* waitFor("the slow check", Effect.promise(async () => {
        const check = await firecrawl.getMonitorCheck(monitor.id, started.id)
        return check.status === "completed" ? check : undefined
      }))
      assert.strictEqual(done.pages[0]?.status, "new")
      slowMs = 0
      yield* Effect.promise(() => firecrawl.deleteMonitor(monitor.id))
    }))

  it.effect("a check's pages are paginated with an absolute next link the SDK follows", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      for (let i = 0; i < 7; i++) content[`/p${i}`] = `<html><body><p>Page ${i}</p></body></html>`
      const monitor = yield* Effect.promise(() =>
        firecrawl.createMonitor({
          name: "many",
          schedule: { cron: "0 0 1 1 *" },
          targets: [{ type: "scrape", urls: Array.from({ length: 7 }, (_, i) => `${site.origin}/p${i}`) }]
        }))
      const check = yield* runAndWait(monitor.id)
      assert.strictEqual(check.pages.length, 7)
      const { key } = yield* BootstrapKey
      const firstPage = yield* call("GET", `/v2/monitor/${monitor.id}/checks/${check.id}?limit=3`, { key })
      const decoded = Schema.decodeUnknownSync(Schema.Struct({
        next: Schema.String,
        data: Schema.Struct({ pages: Schema.Array(Schema.Unknown), next: Schema.String })
      }))(firstPage.body)
      assert.strictEqual(decoded.data.pages.length, 3)
      assert.match(decoded.next, /^http:\/\/127\.0\.0\.1:\d+\/v2\/monitor\/.+\?skip=3&limit=3$/)
      const all = yield* Effect.promise(() => firecrawl.getMonitorCheck(monitor.id, check.id, { limit: 3 }))
      assert.deepStrictEqual([...new Set(all.pages.map((p) => p.url))].length, 7)
      const onlyNew = yield* Effect.promise(() => firecrawl.getMonitorCheck(monitor.id, check.id, { status: "same" }))
      assert.strictEqual(onlyNew.pages.length, 0)
      const filtered = yield* Effect.promise(() => firecrawl.listMonitorChecks(monitor.id, { limit: 1 }))
      assert.strictEqual(filtered.length, 1)
      yield* Effect.promise(() => firecrawl.deleteMonitor(monitor.id))
    }))
})
