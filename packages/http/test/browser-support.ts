/**
 * Shared wiring of the suites that need Chromium: whether this machine has one (missing → a loud
 * warning, or with CI=true a failing test), a local site on 127.0.0.1 for the file, the server
 * with every browser layer (render pool, sessions, files in memory), and the official SDK on it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { afterAll, beforeAll, it } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { findChromium, PlaywrightBrowser, PlaywrightSessions } from "@gleaner/browser-playwright"
import { BlobStores, GleanerConfig, type GleanerSettings } from "@gleaner/core"
import { Effect, Layer, Option } from "effect"
import { appWithWorkersLayer, BootstrapKey, bootstrapKey, baseUrl } from "./support.js"

const found = Effect.runSync(Effect.orElseSucceed(findChromium(process.env), () => Option.none()))

/** True when the file's browser tests can run; call once per file, at its top level. */
export const chromiumFor = (file: string): boolean => {
  if (Option.isSome(found)) return true
  if (process.env["CI"] === "true") {
    it(`${file}: Chromium is required on CI`, () => {
      throw new Error("CI=true but no Chromium was found")
    })
  } else {
    console.warn(`\n[http] SKIPPING ${file}: no Chromium (apt-get install -y chromium-headless-shell)\n`)
  }
  return false
}

/** A local site for the file's tests, answering with `handle`; `origin` is set once it listens. */
export const servePages = (handle: (request: IncomingMessage, response: ServerResponse) => void) => {
  const site = { origin: "" }
  const server = createServer(handle)
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const address = server.address()
    site.origin = typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}` : ""
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return site
}

/** Answers `text/html` from `pages` by path (the URL is handed over for its query), else 404. */
export const htmlPages = (pages: Record<string, (url: URL) => string>) => (request: IncomingMessage, response: ServerResponse) => {
  const url = new URL(request.url ?? "/", "http://x")
  const body = pages[url.pathname]?.(url)
  response.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" })
  response.end(body ?? "not found")
}

/** The server with job workers, the render pool, browser sessions and in-memory files, plus the bootstrap key. */
export const browserServer = (settings: Partial<GleanerSettings> = {}) => {
  const all = { allowedNetworks: ["127.0.0.0/8"], ...settings }
  const config = GleanerConfig.layer(all)
  return bootstrapKey.pipe(
    Layer.provideMerge(appWithWorkersLayer(all)),
    Layer.provideMerge(BlobStores.memory()),
    Layer.provideMerge(PlaywrightBrowser.layerConfig().pipe(Layer.provide(config), Layer.orDie)),
    Layer.provideMerge(PlaywrightSessions.layerConfig().pipe(Layer.provide(config), Layer.orDie))
  )
}

/** The official SDK with the bootstrap key, pointed at the test server. */
export const sdk = Effect.gen(function*() {
  const { key } = yield* BootstrapKey
  return new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
})

/** The SDK's error for a call that must fail (status, code, message), or a marker that it did not. */
export const sdkError = (promise: Promise<unknown>) =>
  Effect.promise(() => promise.then(() => ({ status: 0, code: "", message: "no error" }), (e: { status: number; code: string; message: string }) => e))
