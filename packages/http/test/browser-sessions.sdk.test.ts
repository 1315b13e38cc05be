/**
 * Browser sessions end to end, with the official SDK against a real server on 127.0.0.1 whose
 * engine has the Playwright SessionBrowser: create, list, execute code in the page, drive the
 * browser with playwright-core over the session's `cdpUrl`, delete and bill; expiry after
 * `activityTtl` kills the Chromium; the DevTools WebSocket refuses a request without key or
 * token; python is refused; another team's session is not found; a dead process's session is
 * billed once; a profile carries cookies and local storage from one session to the next, one
 * writer at a time. Without Chromium the file skips loudly (fails with CI=true).
 */
import { existsSync } from "node:fs"
import { connect } from "node:net"
import { assert, layer } from "@effect/vitest"
import { Accounts, BrowserExecuteResponse, BrowserSessions, Store } from "@gleaner/core"
import { Effect, Option, Schema } from "effect"
import { chromium } from "playwright-core"
import { browserServer, chromiumFor, sdk, servePages } from "./browser-support.js"
import { BootstrapKey, call, envelope } from "./support.js"

const hasChromium = chromiumFor("browser-sessions.sdk.test.ts")

const site = servePages((req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
  if (req.url === "/visit") {
    // remembers a visitor by cookie and counts visits in local storage
    return void res.end(`<!doctype html><html><head><title>Visit</title></head><body><h1 id="h">?</h1><script>
      const visits = Number(localStorage.getItem("visits") || "0") + 1
      document.getElementById("h").textContent = (document.cookie.includes("seen=yes") ? "Welcome back, visit " : "First visit ") + visits
      document.cookie = "seen=yes; max-age=3600; path=/"
      localStorage.setItem("visits", String(visits))
    </script></body></html>`)
  }
  if (req.url === "/type") return void res.end("<!doctype html><html><head><title>Search</title></head><body><input id=\"q\" autofocus></body></html>")
  res.end("<!doctype html><html><head><title>Fixture garden</title></head><body><h1>Roses</h1></body></html>")
})
const env = browserServer()

