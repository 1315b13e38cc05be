/**
 * Scrape-interact end to end, with the official SDK against a real server with Chromium (render
 * pool and session browsers) and a local site: a counter clicked three times by the scrape's
 * actions reads 3 in the session (the page was replayed, a fresh load says 0); a second call runs
 * in the same session and page; stopInteraction ends and bills it; concurrent calls share one
 * new session; a replay whose action fails is SCRAPE_ACTION_ERROR naming it and leaves no
 * session behind; unknown, malformed, prompt-only, python and zero-data-retention requests are
 * refused. Without Chromium the file skips loudly (fails with CI=true).
 */
import { assert, layer } from "@effect/vitest"
import { Store } from "@gleaner/core"
import { Effect, Schema } from "effect"
import { browserServer, chromiumFor, sdk, sdkError, servePages } from "./browser-support.js"
import { BootstrapKey, call } from "./support.js"

const hasChromium = chromiumFor("scrape-interact.sdk.test.ts")

const counter = `<!doctype html><html><head><title>Counter</title></head><body><main>
<h1 id="count">0</h1><p>Each click on the button adds one to the count shown above.</p>
<button id="inc" onclick="const h = document.getElementById('count'); h.textContent = String(Number(h.textContent) + 1)">Add one</button>
</main></body></html>`

let visits = 0
const site = servePages((req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
  if (req.url === "/visits") {
    visits += 1
    return res.end(`<!doctype html><html><head><title>Visits</title><script>window.visit = ${visits}</script></head><body><h1>Visit ${visits}</h1></body></html>`)
  }
  res.end(counter)
})
const env = browserServer()

/** Fields the SDK returns but does not type (it types interact's reply as browserExecute's). */
const decodeSessionId = Schema.decodeUnknownSync(Schema.Struct({ sessionId: Schema.String }))
const decodeStopped = Schema.decodeUnknownSync(Schema.Struct({ success: Schema.Boolean, creditsBilled: Schema.Number, cleanupQueued: Schema.Boolean }))



