/**
 * Webhook delivery end to end: the engine with its background sender over an in-memory SQLite
 * store and the undici Fetcher, POSTing to a real HTTP receiver on 127.0.0.1. Checks what a
 * receiver sees (signature, custom headers, metadata), retries after a failure, giving up after
 * the last retry, the events filter, and the SSRF guard refusing a metadata address for good.
 * Retry delays are configured to a second; tests wait for outcomes, they never time them.
 */
import { assert, layer } from "@effect/vitest"
import {
  Accounts,
  GleanerConfig,
  jobWebhookEvents,
  Store,
  verifyWebhookSignature,
  type Webhook,
  type WebhookDelivery,
  Webhooks
} from "@gleaner/core"
import { Context, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { randomUUID } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { engineWithWorkersLayer } from "./support.js"

interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/**
 * A receiver on 127.0.0.1: paths starting `/flaky` answer 500 the first time, `/down` always
 * 503, anything else 200.
 */
class Receiver extends Context.Tag("test/Receiver")<Receiver, {
  readonly url: string
  readonly received: (path: string) => ReadonlyArray<Received>
}>() {}

const ReceiverLive = Layer.scoped(
  Receiver,
  Effect.gen(function*() {
    const received: Array<Received> = []
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const path = req.url ?? "/"
        const seen = received.filter((r) => r.path === path).length
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
        const status = path.startsWith("/down") ? 503 : path.startsWith("/flaky") && seen === 0 ? 500 : 200
        res.writeHead(status, { "content-type": "text/plain" }).end("thanks")
      })
    })
    const port = yield* Effect.acquireRelease(
      Effect.async<number>((resume) => {
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resume(typeof address === "object" && address !== null ? Effect.succeed(address.port) : Effect.dieMessage("no TCP address"))
        })
      }),
      () => Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
    )
    return { url: `http://127.0.0.1:${port}`, received: (path) => received.filter((r) => r.path === path) }
  })
)

const Quiet = Logger.minimumLogLevel(LogLevel.None)

const retrySettings = { webhookRetrySeconds: [1, 1], webhookPollMs: 50 }

const newTeam = Effect.gen(function*() {
  const config = yield* GleanerConfig
  return yield* (yield* Accounts).createTeam(`hooks-${randomUUID()}`, config.defaultPlan)
})

/** Waits (polling the outbox) until the delivery is delivered or failed. */
const settled = (teamId: string, id: string) =>
  Effect.gen(function*() {
    const store = yield* Store
    for (;;) {
      const delivery = Option.getOrThrow(yield* store.webhooks.get(teamId, id))
      if (delivery.status !== "pending") return delivery
      yield* Effect.sleep("50 millis")
    }
  }).pipe(Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error(`delivery ${id} never settled`) }))

const sendPage = (teamId: string, webhook: Webhook, crawlId = randomUUID()) =>
  Effect.flatMap(Webhooks, (webhooks) =>
    webhooks.send(teamId, webhook, jobWebhookEvents.page("crawl", crawlId, { markdown: "# Café", metadata: { sourceURL: "https://s.test/" } })))

const check = (delivery: WebhookDelivery, status: WebhookDelivery["status"], attempts: number) =>
  assert.deepStrictEqual([delivery.status, delivery.attempts], [status, attempts])

