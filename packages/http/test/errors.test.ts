/**
 * The error mapping on an API of the test's own: a strict POST body (no production endpoint has
 * one yet) and an endpoint that dies, served with exactly the production middleware (`serveApi`).
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpBody, OpenApi } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { messages, strictBody } from "@gleaner/core"
import { Errors, fixOpenApi, serveApi } from "@gleaner/http"
import { Cause, Chunk, Effect, HashMap, Layer, Logger, Option, Schema, Stream } from "effect"
import { call, envelope } from "./support.js"

const Body = strictBody({
  url: Schema.String,
  limit: Schema.optional(Schema.Int.pipe(Schema.positive())),
  name: Schema.optional(
    Schema.String.pipe(Schema.filter((s) => s.length <= 5, { message: () => "name must be at most 5 characters" }))
  ),
  nested: Schema.optional(Schema.Struct({ depth: Schema.Number }))
})

class StrictGroup extends HttpApiGroup.make("strict")
  .add(
    HttpApiEndpoint.post("echo", "/v2/test/strict")
      .setPayload(Body)
      .addSuccess(Schema.Struct({ success: Schema.Literal(true), keys: Schema.Array(Schema.String) }))
      .addError(Errors.InvalidJson)
      .addError(Errors.PayloadTooLarge)
  )
  .add(HttpApiEndpoint.get("defect", "/v2/test/defect").addSuccess(Schema.Struct({ success: Schema.Literal(true) })))
{}

class TestApi extends HttpApi.make("test")
  .add(StrictGroup)
  .addError(Errors.BadRequest)
  .addError(Errors.Internal)
  .annotate(OpenApi.Transform, fixOpenApi)
{}

const StrictLive = HttpApiBuilder.group(TestApi, "strict", (handlers) =>
  handlers
    .handle("echo", ({ payload }) => Effect.succeed({ success: true as const, keys: Object.keys(payload).sort() }))
    .handle("defect", () => Effect.die(new Error("the disk is on fire"))))

/** Every error log line: its error id annotation and the pretty cause. */
const errorLogs: Array<{ readonly errorId: unknown; readonly cause: string }> = []
const CaptureLogs = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, cause, logLevel }) => {
    if (logLevel._tag !== "Error") return
    errorLogs.push({ errorId: Option.getOrUndefined(HashMap.get(annotations, "errorId")), cause: Cause.pretty(cause) })
  })
)

const Env = serveApi(TestApi, HttpApiBuilder.api(TestApi).pipe(Layer.provide(StrictLive))).pipe(
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provide(CaptureLogs)
)

const post = (json: unknown) => call("POST", "/v2/test/strict", { json })

