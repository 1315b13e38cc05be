/**
 * The dependency rules of STYLE.md, checked on every test run: the core imports no adapter and
 * no driver, pure transforms import nothing with I/O, adapters import only the core and their
 * own drivers, and no workspace package depends on another in a cycle.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const packagesDir = join(root, "packages")

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return path.endsWith(".ts") && !path.endsWith(".test.ts") ? [path] : []
  })

const importsOf = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]))

const packageImports = (pkg: string) =>
  sourceFiles(join(packagesDir, pkg, "src")).map((file) => ({ file: file.slice(root.length), imports: importsOf(file) }))

const violations = (pkg: string, forbidden: (specifier: string, file: string) => boolean) =>
  packageImports(pkg).flatMap(({ file, imports }) => imports.filter((s) => forbidden(s, file)).map((s) => `${file} imports ${s}`))

const drivers = ["better-sqlite3", "pg", "kysely", "playwright-core", "@effect/sql", "@effect/platform-node", "undici", "nodemailer"]
const isDriver = (s: string) => drivers.some((d) => s === d || s.startsWith(`${d}/`) || s.startsWith(`${d}-`))

const ioModule = /^node:(fs|net|http|https|http2|dns|child_process|worker_threads)/
const pureSiblings = /^\.\.\/(schema\/|errors\.js$)/

describe("dependency rules", () => {
  it("the core imports no adapter package and no driver", () => {
    expect(violations("core", (s) => (s.startsWith("@gleaner/") && s !== "@gleaner/core") || isDriver(s))).toEqual([])
  })

  it("pure transforms import nothing with I/O", () => {
    expect(violations("core", (s, file) =>
      file.includes("/transform/") && (ioModule.test(s) || (s.startsWith("../") && !pureSiblings.test(s))))).toEqual([])
  })

  it("port adapters (store, browser, fetch, scheduler, mailer) import only the core among workspace packages", () => {
    const adapters = readdirSync(packagesDir).filter((p) => /^(store|browser|fetch|scheduler|mailer)-/.test(p))
    expect(adapters.length).toBeGreaterThanOrEqual(5)
    for (const pkg of adapters) {
      expect(violations(pkg, (s) => s.startsWith("@gleaner/") && s !== "@gleaner/core")).toEqual([])
    }
  })

  it("the HTTP adapter holds no storage driver", () => {
    expect(violations("http", (s) => s.startsWith("@gleaner/store-") || ["better-sqlite3", "pg", "kysely"].includes(s))).toEqual([])
  })

  it("workspace packages depend on each other without cycles", () => {
    const deps = new Map<string, Array<string>>()
    for (const pkg of readdirSync(packagesDir)) {
      const manifestPath = join(packagesDir, pkg, "package.json")
      try {
        statSync(manifestPath)
      } catch {
        continue
      }
      const manifest: { name?: string; dependencies?: Record<string, string> } = JSON.parse(readFileSync(manifestPath, "utf8"))
      if (manifest.name === undefined) continue
      deps.set(manifest.name, Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith("@gleaner/")))
    }
    const cycles: Array<string> = []
    const visit = (name: string, path: ReadonlyArray<string>) => {
      if (path.includes(name)) return void cycles.push([...path, name].join(" → "))
      for (const next of deps.get(name) ?? []) visit(next, [...path, name])
    }
    for (const name of deps.keys()) visit(name, [])
    expect(cycles).toEqual([])
  })
})
