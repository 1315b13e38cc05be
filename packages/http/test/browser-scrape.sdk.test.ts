/**
 * Scrapes that need a browser, with the official SDK against a real server whose engine has the
 * Playwright Browser layer: a JavaScript shell is rendered (its text only exists after its script
 * ran), `waitFor` gives late scripts their time, an ordinary page stays a plain fetch, a PDF is
 * fetched and parsed even when waitFor or mobile asked for the browser, and
 * `metadata.engine` says which one made the page. Without Chromium the file skips loudly (fails
 * with CI=true).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { fixturePdf, fixturePdfPages } from "@gleaner/fixture-site"
import { browserServer, chromiumFor, htmlPages, sdk, servePages } from "./browser-support.js"

const hasChromium = chromiumFor("browser-scrape.sdk.test.ts")

const paragraph = "Rendered paragraphs carry enough words to be the page's main content, as an article would. "

const pages: Record<string, () => string> = {
  // a client-side app: nothing but a root and the script that fills it
  "/shell": () => `<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div>
<script>document.getElementById("root").innerHTML = "<main><h1>Catalogue rendered by script</h1>" + "<p>${paragraph}</p>".repeat(6) + "</main>"</script></body></html>`,
  // real text at once, and a section that a script adds after 600 ms
  "/late": () => `<!doctype html><html><head><title>News</title></head><body><main><h1>Morning edition</h1>
${`<p>${paragraph}</p>`.repeat(6)}<div id="late"></div></main>
<script>setTimeout(() => { document.getElementById("late").innerHTML = "<h2>Late breaking section</h2><p>${paragraph}</p>" }, 600)</script></body></html>`
}

const pageHandler = htmlPages(pages)
const site = servePages((request, response) => {
  if (request.url !== "/report.pdf") return pageHandler(request, response)
  response.writeHead(200, { "content-type": "application/pdf" })
  response.end(fixturePdf())
})
const env = browserServer()

layer(env, { excludeTestServices: true, timeout: 60_000 })("scrapes that need a browser, through the official SDK", (it) => {
  it.effect.skipIf(!hasChromium)("a JavaScript shell is rendered: its text is in the markdown, engine browser", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const doc = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/shell`, { formats: ["markdown"] }))
      assert.include(doc.markdown ?? "", "# Catalogue rendered by script")
      assert.include(doc.markdown ?? "", "Rendered paragraphs carry enough words")
      assert.strictEqual(doc.metadata?.["engine"], "browser")
      assert.strictEqual(doc.metadata?.statusCode, 200)
      assert.strictEqual(doc.metadata?.title, "Shop")
    }))

  it.effect.skipIf(!hasChromium)("waitFor lets late scripts finish; without it an ordinary page is a plain fetch", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const waited = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/late`, { formats: ["markdown"], waitFor: 1500 }))
      assert.include(waited.markdown ?? "", "Late breaking section")
      assert.strictEqual(waited.metadata?.["engine"], "browser")
      assert.isUndefined(waited.warning)

      const fetched = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/late`, { formats: ["markdown"], maxAge: 0 }))
      assert.include(fetched.markdown ?? "", "# Morning edition")
      assert.notInclude(fetched.markdown ?? "", "Late breaking section")
      assert.strictEqual(fetched.metadata?.["engine"], "fetch")
    }))

  it.effect.skipIf(!hasChromium)("a PDF asked for with waitFor or mobile is not a page to render: it is fetched and parsed", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      for (const options of [{ waitFor: 500 }, { mobile: true }]) {
        const doc = yield* Effect.promise(() => firecrawl.scrape(`${site.origin}/report.pdf`, { formats: ["markdown"], maxAge: 0, ...options }))
        assert.strictEqual(doc.metadata?.["engine"], "fetch")
        assert.strictEqual(doc.metadata?.["numPages"], fixturePdfPages.length)
        assert.isAbove((doc.markdown ?? "").length, 20)
      }
    }))
})
