/**
 * The WebSocket status stream of crawls and batch scrapes against a real server with workers and
 * the fixture site: the official SDK's watcher follows a crawl and a batch scrape to the end over
 * the socket; a raw client sees the close codes (3000 bad key, 1008 unknown, malformed or other
 * team's job), Bearer-header auth, a finished job's catchup followed by close 1000 "done", and
 * the default team's stream without a key under GLEANER_AUTH=off.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { WebSocket } from "@effect/platform-node/Undici"
import { Accounts, uuidv7 } from "@gleaner/core"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { Effect, Layer, Schema } from "effect"
import { JobStreamMessage } from "../src/job-stream.js"
import { appWithWorkersLayer, BootstrapKey, bootstrapKey, baseUrl } from "./support.js"

/** What one socket saw: the subprotocol the server chose, the raw messages, the close. */
interface Seen {
  readonly protocol: string
  readonly messages: Array<unknown>
  code: number
  reason: string
}

/**
 * The SDK takes `globalThis.WebSocket` when there is one (Node 20 has none): this subclass of
 * undici's records what each of its sockets saw, to tell the stream from the SDK's polling
 * fallback.
 */
const recorded: Array<Seen> = []
class RecordingWebSocket extends WebSocket {
  constructor(url: string | URL, protocols?: string | Array<string>) {
    super(url, protocols)
    const seen: Seen = { protocol: "", messages: [], code: 0, reason: "" }
    recorded.push(seen)
    this.addEventListener("message", (event) => seen.messages.push(event.data))
    this.addEventListener("close", (event) => {
      seen.code = event.code
      seen.reason = event.reason
    })
  }
}

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 60 })
  Reflect.set(globalThis, "WebSocket", RecordingWebSocket)
})
afterAll(async () => {
  Reflect.deleteProperty(globalThis, "WebSocket")
  await site.close()
})

const env = bootstrapKey.pipe(Layer.provideMerge(appWithWorkersLayer({ allowedNetworks: ["127.0.0.0/8"] })))

const sdk = Effect.gen(function*() {
  const { key } = yield* BootstrapKey
  return new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
})

const wsUrl = (path: string) => Effect.map(baseUrl, (base) => `${base.replace(/^http/, "ws")}${path}`)

const decodeMessages = Schema.decodeUnknown(Schema.Array(Schema.parseJson(JobStreamMessage)))
const SourceUrl = Schema.Struct({ metadata: Schema.Struct({ sourceURL: Schema.String }) })
const decodeDocuments = Schema.decodeUnknown(Schema.Array(SourceUrl))
const decodeReason = Schema.decodeUnknown(Schema.parseJson(Schema.Struct({ type: Schema.Literal("error"), error: Schema.String })))
const decodeDone = Schema.decodeUnknown(Schema.Struct({ status: Schema.String }))

/** Opens a socket and waits for the server to close it. */
const listen = (url: string, init: { readonly protocols?: string; readonly headers?: Record<string, string> }) =>
  Effect.async<Seen>((resume) => {
    const ws = new WebSocket(url, init)
    const seen: Seen = { protocol: "", messages: [], code: 0, reason: "" }
    ws.addEventListener("open", () => Object.assign(seen, { protocol: ws.protocol }))
    ws.addEventListener("message", (event) => seen.messages.push(event.data))
    ws.addEventListener("close", (event) => resume(Effect.succeed({ ...seen, code: event.code, reason: event.reason })))
    return Effect.sync(() => ws.close())
  })

/** Every document a stream carried (catchup, then document messages), by source URL. */
const streamedUrls = (seen: Seen) =>
  Effect.map(decodeMessages(seen.messages), (messages) =>
    messages.flatMap((m) =>
      m.type === "catchup" ? m.data.data.map((d) => d.metadata.sourceURL)
      : m.type === "document" ? [m.data.metadata.sourceURL]
      : []))

/** Runs the SDK's watcher to its `done`, collecting the documents it emitted. */
const watch = (firecrawl: Firecrawl, id: string, kind: "crawl" | "batch") =>
  Effect.async<{ readonly documents: Array<unknown>; readonly done: unknown }, Error>((resume) => {
    const watcher = firecrawl.watcher(id, { kind, pollInterval: 1 })
    const documents: Array<unknown> = []
    watcher.on("document", (doc: unknown) => documents.push(doc))
    watcher.on("done", (done: unknown) => resume(Effect.succeed({ documents, done })))
    watcher.on("error", (error: unknown) => resume(Effect.fail(new Error(`watcher error: ${JSON.stringify(error)}`))))
    void watcher.start()
    return Effect.sync(() => watcher.close())
  })

/** The SDK's watcher and the socket under it both saw every page once, and the stream ended "done". */
const followsToTheEnd = (firecrawl: Firecrawl, id: string, kind: "crawl" | "batch", urls: number) =>
  Effect.gen(function*() {
    const before = recorded.length
    const { documents, done } = yield* watch(firecrawl, id, kind)
    assert.strictEqual((yield* decodeDone(done)).status, "completed")
    const emitted = (yield* decodeDocuments(documents)).map((d) => d.metadata.sourceURL)
    assert.strictEqual(emitted.length, urls)
    assert.strictEqual(new Set(emitted).size, urls)

    const sockets = recorded.slice(before)
    assert.strictEqual(sockets.length, 1)
    const [socket] = sockets
    if (socket === undefined) return assert.fail("no socket")
    const streamed = yield* streamedUrls(socket)
    assert.strictEqual(streamed.length, urls)
    assert.deepStrictEqual(new Set(streamed), new Set(emitted))
    assert.deepInclude(socket, { code: 1000, reason: JSON.stringify({ type: "done" }) })
  })

