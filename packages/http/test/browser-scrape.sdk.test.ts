/**
 * Scrapes that need a browser, with the official SDK against a real server whose engine has the
 * Playwright Browser layer: a JavaScript shell is rendered (its text only exists after its script
 * ran), `waitFor` gives late scripts their time, an ordinary page stays a plain fetch, and
 * `metadata.engine` says which one made the page. Without Chromium the file skips loudly (fails
 * with CI=true).
 */
import { createServer, type Server } from "node:http"
import { afterAll, assert, beforeAll, it as plainIt, layer } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { findChromium, PlaywrightBrowser } from "@gleaner/browser-playwright"
import { GleanerConfig } from "@gleaner/core"
import { Effect, Either, Layer, Option } from "effect"
import { appLayer, BootstrapKey, bootstrapKey, baseUrl } from "./support.js"

const found = Effect.runSync(Effect.either(findChromium(process.env)))
const hasChromium = Either.isRight(found) && Option.isSome(found.right)
if (!hasChromium && process.env["CI"] !== "true") {
  console.warn("\n[http] SKIPPING browser-scrape.sdk.test.ts: no Chromium (apt-get install -y chromium-headless-shell)\n")
}

const paragraph = "Rendered paragraphs carry enough words to be the page's main content, as an article would. "

const pages: Record<string, string> = {
  // a client-side app: nothing but a root and the script that fills it
  "/shell": `<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div>
<script>document.getElementById("root").innerHTML = "<main><h1>Catalogue rendered by script</h1>" + "<p>${paragraph}</p>".repeat(6) + "</main>"</script></body></html>`,
  // real text at once, and a section that a script adds after 600 ms
  "/late": `<!doctype html><html><head><title>News</title></head><body><main><h1>Morning edition</h1>
${`<p>${paragraph}</p>`.repeat(6)}<div id="late"></div></main>
<script>setTimeout(() => { document.getElementById("late").innerHTML = "<h2>Late breaking section</h2><p>${paragraph}</p>" }, 600)</script></body></html>`
}

let server: Server
let origin = ""
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = pages[new URL(req.url ?? "/", "http://x").pathname]
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" })
    res.end(body ?? "not found")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  origin = typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}` : ""
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const settings = { allowedNetworks: ["127.0.0.0/8"] }
const env = bootstrapKey.pipe(
  Layer.provideMerge(appLayer(settings)),
  Layer.provideMerge(PlaywrightBrowser.layerConfig().pipe(Layer.provide(GleanerConfig.layer(settings)), Layer.orDie))
)

const sdk = Effect.gen(function*() {
  const { key } = yield* BootstrapKey
  return new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
})

if (!hasChromium && process.env["CI"] === "true") {
  plainIt("browser-scrape.sdk.test.ts: Chromium is required on CI", () => {
    throw new Error("CI=true but no Chromium was found")
  })
}

layer(env, { excludeTestServices: true, timeout: 60_000 })("scrapes that need a browser, through the official SDK", (it) => {
  it.effect.skipIf(!hasChromium)("a JavaScript shell is rendered: its text is in the markdown, engine browser", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const doc = yield* Effect.promise(() => firecrawl.scrape(`${origin}/shell`, { formats: ["markdown"] }))
      assert.include(doc.markdown ?? "", "# Catalogue rendered by script")
      assert.include(doc.markdown ?? "", "Rendered paragraphs carry enough words")
      assert.strictEqual(doc.metadata?.["engine"], "browser")
      assert.strictEqual(doc.metadata?.statusCode, 200)
      assert.strictEqual(doc.metadata?.title, "Shop")
    }))

  it.effect.skipIf(!hasChromium)("waitFor lets late scripts finish; without it an ordinary page is a plain fetch", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const waited = yield* Effect.promise(() => firecrawl.scrape(`${origin}/late`, { formats: ["markdown"], waitFor: 1500 }))
      assert.include(waited.markdown ?? "", "Late breaking section")
      assert.strictEqual(waited.metadata?.["engine"], "browser")
      assert.isUndefined(waited.warning)

      const fetched = yield* Effect.promise(() => firecrawl.scrape(`${origin}/late`, { formats: ["markdown"], maxAge: 0 }))
      assert.include(fetched.markdown ?? "", "# Morning edition")
      assert.notInclude(fetched.markdown ?? "", "Late breaking section")
      assert.strictEqual(fetched.metadata?.["engine"], "fetch")
    }))
})
