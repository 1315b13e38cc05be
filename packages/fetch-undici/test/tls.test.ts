/**
 * TLS against a local HTTPS server with a self-signed certificate made by the `openssl` CLI at
 * test time (Node cannot issue certificates itself). Skipped, with the reason, without openssl.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:https"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Fetcher } from "@gleaner/core"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { fetcherWith, text } from "./harness.js"

const hasOpenssl = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

const selfSigned = (): { key: Buffer; cert: Buffer } => {
  const dir = mkdtempSync(join(tmpdir(), "gleaner-tls-"))
  try {
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")
    ], { stdio: "ignore" })
    return { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

let server: Server | undefined
let origin = ""

beforeAll(async () => {
  if (!hasOpenssl) return
  server = createServer(selfSigned(), (req, res) => {
    const socket = req.socket
    const servername = "servername" in socket && typeof socket.servername === "string" ? socket.servername : null
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ servername }))
  })
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no TCP address")
  origin = `https://localhost:${address.port}`
})
afterAll(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))))

const fetchTls = (skipTlsVerification: boolean, url = `${origin}/`) =>
  Effect.flatMap(Fetcher, (f) => f.fetch({ url, timeoutMs: 5000, maxBodyBytes: 1024 * 1024, skipTlsVerification })).pipe(
    Effect.provide(fetcherWith(["127.0.0.0/8"]))
  )

describe.skipIf(!hasOpenssl)("TLS (self-signed certificate from openssl)", () => {
  it.live("refuses an untrusted certificate, suggesting skipTlsVerification", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fetchTls(false))
      assert.strictEqual(error._tag, "ScrapeSslError")
      assert.strictEqual(error.code, "SCRAPE_SSL_ERROR")
      assert.include(error.message, "skipTlsVerification: true")
    }))

  it.live("connects when told to skip verification, sending the host name as SNI", () =>
    Effect.gen(function*() {
      const res = yield* fetchTls(true)
      assert.strictEqual(res.status, 200)
      assert.deepStrictEqual(JSON.parse(text(res.body)), { servername: "localhost" })
    }))

  it.live("reaches an IP-literal host too, with no SNI", () =>
    Effect.gen(function*() {
      const res = yield* fetchTls(true, origin.replace("localhost", "127.0.0.1"))
      assert.deepStrictEqual(JSON.parse(text(res.body)), { servername: null })
    }))
})