layer(
  Layer.mergeAll(engineWithWorkersLayer({ allowedNetworks: ["127.0.0.0/8"], ...retrySettings }), ReceiverLive).pipe(Layer.provide(Quiet)),
  { excludeTestServices: true, timeout: 60_000 }
)("webhooks to a receiver on 127.0.0.1", (it) => {
  it.effect("an event arrives signed with the team's secret, with the custom headers and metadata", () =>
    Effect.gen(function*() {
      const receiver = yield* Receiver
      const webhooks = yield* Webhooks
      const team = yield* newTeam
      const path = `/ok-${randomUUID()}`
      const crawlId = randomUUID()
      const webhook = { url: `${receiver.url}${path}`, headers: { "X-Custom": "yes" }, metadata: { run: "42" } }
      const id = Option.getOrThrow(yield* sendPage(team.id, webhook, crawlId))
      check(yield* settled(team.id, id), "delivered", 1)

      const [request] = receiver.received(path)
      assert.isDefined(request)
      const secret = yield* webhooks.secret(team.id)
      assert.match(String(request!.headers["x-firecrawl-signature"]), /^sha256=[0-9a-f]{64}$/)
      assert.isTrue(verifyWebhookSignature(secret, request!.body, String(request!.headers["x-firecrawl-signature"])))
      assert.strictEqual(request!.headers["x-custom"], "yes")
      assert.strictEqual(request!.headers["content-type"], "application/json")
      assert.deepStrictEqual(JSON.parse(request!.body), {
        success: true,
        type: "crawl.page",
        id: crawlId,
        webhookId: id,
        data: [{ markdown: "# Café", metadata: { sourceURL: "https://s.test/" } }],
        metadata: { run: "42" }
      })

      // after a rotation, deliveries are signed with the new secret
      const rotated = yield* webhooks.rotateSecret(team.id)
      const next = Option.getOrThrow(yield* sendPage(team.id, webhook))
      check(yield* settled(team.id, next), "delivered", 1)
      const second = receiver.received(path)[1]!
      assert.isTrue(verifyWebhookSignature(rotated, second.body, String(second.headers["x-firecrawl-signature"])))
      assert.isFalse(verifyWebhookSignature(secret, second.body, String(second.headers["x-firecrawl-signature"])))
    }))

  it.effect("a receiver that answers 500 gets the same event again on retry; then it is delivered", () =>
    Effect.gen(function*() {
      const receiver = yield* Receiver
      const team = yield* newTeam
      const path = `/flaky-${randomUUID()}`
      const id = Option.getOrThrow(yield* sendPage(team.id, `${receiver.url}${path}`))
      const delivery = yield* settled(team.id, id)
      check(delivery, "delivered", 2)
      assert.isNull(delivery.lastError)
      const [first, second] = receiver.received(path)
      assert.strictEqual(second?.body, first?.body)
      assert.strictEqual(second?.headers["x-firecrawl-signature"], first?.headers["x-firecrawl-signature"])
      assert.strictEqual(JSON.parse(second!.body).webhookId, id)
    }))

  it.effect("a receiver that never succeeds: failed after the last retry", () =>
    Effect.gen(function*() {
      const receiver = yield* Receiver
      const team = yield* newTeam
      const path = `/down-${randomUUID()}`
      const id = Option.getOrThrow(yield* sendPage(team.id, `${receiver.url}${path}`))
      const delivery = yield* settled(team.id, id)
      check(delivery, "failed", 3)
      assert.include(delivery.lastError ?? "", "503")
      assert.lengthOf(receiver.received(path), 3)
    }))

  it.effect("an event the events filter leaves out is never written; one it names is sent", () =>
    Effect.gen(function*() {
      const receiver = yield* Receiver
      const webhooks = yield* Webhooks
      const team = yield* newTeam
      const path = `/filtered-${randomUUID()}`
      const webhook = { url: `${receiver.url}${path}`, events: ["completed", "crawl.started"] }
      const crawlId = randomUUID()
      assert.isTrue(Option.isNone(yield* sendPage(team.id, webhook, crawlId)))
      const started = Option.getOrThrow(yield* webhooks.send(team.id, webhook, jobWebhookEvents.started("crawl", crawlId)))
      const completed = Option.getOrThrow(yield* webhooks.send(team.id, webhook, jobWebhookEvents.completed("crawl", crawlId)))
      check(yield* settled(team.id, started), "delivered", 1)
      check(yield* settled(team.id, completed), "delivered", 1)
      assert.deepStrictEqual(receiver.received(path).map((r) => JSON.parse(r.body).type).sort(), ["crawl.completed", "crawl.started"])
    }))
})

layer(
  Layer.mergeAll(engineWithWorkersLayer(retrySettings), ReceiverLive).pipe(Layer.provide(Quiet)),
  { excludeTestServices: true, timeout: 60_000 }
)("webhooks without allowed networks", (it) => {
  it.effect("a webhook to 169.254.169.254 fails at once, for good", () =>
    Effect.gen(function*() {
      const team = yield* newTeam
      const id = Option.getOrThrow(yield* sendPage(team.id, "http://169.254.169.254/latest/meta-data/"))
      const delivery = yield* settled(team.id, id)
      check(delivery, "failed", 1)
      assert.include(delivery.lastError ?? "", "Blocked")
    }))

  it.effect("so does one to the loopback receiver, which never sees a request", () =>
    Effect.gen(function*() {
      const receiver = yield* Receiver
      const team = yield* newTeam
      const path = `/ok-${randomUUID()}`
      const id = Option.getOrThrow(yield* sendPage(team.id, `${receiver.url}${path}`))
      check(yield* settled(team.id, id), "failed", 1)
      assert.lengthOf(receiver.received(path), 0)
    }))
})
