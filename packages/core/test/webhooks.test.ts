/**
 * The pure parts of webhooks: signatures, the event filter, the request's webhook field, the
 * payload of each event, the retry schedule and its setting.
 */
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { describe, expect, it } from "vitest"
import {
  generateWebhookSecret,
  GleanerConfig,
  jobWebhookEvents,
  nextRetryAt,
  shortEventName,
  verifyWebhookSignature,
  wantsEvent,
  webhookPayload,
  webhookSignature,
  webhookTarget
} from "@gleaner/core"

describe("webhookSignature", () => {
  it("is sha256= and the hex HMAC-SHA256 of the body (RFC 4231 test case 2)", () => {
    expect(webhookSignature("Jefe", "what do ya want for nothing?")).toBe(
      "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    )
  })

  it("covers the body's UTF-8 bytes, so any change breaks it", () => {
    const secret = generateWebhookSecret()
    const body = JSON.stringify({ success: true, data: [{ markdown: "café — ✓" }] })
    const header = webhookSignature(secret, body)
    expect(verifyWebhookSignature(secret, body, header)).toBe(true)
    expect(verifyWebhookSignature(secret, body.replace("é", "e"), header)).toBe(false)
    expect(verifyWebhookSignature(generateWebhookSecret(), body, header)).toBe(false)
    expect(verifyWebhookSignature(secret, body, header.slice(0, -1))).toBe(false)
    expect(verifyWebhookSignature(secret, body, undefined)).toBe(false)
  })

  it("secrets are 32 random bytes in hex", () => {
    const a = generateWebhookSecret()
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(generateWebhookSecret()).not.toBe(a)
  })
})

describe("the events filter", () => {
  it("lets everything through when absent or empty", () => {
    expect(wantsEvent([], "crawl.page")).toBe(true)
    expect(wantsEvent(webhookTarget("https://h.test/x").events, "batch_scrape.completed")).toBe(true)
  })

  it("matches short and long names", () => {
    expect(wantsEvent(["page"], "crawl.page")).toBe(true)
    expect(wantsEvent(["page"], "batch_scrape.page")).toBe(true)
    expect(wantsEvent(["crawl.page"], "crawl.page")).toBe(true)
    expect(wantsEvent(["completed", "started"], "crawl.page")).toBe(false)
    expect(wantsEvent(["crawl.page"], "batch_scrape.page")).toBe(false)
    expect(wantsEvent(["failed"], "extract.failed")).toBe(true)
  })

  it("short names drop only the first part", () => {
    expect(shortEventName("crawl.page")).toBe("page")
    expect(shortEventName("monitor.check.completed")).toBe("check.completed")
    expect(wantsEvent(["check.completed"], "monitor.check.completed")).toBe(true)
  })
})

describe("webhookTarget", () => {
  it("a bare URL is {url} with nothing else", () => {
    expect(webhookTarget("https://h.test/in")).toEqual({ url: "https://h.test/in", headers: {}, metadata: {}, events: [] })
  })

  it("the object form keeps headers, metadata and events", () => {
    expect(webhookTarget({ url: "https://h.test/in", headers: { "X-A": "1" }, metadata: { run: "7" }, events: ["page"] })).toEqual({
      url: "https://h.test/in", headers: { "X-A": "1" }, metadata: { run: "7" }, events: ["page"]
    })
  })
})

describe("webhookPayload", () => {
  const id = "0198f1c3-0000-7000-8000-000000000001"
  const webhookId = "0198f1c3-0000-7000-8000-0000000000ff"

  it("started and completed carry empty data and the caller's metadata", () => {
    expect(webhookPayload(jobWebhookEvents.started("crawl", id), webhookId, { run: "7" })).toEqual({
      success: true, type: "crawl.started", id, webhookId, data: [], metadata: { run: "7" }
    })
    expect(webhookPayload(jobWebhookEvents.completed("batch_scrape", id), webhookId, {})).toEqual({
      success: true, type: "batch_scrape.completed", id, webhookId, data: [], metadata: {}
    })
  })

  it("a page carries its document; a failed page its error and source URL", () => {
    const document = { markdown: "# Hi", metadata: { sourceURL: "https://s.test/", statusCode: 200 } }
    expect(webhookPayload(jobWebhookEvents.page("crawl", id, document), webhookId, {})).toEqual({
      success: true, type: "crawl.page", id, webhookId, data: [document], metadata: {}
    })
    const failed = webhookPayload(jobWebhookEvents.pageFailed("crawl", id, "https://s.test/broken", "timed out"), webhookId, {})
    expect(failed).toEqual({
      success: false, type: "crawl.page", id, webhookId, error: "timed out",
      data: [{ metadata: { sourceURL: "https://s.test/broken" } }], metadata: {}
    })
    expect(Object.keys(failed)).toEqual(["success", "type", "id", "webhookId", "error", "data", "metadata"])
  })

  it("no error key on success", () => {
    expect("error" in webhookPayload({ type: "extract.completed", id, data: [{ x: 1 }] }, webhookId, {})).toBe(false)
  })
})

describe("retries", () => {
  it("follow the delays, one per failed attempt, then stop", () => {
    const delays = [60_000, 300_000, 900_000]
    expect(nextRetryAt(1, 1000, delays)).toBe(61_000)
    expect(nextRetryAt(2, 1000, delays)).toBe(301_000)
    expect(nextRetryAt(3, 1000, delays)).toBe(901_000)
    expect(nextRetryAt(4, 1000, delays)).toBeNull()
    expect(nextRetryAt(1, 1000, [])).toBeNull()
  })

  const read = (env: Record<string, string>) =>
    Effect.runPromiseExit(Effect.map(
      GleanerConfig.pipe(Effect.provide(GleanerConfig.fromEnv.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))),
      (c) => [c.webhookRetrySeconds, c.webhookPollMs] as const
    ))

  it("GLEANER_WEBHOOK_RETRY_SECONDS: 1, 5 and 15 minutes by default; seconds, decimals or none when set", async () => {
    expect(await read({})).toEqual(Exit.succeed([[60, 300, 900], 1000]))
    expect(await read({ GLEANER_WEBHOOK_RETRY_SECONDS: "1, 2.5", GLEANER_WEBHOOK_POLL_MS: "50" })).toEqual(Exit.succeed([[1, 2.5], 50]))
    expect(await read({ GLEANER_WEBHOOK_RETRY_SECONDS: "" })).toEqual(Exit.succeed([[], 1000]))
    expect(Exit.isFailure(await read({ GLEANER_WEBHOOK_RETRY_SECONDS: "1m" }))).toBe(true)
    expect(Exit.isFailure(await read({ GLEANER_WEBHOOK_RETRY_SECONDS: "-1" }))).toBe(true)
  })
})
