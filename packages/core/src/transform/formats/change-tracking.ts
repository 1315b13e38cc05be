/**
 * The `changeTracking` format's comparison (API.md §2.3, §2.6): given the previous snapshot of a
 * page (if any) and the current one, says whether the page is new, the same or changed, and adds
 * the requested detail — a git-style line diff (`git-diff` mode) and a field-by-field comparison
 * of the extracted JSON (`json` mode). Both sides are normalised first (line endings, trailing and
 * repeated spaces, runs of blank lines), so a page that was only re-wrapped or re-indented is
 * `same`; the diff is computed on the normalised texts, so its line numbers refer to them.
 * Whether a page is gone (`removed`) is known only to the caller, which uses `removedChangeTracking`.
 */
import { type GitDiff, unifiedDiff } from "./unified-diff.js"

export type ChangeTrackingMode = "git-diff" | "json"

/** `changeTracking` as the Document carries it. */
export interface ChangeTracking {
  readonly previousScrapeAt: string | null
  readonly changeStatus: "new" | "same" | "changed" | "removed"
  readonly visibility: "visible" | "hidden"
  readonly diff?: GitDiff
  readonly json?: Record<string, { readonly previous: unknown; readonly current: unknown }>
}

/** A stored snapshot: the page's markdown, its extracted JSON (json mode) and when it was taken. */
export interface ChangeSnapshot {
  readonly markdown: string
  readonly json?: unknown
  /** Epoch milliseconds. */
  readonly scrapedAt: number
}

/**
 * The form two snapshots are compared in: Unicode NFC, `\n` line endings, non-breaking and
 * repeated spaces collapsed, trailing spaces dropped, at most one blank line in a row, no blank
 * lines at either end. Formatting-only differences vanish; content differences remain.
 */
export const normalizeForComparison = (markdown: string): string =>
  markdown
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000\t ]+/g, " ")
    .replace(/[\u200b\ufeff]/g, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\n+$/g, "")

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** Structural equality of JSON values (key order does not matter). */
const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]))
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    return [...keys].every((key) => jsonEqual(a[key], b[key]))
  }
  return false
}

/**
 * The json-mode comparison: for objects, every top-level field whose value differs, with both
 * values (`null` for a field missing on one side); for any other JSON value, the whole value
 * under the key `"$"`. Empty when nothing differs.
 */
export const compareJsonFields = (before: unknown, after: unknown): Record<string, { previous: unknown; current: unknown }> => {
  // A snapshot taken before json mode was requested has no JSON: its fields count as missing.
  const previous = before === undefined && isRecord(after) ? {} : before
  const current = after === undefined && isRecord(before) ? {} : after
  if (!isRecord(previous) || !isRecord(current)) {
    return jsonEqual(previous, current) ? {} : { $: { previous: previous ?? null, current: current ?? null } }
  }
  const changes: Record<string, { previous: unknown; current: unknown }> = {}
  for (const key of new Set([...Object.keys(previous), ...Object.keys(current)])) {
    if (!jsonEqual(previous[key], current[key])) changes[key] = { previous: previous[key] ?? null, current: current[key] ?? null }
  }
  return changes
}

/**
 * Compares the current scrape with the previous snapshot. The status is `changed` when the
 * normalised markdown differs or, in json mode, when the extracted JSON differs. `diff` is set in
 * git-diff mode and `json` in json mode, each only when the status is `changed` and there is
 * something to show.
 */
export const compareSnapshots = (
  previous: ChangeSnapshot | undefined,
  current: { readonly markdown: string; readonly json?: unknown },
  modes: ReadonlyArray<ChangeTrackingMode>
): ChangeTracking => {
  if (previous === undefined) return { previousScrapeAt: null, changeStatus: "new", visibility: "visible" }
  const previousScrapeAt = new Date(previous.scrapedAt).toISOString()
  const before = normalizeForComparison(previous.markdown)
  const after = normalizeForComparison(current.markdown)
  const jsonChanges = modes.includes("json") ? compareJsonFields(previous.json, current.json) : {}
  const jsonChanged = Object.keys(jsonChanges).length > 0
  if (before === after && !jsonChanged) return { previousScrapeAt, changeStatus: "same", visibility: "visible" }
  const diff = modes.includes("git-diff") ? unifiedDiff(before, after) : undefined
  return {
    previousScrapeAt,
    changeStatus: "changed",
    visibility: "visible",
    ...(diff === undefined ? {} : { diff }),
    ...(jsonChanged ? { json: jsonChanges } : {})
  }
}

/** The result for a page that was tracked before and is gone now (404/410 or no longer found). */
export const removedChangeTracking = (previousScrapedAt: number): ChangeTracking => ({
  previousScrapeAt: new Date(previousScrapedAt).toISOString(),
  changeStatus: "removed",
  visibility: "visible"
})
