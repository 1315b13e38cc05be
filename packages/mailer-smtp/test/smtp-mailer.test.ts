/**
 * The SMTP Mailer against a real SMTP server on 127.0.0.1: what arrives is what was sent
 * (non-ASCII subject and text, a line starting with a dot, a 2,000-character line, several
 * recipients, an HTML alternative); AUTH PLAIN with the URL's credentials; and failures that say
 * what went wrong instead of hanging: a wrong password, no server, a server that never answers,
 * every recipient refused.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { GleanerConfig, type Mail, Mailer } from "@gleaner/core"
import { type SmtpTestServer, startSmtpServer } from "@gleaner/fixture-site"
import { Effect, Either, Layer, Option } from "effect"
import { createServer } from "node:net"
import { SmtpMailer } from "../src/index.js"

let plain: SmtpTestServer
let authed: SmtpTestServer
let silent: SmtpTestServer
beforeAll(async () => {
  plain = await startSmtpServer()
  authed = await startSmtpServer({ auth: { user: "alerts", pass: "s3cret pass" } })
  silent = await startSmtpServer({ silent: true })
})
afterAll(async () => {
  await Promise.all([plain.close(), authed.close(), silent.close()])
})

const send = (url: string, mail: Mail, timeoutMs = 5_000) =>
  Effect.flatMap(Mailer, (m) => m.send(mail)).pipe(Effect.provide(SmtpMailer.layer({ url, from: "monitors@gleaner.test", timeoutMs })), Effect.either)

describe("SmtpMailer", () => {
  it.live("delivers subject, text and recipients exactly as sent", () =>
    Effect.gen(function*() {
      const long = "x".repeat(1_000) + " ünïcödé " + "y".repeat(1_000)
      const text = `Grüße from the monitor ✓\n.leading dot stays\n..two dots stay\n${long}\ntrailing space \nend`
      const result = yield* send(plain.url, { to: ["ops@example.com", "dev@example.com"], subject: "Preise geändert: 2 changed ✓", text })
      assert.isTrue(Either.isRight(result))
      const [mail] = yield* Effect.promise(() => plain.waitForMessages(1))
      assert.strictEqual(mail?.from, "monitors@gleaner.test")
      assert.deepStrictEqual(mail?.to, ["ops@example.com", "dev@example.com"])
      assert.strictEqual(mail?.subject, "Preise geändert: 2 changed ✓")
      assert.strictEqual(mail?.text, text)
      assert.strictEqual(mail?.headers["mime-version"], "1.0")
      // no line of the wire message is longer than SMTP allows
      assert.isTrue((mail?.data ?? "").split("\r\n").every((line) => line.length <= 998))
    }))

  it.live("sends an HTML alternative next to the text", () =>
    Effect.gen(function*() {
      const before = plain.messages.length
      yield* send(plain.url, { to: ["ops@example.com"], subject: "both", text: "plain words", html: "<p>rich <b>words</b></p>" })
      const mail = (yield* Effect.promise(() => plain.waitForMessages(before + 1)))[before]
      assert.match(mail?.headers["content-type"] ?? "", /^multipart\/alternative/)
      assert.strictEqual(mail?.text, "plain words")
      assert.strictEqual(mail?.html, "<p>rich <b>words</b></p>")
    }))

  it.live("authenticates with the URL's credentials, and says so when they are wrong", () =>
    Effect.gen(function*() {
      const port = authed.port
      const ok = yield* send(`smtp://alerts:${encodeURIComponent("s3cret pass")}@127.0.0.1:${port}`, { to: ["a@example.com"], subject: "s", text: "t" })
      assert.isTrue(Either.isRight(ok))
      assert.strictEqual(authed.messages.length, 1)
      const wrong = yield* send(`smtp://alerts:nope@127.0.0.1:${port}`, { to: ["a@example.com"], subject: "s", text: "t" })
      assert.isTrue(Either.isLeft(wrong))
      assert.include(Either.isLeft(wrong) ? wrong.left.message : "", "535 Authentication credentials invalid")
      assert.notInclude(Either.isLeft(wrong) ? wrong.left.message : "", "nope")
      const none = yield* send(`smtp://127.0.0.1:${port}`, { to: ["a@example.com"], subject: "s", text: "t" })
      assert.include(Either.isLeft(none) ? none.left.message : "", "530")
    }))

  it.live("fails clearly when nothing listens, when the server never answers, and when every recipient is refused", () =>
    Effect.gen(function*() {
      const closedPort = yield* Effect.promise(() => new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
          const address = probe.address()
          probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 1))
        })
      }))
      const nothing = yield* send(`smtp://127.0.0.1:${closedPort}`, { to: ["a@example.com"], subject: "s", text: "t" })
      assert.include(Either.isLeft(nothing) ? nothing.left.message : "", "could not connect")
      const started = Date.now()
      const mute = yield* send(silent.url, { to: ["a@example.com"], subject: "s", text: "t" }, 300)
      assert.include(Either.isLeft(mute) ? mute.left.message : "", "no reply within 300 ms")
      assert.isBelow(Date.now() - started, 5_000)
      const refused = yield* send(plain.url, { to: ["refused@example.com"], subject: "s", text: "t" })
      assert.include(Either.isLeft(refused) ? refused.left.message : "", "refused every recipient")
    }))

  it.effect("fromConfig without GLEANER_SMTP_URL fails each send saying e-mail is not configured", () =>
    Effect.gen(function*() {
      const result = yield* Effect.either(Effect.flatMap(Mailer, (m) => m.send({ to: ["a@example.com"], subject: "s", text: "t" })))
      assert.include(Either.isLeft(result) ? result.left.message : "", "GLEANER_SMTP_URL")
    }).pipe(Effect.provide(SmtpMailer.fromConfig.pipe(Layer.provide(GleanerConfig.layer({ smtpUrl: Option.none() }))))))
})