layer(Env, { excludeTestServices: true })("error mapping", (it) => {
  it.effect("unknown body keys are a 400 naming every one of them", () =>
    Effect.gen(function*() {
      const reply = yield* post({ url: "https://example.com", a: 1, b: 2 })
      assert.strictEqual(reply.status, 400)
      assert.deepStrictEqual(reply.body, {
        success: false,
        code: "BAD_REQUEST",
        error: messages.unrecognizedKeys,
        details: [{ code: "unrecognized_keys", keys: ["a", "b"], path: [], message: "Unrecognized key(s) in object: 'a', 'b'" }]
      })
    }))

  it.effect("unknown keys of nested objects name their object", () =>
    Effect.gen(function*() {
      const reply = yield* post({ url: "https://example.com", nested: { depth: 1, deep: true } })
      assert.strictEqual(reply.status, 400)
      assert.deepStrictEqual(envelope(reply).details, [
        { code: "unrecognized_keys", keys: ["deep"], path: ["nested"], message: "Unrecognized key(s) in object: 'deep'" }
      ])
    }))

  it.effect("origin, integration and hidden __ keys are accepted", () =>
    Effect.gen(function*() {
      for (const integration of ["n8n", "_my-own", null]) {
        const reply = yield* post({ url: "https://example.com", origin: "js-sdk@4.0.0", integration, __experimental_x: { a: 1 } })
        assert.strictEqual(reply.status, 200)
        assert.deepStrictEqual(reply.body, { success: true, keys: ["__experimental_x", "integration", "origin", "url"] })
      }
    }))

  it.effect("an integration upstream does not know is a 400", () =>
    Effect.gen(function*() {
      const reply = yield* post({ url: "https://example.com", integration: "my-tool" })
      assert.strictEqual(reply.status, 400)
      const body = envelope(reply)
      assert.strictEqual(body.code, "BAD_REQUEST")
      assert.strictEqual(body.error, "Bad Request")
      assert.deepStrictEqual(
        Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ code: Schema.String, path: Schema.Array(Schema.String) })))(body.details),
        [{ code: "invalid_type", path: ["integration"] }]
      )
    }))

  it.effect("other failures: Bad Request with one issue per field, or the refinement's own message", () =>
    Effect.gen(function*() {
      const wrong = yield* post({ url: 1, limit: -3 })
      assert.strictEqual(wrong.status, 400)
      assert.deepStrictEqual(wrong.body, {
        success: false,
        code: "BAD_REQUEST",
        error: "Bad Request",
        details: [
          { code: "invalid_type", path: ["url"], message: "Expected string, actual 1" },
          { code: "custom", path: ["limit"], message: "Expected a positive number, actual -3" }
        ]
      })
      const missing = yield* post({})
      assert.deepStrictEqual(envelope(missing).details, [{ code: "invalid_type", path: ["url"], message: "Required" }])
      const custom = yield* post({ url: "https://example.com", name: "far too long" })
      assert.strictEqual(custom.status, 400)
      assert.strictEqual(envelope(custom).error, "name must be at most 5 characters")
    }))

  it.effect("malformed JSON is a 400 BAD_REQUEST_INVALID_JSON", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", "/v2/test/strict", { text: "{\"url\": " })
      assert.strictEqual(reply.status, 400)
      assert.deepStrictEqual(reply.body, { success: false, code: "BAD_REQUEST_INVALID_JSON", error: messages.invalidJson })
    }))

  it.effect("a body over 10 MB is a 413", () =>
    Effect.gen(function*() {
      const big = JSON.stringify({ url: "https://example.com", __padding: "x".repeat(11 * 1024 * 1024) })
      const reply = yield* call("POST", "/v2/test/strict", { text: big })
      assert.strictEqual(reply.status, 413)
      assert.deepStrictEqual(reply.body, { success: false, code: "PAYLOAD_TOO_LARGE", error: messages.bodyTooLarge })
      // the server is still fine afterwards
      assert.strictEqual((yield* post({ url: "https://example.com" })).status, 200)
    }))

  it.effect("chunked bodies: read within the limit, a 413 past it", () =>
    Effect.gen(function*() {
      const encode = (text: string) => new TextEncoder().encode(text)
      const chunked = (...parts: ReadonlyArray<Uint8Array>) => HttpBody.stream(Stream.fromIterable(parts), "application/json")
      const small = yield* call("POST", "/v2/test/strict", {
        body: chunked(encode("{\"url\":\"https://example.com\","), encode("\"origin\":\"test\"}"))
      })
      assert.strictEqual(small.status, 200)
      assert.deepStrictEqual(small.body, { success: true, keys: ["origin", "url"] })
      const malformed = yield* call("POST", "/v2/test/strict", { body: chunked(encode("{\"url\":"), encode("")) })
      assert.deepStrictEqual(malformed.body, { success: false, code: "BAD_REQUEST_INVALID_JSON", error: messages.invalidJson })
      const megabyte = encode("x".repeat(1024 * 1024))
      const big = yield* call("POST", "/v2/test/strict", {
        body: HttpBody.stream(
          Stream.concat(Stream.make(encode("{\"url\":\"https://example.com\",\"__p\":\"")), Stream.fromChunk(Chunk.makeBy(11, () => megabyte))),
          "application/json"
        )
      })
      assert.strictEqual(big.status, 413)
      assert.deepStrictEqual(big.body, { success: false, code: "PAYLOAD_TOO_LARGE", error: messages.bodyTooLarge })
    }))

  it.effect("a defect is a 500 whose error id is logged with the cause", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v2/test/defect")
      assert.strictEqual(reply.status, 500)
      const body = envelope(reply)
      assert.strictEqual(body.code, "UNKNOWN_ERROR")
      const errorId = /^An unexpected error occurred\. Please check your logs for more details\. Error ID: ([0-9a-f-]{36})$/
        .exec(body.error)?.[1]
      assert.isDefined(errorId)
      const logged = errorLogs.find((l) => l.errorId === errorId)
      assert.isDefined(logged)
      assert.include(logged?.cause ?? "", "the disk is on fire")
    }))

  it.effect("the OpenAPI document shows strict bodies as closed objects", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v2/openapi.json")
      const spec = Schema.decodeUnknownSync(Schema.Struct({
        paths: Schema.Struct({
          "/v2/test/strict": Schema.Struct({
            post: Schema.Struct({
              requestBody: Schema.Struct({
                content: Schema.Struct({ "application/json": Schema.Struct({ schema: Schema.Record({ key: Schema.String, value: Schema.Unknown }) }) })
              })
            })
          })
        })
      }))(reply.body)
      const schema = spec.paths["/v2/test/strict"].post.requestBody.content["application/json"].schema
      assert.strictEqual(schema["additionalProperties"], false)
      assert.notProperty(schema, "propertyNames")
      assert.deepStrictEqual(schema["patternProperties"], { "^__": {} })
      assert.includeMembers(Object.keys(Schema.decodeUnknownSync(Schema.Record({ key: Schema.String, value: Schema.Unknown }))(schema["properties"])), ["url", "origin", "integration", "limit"])
      assert.notInclude(reply.text, "HttpApiDecodeError")
    }))
})