layer(env, { excludeTestServices: true, timeout: 60_000 })("scrape-interact through the official SDK", (it) => {
  it.effect.skipIf(!hasChromium)("interact replays the scrape's actions, reuses its session, and stopInteraction bills it", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { teamId } = yield* BootstrapKey
      const clicks = [1, 2, 3].map(() => ({ type: "click" as const, selector: "#inc" }))
      const doc = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/counter`, { formats: ["markdown"], actions: clicks }))
      assert.match(doc.markdown ?? "", /^# 3$/m)
      const scrapeId = doc.metadata?.scrapeId ?? ""

      const first = yield* Effect.promise(() =>
        firecrawl.interact(scrapeId, { code: "const h1 = document.querySelector('h1').textContent; document.querySelector('#inc').click(); return h1", language: "node" }))
      assert.deepStrictEqual([first.success, first.result, first.exitCode, first.killed], [true, "3", 0, false])
      const { sessionId } = decodeSessionId(first)
      assert.match(first.cdpUrl ?? "", new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/v2/browser/${sessionId}/cdp\\?token=`))
      assert.match(first.liveViewUrl ?? "", /^http:\/\/127\.0\.0\.1:\d+\/v2\/browser\/.+\/live\?token=/)
      assert.match(first.interactiveLiveViewUrl ?? "", /&interactive=true$/)

      // the same session and page: the click of the first call is still there (a re-open would say 3)
      const second = yield* Effect.promise(() => firecrawl.interact(scrapeId, { code: "return document.querySelector('h1').textContent", language: "node" }))
      assert.deepStrictEqual([decodeSessionId(second).sessionId, second.result], [sessionId, "4"])
      const thrown = yield* Effect.promise(() => firecrawl.interact(scrapeId, { code: "throw new Error('nope')", language: "node" }))
      assert.deepStrictEqual([thrown.success, thrown.exitCode, decodeSessionId(thrown).sessionId], [false, 1, sessionId])
      assert.include(thrown.error ?? "", "nope")
      const listed = yield* Effect.promise(() => firecrawl.listBrowsers({ status: "active" }))
      assert.deepStrictEqual(listed.sessions?.map((s) => s.id), [sessionId])

      const stopped = yield* Effect.promise(() => firecrawl.stopInteraction(scrapeId))
      assert.deepStrictEqual(decodeStopped(stopped), { success: true, creditsBilled: 2, cleanupQueued: true })
      const ledger = yield* Effect.flatMap(Store, (store) => store.ledger.list(teamId, { jobId: sessionId }))
      assert.deepStrictEqual(ledger.map((e) => [e.operation, e.credits]), [["browser", 2]])
      const again = yield* sdkError(firecrawl.stopInteraction(scrapeId))
      assert.strictEqual(again.status, 404)
      assert.include(again.message, "No interactive browser session is live")

      // after it ended, a new one; two calls at once share it
      const code = "return document.querySelector('h1').textContent"
      const both = yield* Effect.promise(() => Promise.all([firecrawl.interact(scrapeId, { code }), firecrawl.interact(scrapeId, { code })]))
      const ids = both.map((r) => decodeSessionId(r).sessionId)
      assert.deepStrictEqual([both.map((r) => r.result), ids[0] === ids[1], ids[0] === sessionId], [["3", "3"], true, false])
      assert.strictEqual(decodeStopped(yield* Effect.promise(() => firecrawl.stopInteraction(scrapeId))).success, true)
    }))

  it.effect.skipIf(!hasChromium)("a replay whose action fails is SCRAPE_ACTION_ERROR naming it, and no session is left", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { teamId } = yield* BootstrapKey
      const script = "if (window.visit > 1) throw new Error('not the first visit'); return window.visit"
      const doc = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/visits`, { formats: ["markdown"], actions: [{ type: "executeJavascript", script }] }))
      const failed = yield* sdkError(firecrawl.interact(doc.metadata?.scrapeId ?? "", { code: "return 1", language: "node" }))
      assert.deepStrictEqual([failed.status, failed.code], [500, "SCRAPE_ACTION_ERROR"])
      assert.include(failed.message, "Action 1 (executeJavascript")
      assert.include(failed.message, "not the first visit")
      const active = yield* Effect.flatMap(Store, (store) => store.browserSessions.list(teamId, "active"))
      assert.deepStrictEqual(active, [])
      const ended = yield* Effect.flatMap(Store, (store) => store.browserSessions.list(teamId, "destroyed"))
      assert.deepStrictEqual(ended.filter((s) => s.endReason === "replay-failed").map((s) => s.creditsBilled), [0])
    }))

  it.effect.skipIf(!hasChromium)("unknown and malformed ids, prompt-only and python are refused", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { key } = yield* BootstrapKey
      const doc = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/counter`, { formats: ["markdown"] }))
      const scrapeId = doc.metadata?.scrapeId ?? ""
      const unknown = yield* sdkError(firecrawl.interact("0190a000-0000-7000-8000-000000000000", { code: "return 1", language: "node" }))
      assert.deepStrictEqual([unknown.status, unknown.message], [404, "Job not found"])
      const malformed = yield* call("POST", "/v2/scrape/not-a-uuid/interact", { key, json: { code: "return 1" } })
      assert.strictEqual(malformed.status, 400)
      const prompt = yield* sdkError(firecrawl.interact(scrapeId, { prompt: "Click the button", language: "node" }))
      assert.strictEqual(prompt.status, 400)
      assert.include(prompt.message, "LLM provider")
      const python = yield* sdkError(firecrawl.interact(scrapeId, { code: "print(1)", language: "python" }))
      assert.strictEqual(python.status, 400)
      assert.include(python.message, "language \"python\"")
      const extra = yield* call("POST", `/v2/scrape/${scrapeId}/interact`, { key, json: { code: "return 1", colour: "red" } })
      assert.strictEqual(extra.status, 400)
      const none = yield* call("DELETE", `/v2/scrape/${scrapeId}/interact`, { key })
      assert.strictEqual(none.status, 404)
      // zero data retention: the scrape was never stored
      const zdr = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.origin}/counter`, formats: ["markdown"], zeroDataRetention: true } })
      const zdrId = Schema.decodeUnknownSync(Schema.Struct({ data: Schema.Struct({ metadata: Schema.Struct({ scrapeId: Schema.String }) }) }))(zdr.body).data.metadata.scrapeId
      const forgotten = yield* call("POST", `/v2/scrape/${zdrId}/interact`, { key, json: { code: "return 1" } })
      assert.deepStrictEqual([forgotten.status, forgotten.body], [404, { success: false, error: "Job not found", code: "NOT_FOUND" }])
    }))
})