layer(env, { excludeTestServices: true, timeout: 120_000 })("job status stream (WebSocket)", (it) => {
  it.effect("the SDK's watcher follows a 30-page crawl over the socket to done", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      // one page at a time, so the watcher joins a running crawl and gets document messages
      const started = yield* Effect.promise(() =>
        firecrawl.startCrawl(`${site.url}/site`, { limit: 30, sitemap: "skip", delay: 0.05, scrapeOptions: { formats: ["markdown"] } }))
      yield* followsToTheEnd(firecrawl, started.id, "crawl", 30)
    }))

  it.effect("the SDK's watcher follows a batch scrape over the socket to done", () =>
    Effect.gen(function*() {
      const firecrawl = yield* sdk
      const urls = Array.from({ length: 30 }, (_, i) => `${site.url}/slow?ms=30&n=${i}`)
      const started = yield* Effect.promise(() => firecrawl.startBatchScrape(urls, { maxConcurrency: 2, options: { formats: ["markdown"] } }))
      yield* followsToTheEnd(firecrawl, started.id, "batch", 30)
    }))

  it.effect("refusals: a bad key closes 3000, an unknown, malformed or other team's job 1008", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const firecrawl = yield* sdk
      const crawl = yield* Effect.promise(() => firecrawl.startCrawl(`${site.url}/site`, { limit: 2, sitemap: "skip" }))

      const badKey = yield* listen(yield* wsUrl(`/v2/crawl/${crawl.id}`), { protocols: "fc-00000000000000000000000000000000" })
      assert.strictEqual(badKey.code, 3000)
      assert.deepStrictEqual(yield* decodeMessages(badKey.messages), [{ type: "error", error: "Unauthorized: Invalid token" }])
      const noKey = yield* listen(yield* wsUrl(`/v2/crawl/${crawl.id}`), {})
      assert.strictEqual(noKey.code, 3000)
      const badBearer = yield* listen(yield* wsUrl(`/v2/crawl/${crawl.id}`), { headers: { authorization: "Bearer nope" } })
      assert.strictEqual(badBearer.code, 3000)

      const unknown = yield* listen(yield* wsUrl(`/v2/crawl/${yield* uuidv7}`), { protocols: key })
      assert.strictEqual(unknown.code, 1008)
      assert.deepStrictEqual(yield* decodeReason(unknown.reason), { type: "error", error: "Job not found" })
      const malformed = yield* listen(yield* wsUrl("/v2/batch/scrape/not-a-job"), { protocols: key })
      assert.strictEqual(malformed.code, 1008)
      const wrongKind = yield* listen(yield* wsUrl(`/v2/batch/scrape/${crawl.id}`), { protocols: key })
      assert.strictEqual(wrongKind.code, 1008)

      const accounts = yield* Accounts
      const other = yield* accounts.createTeam(`other-${yield* uuidv7}`, "selfhost")
      const otherKey = yield* accounts.createKey(other.id)
      const otherTeam = yield* listen(yield* wsUrl(`/v2/crawl/${crawl.id}`), { protocols: otherKey.key })
      assert.strictEqual(otherTeam.code, 1008)
    }))

  it.effect("a finished job: catchup with every document, then close 1000 done (subprotocol or Bearer)", () =>
    Effect.gen(function*() {
      const { key } = yield* BootstrapKey
      const firecrawl = yield* sdk
      const job = yield* Effect.promise(() => firecrawl.crawl(`${site.url}/site`, { limit: 12, sitemap: "skip", pollInterval: 1 }))
      assert.strictEqual(job.status, "completed")

      const bySubprotocol = yield* listen(yield* wsUrl(`/v2/crawl/${job.id}`), { protocols: key })
      assert.strictEqual(bySubprotocol.protocol, key)
      const byBearer = yield* listen(yield* wsUrl(`/v2/crawl/${job.id}`), { headers: { authorization: `Bearer ${key}` } })
      assert.strictEqual(byBearer.protocol, "")
      for (const seen of [bySubprotocol, byBearer]) {
        assert.deepInclude(seen, { code: 1000, reason: JSON.stringify({ type: "done" }) })
        const messages = yield* decodeMessages(seen.messages)
        assert.strictEqual(messages.length, 1)
        const [catchup] = messages
        if (catchup?.type !== "catchup") return assert.fail("expected a catchup message")
        assert.deepInclude(catchup.data, { success: true, status: "completed", total: 12, completed: 12, creditsUsed: 12 })
        assert.strictEqual(catchup.data.expiresAt, job.expiresAt)
        assert.deepStrictEqual(
          new Set(catchup.data.data.map((d) => d.metadata.sourceURL)),
          new Set(job.data.map((d) => d.metadata?.sourceURL))
        )
      }
    }))
})

const off = bootstrapKey.pipe(Layer.provideMerge(appWithWorkersLayer({ auth: "off", allowedNetworks: ["127.0.0.0/8"] })))

layer(off, { excludeTestServices: true, timeout: 60_000 })("job status stream with GLEANER_AUTH=off", (it) => {
  it.effect("the stream acts for the default team without a key", () =>
    Effect.gen(function*() {
      const firecrawl = new Firecrawl({ apiKey: "fc-anything", apiUrl: yield* baseUrl })
      const job = yield* Effect.promise(() => firecrawl.batchScrape([`${site.url}/site/1`, `${site.url}/site/2`], { pollInterval: 1 }))
      const seen = yield* listen(yield* wsUrl(`/v2/batch/scrape/${job.id}`), {})
      assert.deepInclude(seen, { code: 1000, reason: JSON.stringify({ type: "done" }) })
      assert.deepStrictEqual(new Set(yield* streamedUrls(seen)), new Set([`${site.url}/site/1`, `${site.url}/site/2`]))
    }))
})
