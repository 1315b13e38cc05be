/**
 * Screenshots and actions with the official SDK against a real server with Chromium: a
 * full-page PNG and a JPEG come back as URLs on the server that anyone holding them can fetch;
 * actions fill and submit a form and the scrape shows the page it led to, with the actions'
 * screenshots, JavaScript returns and PDFs; a failing action is SCRAPE_ACTION_ERROR naming it;
 * a batch scrape's screenshots are served on the origin the batch was started from; a profile
 * carries cookies and local storage from one scrape to the next, one writer at a time. Without
 * Chromium the file skips loudly (fails with CI=true).
 */
import { assert, layer } from "@effect/vitest"
import { DocumentActions } from "@gleaner/core"
import { Effect, Schema } from "effect"
import { browserServer, chromiumFor, htmlPages, sdk, sdkError, servePages } from "./browser-support.js"
import { BootstrapKey, baseUrl, call } from "./support.js"

const hasChromium = chromiumFor("browser-actions.sdk.test.ts")

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`
const text = "A paragraph with enough words in it to count as the main content of an ordinary page. "

const pages: Record<string, (url: URL) => string> = {
  "/tall": () => page("Tall", `<main><h1>A tall page</h1><p>${text}</p><div style="height:2600px"></div><p>The end.</p></main>`),
  "/form": () => page("Guest book", `<main><h1>Sign the guest book</h1><p>${text}</p>
    <form action="/greet" method="get"><input id="name" name="name"><button type="submit">Sign</button></form></main>`),
  // remembers a visitor by cookie and counts visits in local storage
  "/visit": () => page("Visit", `<main><h1 id="h">?</h1><p>${text}</p></main><script>
    const visits = Number(localStorage.getItem("visits") || "0") + 1
    document.getElementById("h").textContent = document.cookie.includes("seen=yes") ? "Welcome back, visit " + visits : "First visit"
    document.cookie = "seen=yes; max-age=3600; path=/"
    localStorage.setItem("visits", String(visits))
  </script>`),
  "/greet": (url) => page("Thanks", `<main><h1>Hello, ${(url.searchParams.get("name") ?? "").replace(/</g, "&lt;")}</h1><p>${text}</p></main>`)
}

let visitRequests = 0
const pageHandler = htmlPages(pages)
const site = servePages((request, response) => {
  if (request.url === "/visit") visitRequests += 1
  pageHandler(request, response)
})
const env = browserServer()

/** Fetches a URL the server returned, with no API key, as a user's browser would. */
const download = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url)
    return { status: response.status, type: response.headers.get("content-type"), bytes: new Uint8Array(await response.arrayBuffer()) }
  })

const pngHeight = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(20)

layer(env, { excludeTestServices: true, timeout: 60_000 })("screenshots and actions, through the official SDK", (it) => {
  it.effect.skipIf(!hasChromium)("a full-page screenshot is a PNG served at an unguessable URL on the server; quality makes a JPEG", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const base = yield* baseUrl
      const doc = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/tall`, { formats: ["markdown", { type: "screenshot", fullPage: true }] }))
      assert.include(doc.markdown ?? "", "# A tall page")
      assert.strictEqual(doc.metadata?.["engine"], "browser")
      const url = doc.screenshot ?? ""
      assert.match(url, new RegExp(`^${base}/v2/files/\\d{8}-[0-9a-f]{32}\\.png$`))
      const png = yield* download(url)
      assert.deepStrictEqual([png.status, png.type], [200, "image/png"])
      assert.isAtLeast(pngHeight(png.bytes), 2600)

      const jpeg = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/tall`, { formats: [{ type: "screenshot", quality: 60 }] }))
      const image = yield* download(jpeg.screenshot ?? "")
      assert.deepStrictEqual([image.status, image.type, image.bytes[0], image.bytes[1]], [200, "image/jpeg", 0xff, 0xd8])

      const guessed = yield* call("GET", "/v2/files/20260101-00000000000000000000000000000000.png")
      assert.strictEqual(guessed.status, 404)
      const traversal = yield* call("GET", "/v2/files/..%2Fgleaner.db")
      assert.strictEqual(traversal.status, 404)
    }))

  it.effect.skipIf(!hasChromium)("actions fill and submit a form: the scrape is the page it led to, with the actions' results", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const doc = yield* Effect.promise(() =>
        firecrawl.scrape(`${site.origin}/form`, {
          formats: ["markdown"],
          actions: [
            { type: "click", selector: "#name" },
            { type: "write", text: "Grace Hopper" },
            { type: "press", key: "Enter" },
            { type: "wait", selector: "h1" },
            { type: "screenshot" },
            { type: "executeJavascript", script: "return location.pathname" },
            { type: "pdf" }
          ]
        }))
      assert.include(doc.markdown ?? "", "# Hello, Grace Hopper")
      assert.strictEqual(doc.metadata?.url, `${site.origin}/greet?name=Grace+Hopper`)
      const actions = Schema.decodeUnknownSync(DocumentActions)(doc.actions)
      assert.deepStrictEqual(actions.javascriptReturns, [{ type: "string", value: "/greet" }])
      const [shot] = actions.screenshots
      assert.strictEqual((yield* download(shot ?? "")).type, "image/png")
      const [pdf] = actions.pdfs
      const file = yield* download(pdf ?? "")
      assert.deepStrictEqual([file.type, new TextDecoder().decode(file.bytes.slice(0, 5))], ["application/pdf", "%PDF-"])
    }))

  it.effect.skipIf(!hasChromium)("a failing action is SCRAPE_ACTION_ERROR naming the action; bad action lists are 400", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const failed = yield* sdkError(firecrawl.scrape(`${site.origin}/form`, {
        timeout: 4000,
        actions: [{ type: "click", selector: "#name" }, { type: "click", selector: "#missing-button" }]
      }))
      assert.deepStrictEqual([failed.status, failed.code], [500, "SCRAPE_ACTION_ERROR"])
      assert.include(failed.message, `Action 2 (click "#missing-button") failed`)
      const { key } = yield* BootstrapKey
      const tooMany = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.origin}/form`, actions: Array.from({ length: 51 }, () => ({ type: "scrape" })) } })
      assert.strictEqual(tooMany.status, 400)
      const lockdown = yield* call("POST", "/v2/scrape", { key, json: { url: `${site.origin}/form`, lockdown: true, formats: ["screenshot"] } })
      assert.strictEqual(lockdown.status, 400)
      assert.include(JSON.stringify(lockdown.body), "cannot be combined with lockdown")
    }))

  it.effect.skipIf(!hasChromium)("a profile keeps cookies and local storage between scrapes; saveChanges false reads only; one writer at a time", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      // waitFor: rendered in the browser with or without a profile
      const visit = (profile?: { name: string; saveChanges?: boolean }, waitFor = 1) =>
        Effect.promise(() => firecrawl.scrape(`${site.origin}/visit`, { formats: ["markdown"], waitFor, maxAge: 0, ...(profile === undefined ? {} : { profile }) }))
      assert.include((yield* visit({ name: "shopper" })).markdown ?? "", "# First visit")
      assert.include((yield* visit({ name: "shopper" })).markdown ?? "", "# Welcome back, visit 2")
      // read without writing: the next writer still sees visit 2 as the last saved
      assert.include((yield* visit({ name: "shopper", saveChanges: false })).markdown ?? "", "# Welcome back, visit 3")
      assert.include((yield* visit({ name: "shopper" })).markdown ?? "", "# Welcome back, visit 3")
      // no profile, or another name: a fresh browser
      assert.include((yield* visit()).markdown ?? "", "# First visit")
      assert.include((yield* visit({ name: "someone-else" })).markdown ?? "", "# First visit")
      // two writers at once: one waits in the page, the other is refused
      const pageRequests = visitRequests
      const [slow, refused] = yield* Effect.all([
        visit({ name: "busy" }, 2000),
        // once the first writer's browser is on the page, it holds the profile
        Effect.zipRight(
          Effect.repeat(Effect.sleep("20 millis"), { until: () => visitRequests > pageRequests }),
          Effect.suspend(() => sdkError(firecrawl.scrape(`${site.origin}/visit`, { formats: ["markdown"], profile: { name: "busy" } })))
        )
      ], { concurrency: 2 })
      assert.include(slow.markdown ?? "", "# First visit")
      assert.deepStrictEqual([refused.status, refused.code], [409, "CONFLICT"])
      assert.include(refused.message, "Profile \"busy\" is being written")
    }))

  it.effect.skipIf(!hasChromium)("a batch scrape's screenshots are served on the origin the batch was started from", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const base = yield* baseUrl
      const job = yield* Effect.promise(() => firecrawl.batchScrape([`${site.origin}/tall`, `${site.origin}/form`], { options: { formats: ["screenshot"] }, pollInterval: 1 }))
      assert.strictEqual(job.status, "completed")
      assert.strictEqual(job.data.length, 2)
      for (const doc of job.data) {
        assert.isTrue((doc.screenshot ?? "").startsWith(`${base}/v2/files/`))
        assert.strictEqual((yield* download(doc.screenshot ?? "")).type, "image/png")
      }
    }))
})
