import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { startService } from "../src/service.js"

const dir = mkdtempSync(join(tmpdir(), "gleaner-example-embed-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it("serves the engine's answers from inside the service", async () => {
  const service = await startService({ port: 0, database: join(dir, "service.db") })
  try {
    const response = await fetch(`${service.url}/usage`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      team: "default",
      credits: { remainingCredits: 100_000_000 },
      queue: { success: true, jobsInQueue: 0 }
    })
  } finally {
    await service.close()
  }
})
