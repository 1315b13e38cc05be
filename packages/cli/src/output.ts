/**
 * Printing for people and for scripts: aligned tables by default, JSON with `--json`.
 */
import { Console, Effect } from "effect"

export const printTable = (rows: ReadonlyArray<Readonly<Record<string, string>>>): Effect.Effect<void> => {
  if (rows.length === 0) return Console.log("(none)")
  const columns = Object.keys(rows[0] ?? {})
  const width = (c: string) => Math.max(c.length, ...rows.map((r) => (r[c] ?? "").length))
  const line = (cells: ReadonlyArray<string>) => cells.map((cell, i) => cell.padEnd(width(columns[i] ?? ""))).join("  ").trimEnd()
  return Console.log([line(columns), ...rows.map((r) => line(columns.map((c) => r[c] ?? "")))].join("\n"))
}

export const printJson = (value: unknown): Effect.Effect<void> => Console.log(JSON.stringify(value, null, 2))

export const iso = (ms: number | null): string => (ms === null ? "" : new Date(ms).toISOString())