/** True once /proc has no entry for the process (it exited and was reaped). */
const goneWithin = (pid: number, ms: number) =>
  Effect.promise(async () => {
    const deadline = Date.now() + ms
    while (existsSync(`/proc/${pid}`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    return !existsSync(`/proc/${pid}`)
  })

/** The status line of a WebSocket upgrade: a refusal's plain HTTP status, or 101 (raw, to see exactly what is sent). */
const upgradeStatus = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    new Promise<number>((resolve, reject) => {
      const target = new URL(url.replace(/^ws/, "http"))
      const socket = connect(Number(target.port), target.hostname, () => {
        const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")
        socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${extra}\r\n`)
      })
      let received = ""
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1")
        const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]
        if (status !== undefined) {
          socket.destroy()
          resolve(Number(status))
        }
      })
      socket.once("error", reject)
      socket.once("close", () => resolve(0))
    }))


layer(env, { excludeTestServices: true, timeout: 60_000 })("browser sessions through the official SDK", (it) => {
  it.effect.skipIf(!hasChromium)("create, list, execute, drive over cdpUrl, delete and bill", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { teamId } = yield* BootstrapKey
      const created = yield* Effect.promise(() => firecrawl.browser({ ttl: 120, activityTtl: 60 }))
      assert.isTrue(created.success)
      const id = created.id ?? ""
      assert.match(created.cdpUrl ?? "", /^ws:\/\/127\.0\.0\.1:\d+\/v2\/browser\/.+\/cdp\?token=/)
      assert.match(created.liveViewUrl ?? "", /^http:\/\/127\.0\.0\.1:\d+\/v2\/browser\/.+\/live\?token=/)
      assert.isTrue(Date.parse(created.expiresAt ?? "") > Date.now() + 100_000)

      const active = yield* Effect.promise(() => firecrawl.listBrowsers({ status: "active" }))
      assert.deepStrictEqual(active.sessions?.map((s) => [s.id, s.status, s.cdpUrl]), [[id, "active", created.cdpUrl ?? ""]])

      const ran = yield* Effect.promise(() =>
        firecrawl.browserExecute(id, { code: "document.title = 'set by code'; console.log('two is', 1 + 1); return document.title", language: "node" }))
      assert.deepStrictEqual([ran.success, ran.result, ran.stdout, ran.exitCode, ran.killed], [true, "set by code", "two is 2\n", 0, false])
      const thrown = yield* Effect.promise(() => firecrawl.browserExecute(id, { code: "throw new Error('nope')", language: "node" }))
      assert.deepStrictEqual([thrown.exitCode, thrown.killed], [1, false])
      assert.include(thrown.stderr ?? "", "nope")
      const slow = yield* Effect.promise(() => firecrawl.browserExecute(id, { code: "for (;;) {}", language: "node", timeout: 1 }))
      assert.deepStrictEqual([slow.killed, slow.exitCode], [true, 124])

      // the session's own Chromium, driven through Gleaner's proxy with the URL's token
      const browser = yield* Effect.promise(() => chromium.connectOverCDP(created.cdpUrl ?? ""))
      const context = browser.contexts()[0]
      assert.isDefined(context)
      const page = yield* Effect.promise(() => context!.newPage())
      yield* Effect.promise(() => page.goto(`${site.origin}/garden`))
      assert.strictEqual(yield* Effect.promise(() => page.title()), "Fixture garden")
      const inPage = yield* Effect.promise(() => firecrawl.browserExecute(id, { code: "return document.querySelector('h1').textContent", language: "node" }))
      assert.strictEqual(inPage.result, "Roses")

      // the live view's frame is a JPEG
      const frame = yield* Effect.promise(() => fetch((created.liveViewUrl ?? "").replace("/live?", "/live/frame?")))
      assert.deepStrictEqual([frame.status, frame.headers.get("content-type")], [200, "image/jpeg"])

      const pid = yield* Effect.flatMap(BrowserSessions, (s) => s.processOf(id))
      assert.isDefined(pid)
      const deleted = yield* Effect.promise(() => firecrawl.deleteBrowser(id))
      assert.deepStrictEqual([deleted.success, deleted.creditsBilled], [true, 2])
      assert.isTrue((deleted.sessionDurationMs ?? 0) > 0)
      assert.isTrue(yield* goneWithin(pid ?? 0, 3_000))
      yield* Effect.promise(() => browser.close().catch(() => undefined))

      const destroyed = yield* Effect.promise(() => firecrawl.listBrowsers({ status: "destroyed" }))
      assert.deepStrictEqual(destroyed.sessions?.map((s) => [s.id, s.status]), [[id, "destroyed"]])
      const ledger = yield* Effect.flatMap(Store, (store) => store.ledger.list(teamId, { jobId: id }))
      assert.deepStrictEqual(ledger.map((e) => [e.operation, e.credits]), [["browser", 2]])
      const again = yield* call("POST", `/v2/browser/${id}/execute`, { key: (yield* BootstrapKey).key, json: { code: "return 1" } })
      assert.deepStrictEqual([again.status, again.body], [410, { success: false, error: "Browser session has been destroyed.", code: "GONE" }])
    }))

  it.effect.skipIf(!hasChromium)("the DevTools socket needs a key or the token; python is refused; other teams see 404", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const created = yield* call("POST", "/v2/interact", { key, json: { ttl: 60 } })
      assert.strictEqual(created.status, 200)
      const { cdpUrl, id } = created.body as { readonly cdpUrl: string; readonly id: string }
      const bare = cdpUrl.split("?")[0] ?? ""
      assert.strictEqual(yield* upgradeStatus(bare), 401)
      assert.strictEqual(yield* upgradeStatus(`${bare}?token=wrong`), 401)
      assert.strictEqual(yield* upgradeStatus(bare, { authorization: `Bearer ${key}` }), 101)
      assert.strictEqual(yield* upgradeStatus(cdpUrl), 101)

      const python = yield* call("POST", `/v2/interact/${id}/execute`, { key, json: { code: "print(1)", language: "python" } })
      assert.strictEqual(python.status, 400)
      assert.include((python.body as { readonly error: string }).error, "isolated code runner")
      const unknownKey = yield* call("POST", `/v2/browser/${id}/execute`, { key, json: { code: "return 1", extra: true } })
      assert.strictEqual(unknownKey.status, 400)

      const accounts = yield* Accounts
      const other = yield* accounts.createKey((yield* accounts.createTeam(`other-${id}`, "selfhost")).id)
      const foreign = yield* call("POST", `/v2/browser/${id}/execute`, { key: other.key, json: { code: "return 1" } })
      assert.strictEqual(foreign.status, 404)
      assert.strictEqual(yield* upgradeStatus(bare, { authorization: `Bearer ${other.key}` }), 404)
      const foreignDelete = yield* call("DELETE", `/v2/browser/${id}`, { key: other.key })
      assert.strictEqual(foreignDelete.status, 404)
      assert.strictEqual((yield* call("DELETE", `/v2/browser/${id}`, { key })).status, 200)
    }))

  it.effect.skipIf(!hasChromium)("execute also runs scrape actions in the session's page; a failing one is the run's error", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { key } = yield* BootstrapKey
      const session = yield* Effect.promise(() => firecrawl.browser({}))
      const path = `/v2/browser/${session.id}/execute`
      const ran = yield* call("POST", path, {
        key,
        json: { actions: [{ type: "executeJavascript", script: `location.href = "${site.origin}/"` }, { type: "wait", selector: "h1" }, { type: "executeJavascript", script: "return document.querySelector('h1').textContent" }, { type: "screenshot" }] }
      })
      const body = Schema.decodeUnknownSync(BrowserExecuteResponse)(ran.body)
      assert.deepStrictEqual([ran.status, body.exitCode, body.actions?.javascriptReturns[1]], [200, 0, { type: "string", value: "Roses" }])
      const shot = yield* Effect.promise(() => fetch(body.actions?.screenshots[0] ?? "").then((r) => r.headers.get("content-type")))
      assert.strictEqual(shot, "image/png")
      const failed = Schema.decodeUnknownSync(BrowserExecuteResponse)((yield* call("POST", path, { key, json: { actions: [{ type: "click", selector: "#missing" }], timeout: 3 } })).body)
      assert.strictEqual(failed.exitCode, 1)
      assert.include(failed.error ?? "", `Action 1 (click "#missing") failed`)
      const both = yield* call("POST", path, { key, json: { code: "return 1", actions: [{ type: "scrape" }] } })
      assert.strictEqual(both.status, 400)
      yield* Effect.promise(() => firecrawl.deleteBrowser(session.id ?? ""))
    }))

  it.effect.skipIf(!hasChromium)("the interactive live view passes text, keys, clicks and scrolls to the page; bad input is 400", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { key } = yield* BootstrapKey
      const session = yield* Effect.promise(() => firecrawl.browser({}))
      yield* call("POST", `/v2/browser/${session.id}/execute`, {
        key,
        json: { actions: [{ type: "executeJavascript", script: `location.href = "${site.origin}/type"` }, { type: "wait", selector: "#q" }] }
      })
      const inputUrl = (session.interactiveLiveViewUrl ?? "").replace("/live?", "/live/input?")
      const send = (params: Record<string, string>) =>
        Effect.promise(() => fetch(`${inputUrl}&${new URLSearchParams(params)}`, { method: "POST" }).then((r) => r.status))
      assert.strictEqual(yield* send({ kind: "click", x: "20", y: "15" }), 204)
      assert.strictEqual(yield* send({ kind: "text", text: "roses" }), 204)
      assert.strictEqual(yield* send({ kind: "key", key: "Backspace" }), 204)
      assert.strictEqual(yield* send({ kind: "scroll", dy: "200" }), 204)
      assert.strictEqual(yield* send({ kind: "teleport" }), 400)
      const typed = yield* Effect.promise(() => firecrawl.browserExecute(session.id ?? "", { code: "return document.querySelector('#q').value", language: "node" }))
      assert.strictEqual(typed.result, "rose")
      yield* Effect.promise(() => firecrawl.deleteBrowser(session.id ?? ""))
    }))

  it.effect.skipIf(!hasChromium)("a profile carries cookies and local storage from one session to the next; one writer at a time", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { key } = yield* BootstrapKey
      /** Opens /visit in the session over its cdpUrl and reads the greeting. */
      const visit = (cdpUrl: string) =>
        Effect.promise(async () => {
          const browser = await chromium.connectOverCDP(cdpUrl)
          try {
            const context = browser.contexts()[0] ?? await browser.newContext()
            const page = await context.newPage()
            await page.goto(`${site.origin}/visit`)
            return await page.textContent("#h")
          } finally {
            await browser.close()
          }
        })
      const first = yield* Effect.promise(() => firecrawl.browser({ profile: { name: "garden" } }))
      assert.strictEqual(yield* visit(first.cdpUrl ?? ""), "First visit 1")
      // while the first session may write it, nobody else may
      const second = yield* call("POST", "/v2/browser", { key, json: { profile: { name: "garden" } } })
      assert.strictEqual(second.status, 409)
      assert.include(envelope(second).error, "Profile \"garden\" is being written")
      const reader = yield* Effect.promise(() => firecrawl.browser({ profile: { name: "garden", saveChanges: false } }))
      assert.strictEqual(yield* visit(reader.cdpUrl ?? ""), "First visit 1")
      yield* Effect.promise(() => firecrawl.deleteBrowser(reader.id ?? ""))
      // ending the session saves its cookies and local storage into the profile
      yield* Effect.promise(() => firecrawl.deleteBrowser(first.id ?? ""))
      const again = yield* Effect.promise(() => firecrawl.browser({ profile: { name: "garden" } }))
      assert.strictEqual(yield* visit(again.cdpUrl ?? ""), "Welcome back, visit 2")
      yield* Effect.promise(() => firecrawl.deleteBrowser(again.id ?? ""))
      // a scrape with the same profile starts where the sessions left it
      const scraped = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/visit`, { formats: ["markdown"], profile: { name: "garden", saveChanges: false } }))
      assert.include(scraped.markdown ?? "", "Welcome back, visit 3")
    }))

  it.effect.skipIf(!hasChromium)("after activityTtl without activity the Chromium is killed and the session billed", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const { teamId } = yield* BootstrapKey
      const created = yield* Effect.promise(() => firecrawl.browser({ ttl: 60, activityTtl: 10 }))
      const id = created.id ?? ""
      const pid = yield* Effect.flatMap(BrowserSessions, (s) => s.processOf(id))
      assert.isDefined(pid)
      assert.isTrue(yield* goneWithin(pid ?? 0, 14_000))
      const ended = yield* Effect.flatMap(Store, (store) => store.browserSessions.get(teamId, id))
      assert.deepStrictEqual(Option.map(ended, (s) => [s.status, s.endReason, s.creditsBilled]), Option.some(["destroyed", "inactive", 2]))
      const ledger = yield* Effect.flatMap(Store, (store) => store.ledger.list(teamId, { jobId: id }))
      assert.deepStrictEqual(ledger.map((e) => e.credits), [2])
    }), 30_000)

  it.effect("a session left active by a dead process is destroyed and billed once", () =>
    Effect.gen(function*() {
      const store = yield* Store
      const { teamId } = yield* BootstrapKey
      const now = Date.now()
      const id = `orphan-${now}`
      yield* store.browserSessions.insert({
        id, teamId, apiKeyId: null, ownerId: "dead-process", status: "active", tokenHash: "00", streamWebView: true,
        ttlSeconds: 600, activityTtlSeconds: 300, createdAt: now - 300_000, expiresAt: now + 300_000,
        lastActivityAt: now - 200_000, seenAt: now - 170_000, endedAt: null, creditsBilled: null, endReason: null
      })
      const sessions = yield* BrowserSessions
      yield* sessions.reapOrphans
      yield* sessions.reapOrphans
      const ended = Option.getOrThrow(yield* store.browserSessions.get(teamId, id))
      // seen 130 s after it started: three started minutes
      assert.deepStrictEqual([ended.status, ended.endReason, ended.creditsBilled], ["destroyed", "orphaned", 6])
      assert.deepStrictEqual((yield* store.ledger.list(teamId, { jobId: id })).map((e) => e.credits), [6])
    }))
})
