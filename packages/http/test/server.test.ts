/**
 * The production composition: `makeHttpServer` listens on a real port, logs its address, and
 * serves the API until its scope closes. Links in responses name the server as the client
 * reaches it, or GLEANER_PUBLIC_URL when set.
 */
import { assert, it } from "@effect/vitest"
import { HealthResponse } from "@gleaner/core"
import { makeHttpServer } from "@gleaner/http"
import { Effect, Layer, Logger, Option, Schema } from "effect"
import { engineLayer } from "./support.js"

const health = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { headers })
    return { status: response.status, body: Schema.decodeUnknownSync(HealthResponse)(await response.json()) }
  })

const listening = (settings: Parameters<typeof engineLayer>[0]) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => {
      lines.push(String(Array.isArray(message) ? message.join(" ") : message))
    }))
    yield* Layer.build(
      makeHttpServer({ port: 0, host: "127.0.0.1" }).pipe(Layer.provide(engineLayer(settings)), Layer.provide(capture))
    )
    const address = lines.map((l) => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(l)?.[1]).find((a) => a !== undefined)
    if (address === undefined) return yield* Effect.dieMessage(`no address logged: ${lines.join("\n")}`)
    return address
  })

it.scopedLive("makeHttpServer listens, logs its address and builds links from the Host", () =>
  Effect.gen(function*() {
    const address = yield* listening({})
    const direct = yield* health(`${address}/`)
    assert.strictEqual(direct.status, 200)
    assert.strictEqual(direct.body.documentation_url, `${address}/v2/docs`)
    const proxied = yield* health(`${address}/`, { "x-forwarded-proto": "https", "x-forwarded-host": "gleaner.example.com" })
    assert.strictEqual(proxied.body.documentation_url, "https://gleaner.example.com/v2/docs")
  }))

it.scopedLive("GLEANER_PUBLIC_URL wins over the request's Host", () =>
  Effect.gen(function*() {
    const address = yield* listening({ publicUrl: Option.some("https://data.example.com/gleaner/") })
    const reply = yield* health(`${address}/`)
    assert.strictEqual(reply.body.documentation_url, "https://data.example.com/gleaner/v2/docs")
  }))
