/**
 * A crawl's webhooks, end to end: the official SDK starts a crawl with a webhook pointing at a
 * real receiver on 127.0.0.1 that fails its first request. The receiver gets `crawl.started`,
 * one `crawl.page` per page and `crawl.completed`, each signed with the team's secret and
 * carrying the caller's metadata — the failed one again on retry.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import Firecrawl from "@mendable/firecrawl-js"
import { verifyWebhookSignature, Webhooks } from "@gleaner/core"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { Effect, Layer, Schema } from "effect"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { appWithWorkersLayer, BootstrapKey, bootstrapKey, baseUrl } from "./support.js"

interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly status: number
}

let site: FixtureSite
let receiver: Server
let receiverUrl = ""
const received: Array<Received> = []
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 20 })
  receiver = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const status = received.length === 0 ? 500 : 200
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  const address = receiver.address()
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hooks`
})
afterAll(async () => {
  await site.close()
  await new Promise((resolve) => receiver.close(resolve))
})

const env = bootstrapKey.pipe(Layer.provideMerge(appWithWorkersLayer({
  allowedNetworks: ["127.0.0.0/8"],
  webhookRetrySeconds: [0.5],
  webhookPollMs: 100
})))

const Payload = Schema.parseJson(Schema.Struct({
  success: Schema.Boolean,
  type: Schema.String,
  id: Schema.String,
  webhookId: Schema.String,
  data: Schema.Array(Schema.Unknown),
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}))
const decode = Schema.decodeUnknownSync(Payload)

layer(env, { excludeTestServices: true, timeout: 60_000 })("crawl webhooks", (it) => {
  it.effect("started, a page per page and completed arrive signed, the failed delivery again on retry", () =>
    Effect.gen(function*() {
      const { key, teamId } = yield* BootstrapKey
      const firecrawl = new Firecrawl({ apiKey: key, apiUrl: yield* baseUrl })
      const job = yield* Effect.promise(() =>
        firecrawl.crawl(`${site.url}/site`, {
          limit: 5,
          sitemap: "skip",
          webhook: { url: receiverUrl, metadata: { run: "nightly" }, headers: { "x-source": "test" } },
          pollInterval: 1
        }))
      assert.strictEqual(job.status, "completed")

      // wait for the deliveries (7 events, one of them twice)
      for (let i = 0; i < 100 && received.filter((r) => r.status === 200).length < 7; i++) yield* Effect.sleep("100 millis")
      const secret = yield* Effect.flatMap(Webhooks, (w) => w.secret(teamId))
      for (const r of received) {
        const signature = r.headers["x-firecrawl-signature"]
        assert.isTrue(verifyWebhookSignature(secret, r.body, Array.isArray(signature) ? signature[0] : signature))
        assert.strictEqual(r.headers["x-source"], "test")
      }
      const delivered = received.filter((r) => r.status === 200).map((r) => decode(r.body))
      const types = delivered.map((p) => p.type)
      assert.deepStrictEqual(types.filter((t) => t === "crawl.started"), ["crawl.started"])
      assert.strictEqual(types.filter((t) => t === "crawl.page").length, 5)
      assert.deepStrictEqual(types.filter((t) => t === "crawl.completed"), ["crawl.completed"])
      for (const payload of delivered) {
        assert.strictEqual(payload.id, job.id)
        assert.deepStrictEqual(payload.metadata, { run: "nightly" })
      }
      // the first delivery failed with 500 and came again, byte for byte
      const [failed] = received
      assert.strictEqual(failed?.status, 500)
      assert.isTrue(received.slice(1).some((r) => r.body === failed?.body && r.status === 200))
    }))
})
