/**
 * A worker process killed mid-job (SIGKILL: no finalizer, no release) leaves its job leased; once
 * the lease expires, a worker in another process takes it over and completes it. On a SQLite
 * file shared by both processes and on Postgres.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { JobHandlers, runWorkers, Store } from "@gleaner/core"
import { Duration, Effect, Layer, Option } from "effect"
import { storeLayerFromUrl } from "../src/index.js"
import { scopedDatabase } from "./postgres-fixtures.js"

const fixture = fileURLToPath(new URL("./fixtures/hanging-worker.ts", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "gleaner-kill-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const pgUrl = process.env["GLEANER_TEST_POSTGRES_URL"]

/** Starts the hanging worker process and resolves once it runs `jobId`, with a way to kill it. */
const startHangingWorker = (url: string, kind: string, jobId: string) =>
  new Promise<{ readonly kill: () => void }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@gleaner/source", "--import", "tsx", fixture, url, kind], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const timer = setTimeout(() => reject(new Error(`worker process never ran the job:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(`running ${jobId}`)) {
        clearTimeout(timer)
        resolve({ kill: () => child.kill("SIGKILL") })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`worker process exited (${code}):\n${output}`))
    })
  })

const killAndTakeOver = (url: string) =>
  Effect.gen(function*() {
    const store = yield* Store
    const kind = `kill-${Date.now()}`
    yield* store.teams.create({ id: crypto.randomUUID(), name: kind, plan: "free", maxConcurrency: 2, createdAt: Date.now() })
    const team = Option.getOrThrow(yield* store.teams.findByName(kind))
    const job = yield* store.jobs.enqueue({ id: crypto.randomUUID(), teamId: team.id, kind, payload: "{}", runAt: 0, createdAt: Date.now() })

    const worker = yield* Effect.promise(() => startHangingWorker(url, kind, job.id))
    worker.kill()
    const leased = Option.getOrThrow(yield* store.jobs.get(team.id, job.id))
    expect([leased.status, leased.workerId?.startsWith("child-")]).toEqual(["running", true])

    yield* runWorkers({ concurrency: 1, leaseMs: 1_000, pollMs: 20, graceMs: 0, retryBaseMs: 10 }).pipe(
      Effect.provide(JobHandlers.layer([{ kind, run: () => Effect.succeed("taken over") }]))
    )
    let done = leased
    for (let i = 0; i < 500 && done.status !== "completed"; i++) {
      yield* Effect.sleep(Duration.millis(20))
      done = Option.getOrThrow(yield* store.jobs.get(team.id, job.id))
    }
    expect([done.status, done.attempts, done.result]).toEqual(["completed", 2, JSON.stringify("taken over")])
  }).pipe(Effect.scoped, Effect.provide(Layer.fresh(storeLayerFromUrl(url))))

describe("a worker process killed mid-job", () => {
  it("on a SQLite file: the job is taken over after the lease expires", () =>
    Effect.runPromise(killAndTakeOver(join(dir, "shared.db"))), 90_000)

  // Without a Postgres URL the Postgres half cannot run (postgres.test.ts warns loudly about it).
  it.skipIf(!pgUrl)("on Postgres: the job is taken over after the lease expires", () =>
    Effect.runPromise(Effect.scoped(Effect.flatMap(scopedDatabase(pgUrl ?? ""), (db) => killAndTakeOver(db.url)))), 90_000)
})
