/**
 * One vitest project per package (and one for the examples). Workspace packages resolve to their
 * TypeScript sources through the `@gleaner/source` export condition, so tests need no build.
 */
import type { TestProjectConfiguration } from "vitest/config"

// Setting conditions replaces Vite's defaults, so they are restated after ours.
const conditions = ["@gleaner/source", "module", "node", "development|production"]

const project = (name: string, root: string, timeoutMs = 30_000, options: { readonly serialFiles?: boolean } = {}) => ({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name,
    root,
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "*/test/**/*.test.ts"],
    testTimeout: timeoutMs,
    hookTimeout: timeoutMs,
    // one worker, files in turn: for suites whose real browsers would fight over the cores
    ...(options.serialFiles === true ? { pool: "forks" as const, poolOptions: { forks: { singleFork: true } } } : {})
  }
})

export const projects: Array<TestProjectConfiguration> = [
  project("core", "packages/core"),
  project("store-sql", "packages/store-sql", 60_000),
  project("fetch-undici", "packages/fetch-undici"),
  project("scheduler-croner", "packages/scheduler-croner"),
  project("mailer-smtp", "packages/mailer-smtp"),
  project("browser-playwright", "packages/browser-playwright", 60_000, { serialFiles: true }),
  project("fixture-site", "packages/fixture-site"),
  project("http", "packages/http"),
  project("client", "packages/client"),
  project("cli", "packages/cli", 120_000),
  project("examples", "examples", 120_000)
]
