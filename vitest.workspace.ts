/**
 * One vitest project per package (and one for the examples). Workspace packages resolve to their
 * TypeScript sources through the `@gleaner/source` export condition, so tests need no build.
 */
import type { TestProjectConfiguration } from "vitest/config"

const project = (name: string, root: string, timeoutMs = 30_000) => ({
  resolve: { conditions: ["@gleaner/source"] },
  ssr: { resolve: { conditions: ["@gleaner/source"] } },
  test: {
    name,
    root,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: timeoutMs,
    hookTimeout: timeoutMs
  }
})

export const projects: Array<TestProjectConfiguration> = [
  project("core", "packages/core"),
  project("store-sql", "packages/store-sql", 60_000),
  project("http", "packages/http"),
  project("client", "packages/client"),
  project("cli", "packages/cli", 120_000),
  project("examples", "examples", 120_000)
]
