/**
 * Diagnostics only: times every better-sqlite3 statement the process runs, by SQL text, by
 * wrapping the methods of the driver's Statement prototype (`run`, `all`, `get`, `iterate`).
 * The driver is the one `@gleaner/store-sql` loads, found through the workspace's symlinks
 * (bench → client → store-sql → @effect/sql-sqlite-node → better-sqlite3), so the wrapped
 * prototype is the one Gleaner's connections use. Time spent inside a statement includes any
 * fsync its commit waits for (better-sqlite3 is synchronous: it blocks the event loop).
 */
import { realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { performance } from "node:perf_hooks"

export interface StatementTiming {
  readonly sql: string
  readonly calls: number
  readonly totalMs: number
  readonly maxMs: number
}

const benchDir = fileURLToPath(new URL("../../", import.meta.url))

const driverPath = (): string => {
  const client = realpathSync(join(benchDir, "node_modules/@gleaner/client"))
  const storeSql = realpathSync(join(client, "node_modules/@gleaner/store-sql"))
  const sqliteNode = realpathSync(join(storeSql, "node_modules/@effect/sql-sqlite-node"))
  return createRequire(join(sqliteNode, "package.json")).resolve("better-sqlite3")
}

const normalize = (sql: unknown): string =>
  typeof sql === "string" ? sql.replace(/\s+/g, " ").trim().slice(0, 160) : "(unknown)"

/** Starts timing; `report()` gives the statements by total time, `stop()` unwraps. */
export const timeSqliteStatements = () => {
  const Database: unknown = createRequire(import.meta.url)(driverPath())
  if (typeof Database !== "function") throw new Error("better-sqlite3 did not load as a constructor")
  const db: unknown = Reflect.construct(Database, [":memory:"])
  const prepare: unknown = Reflect.get(Object(db), "prepare")
  if (typeof prepare !== "function") throw new Error("better-sqlite3 Database has no prepare()")
  const statement: unknown = Reflect.apply(prepare, db, ["select 1"])
  const proto: unknown = Object.getPrototypeOf(statement)
  const timings = new Map<string, { calls: number; totalMs: number; maxMs: number }>()
  const originals: Array<readonly [string, unknown]> = []
  for (const method of ["run", "all", "get", "iterate"]) {
    const original: unknown = Reflect.get(Object(proto), method)
    if (typeof original !== "function") continue
    originals.push([method, original])
    Reflect.set(Object(proto), method, function(this: unknown, ...args: Array<unknown>): unknown {
      const started = performance.now()
      try {
        return Reflect.apply(original, this, args)
      } finally {
        const ms = performance.now() - started
        const sql = normalize(Reflect.get(Object(this), "source"))
        const entry = timings.get(sql) ?? { calls: 0, totalMs: 0, maxMs: 0 }
        entry.calls += 1
        entry.totalMs += ms
        entry.maxMs = Math.max(entry.maxMs, ms)
        timings.set(sql, entry)
      }
    })
  }
  const close: unknown = Reflect.get(Object(db), "close")
  if (typeof close === "function") Reflect.apply(close, db, [])
  return {
    report: (): Array<StatementTiming> =>
      [...timings].map(([sql, t]) => ({ sql, ...t })).sort((a, b) => b.totalMs - a.totalMs),
    reset: () => timings.clear(),
    stop: () => {
      for (const [method, original] of originals) Reflect.set(Object(proto), method, original)
    }
  }
}
