import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { startServer } from "../../../packages/cli/test/processes.js"
import { usageReport } from "../src/report.js"

const dir = mkdtempSync(join(tmpdir(), "gleaner-example-sdk-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it("reports a Gleaner server's account figures through the official SDK", async () => {
  const server = await startServer({ GLEANER_DATA_DIR: dir }, { direct: true })
  try {
    expect(await usageReport(server.url, server.printedKey ?? "")).toEqual({
      remainingCredits: 100_000_000,
      planCredits: 100_000_000,
      remainingTokens: 1_500_000_000,
      runningJobs: 0,
      maxConcurrency: 50,
      queuedJobs: 0
    })
  } finally {
    await server.stop()
  }
}, 60_000)
