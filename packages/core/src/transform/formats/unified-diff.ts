/**
 * Turns a line edit script into the two diff shapes change tracking returns (API.md §2.6): the
 * unified diff text (`---`/`+++` headers, `@@` hunks with 3 lines of context, the way git prints
 * them) and the same hunks in the object shape of the parse-diff library, which upstream runs
 * over its diff text, so clients that read `diff.json` find the fields they know.
 */
import { diffLines, type LineEdit } from "./line-diff.js"

/** One line of a chunk, as parse-diff describes it. */
export type DiffChange =
  | { readonly type: "add"; readonly add: true; readonly ln: number; readonly content: string }
  | { readonly type: "del"; readonly del: true; readonly ln: number; readonly content: string }
  | { readonly type: "normal"; readonly normal: true; readonly ln1: number; readonly ln2: number; readonly content: string }

/** One `@@` hunk. */
export interface DiffChunk {
  readonly content: string
  readonly changes: ReadonlyArray<DiffChange>
  readonly oldStart: number
  readonly oldLines: number
  readonly newStart: number
  readonly newLines: number
}

/** One file of the parsed diff; change tracking always has exactly one. */
export interface DiffFile {
  readonly from: string
  readonly to: string
  readonly chunks: ReadonlyArray<DiffChunk>
  readonly additions: number
  readonly deletions: number
}

/** `changeTracking.diff`: the unified text and its parsed form. */
export interface GitDiff {
  readonly text: string
  readonly json: { readonly files: ReadonlyArray<DiffFile> }
}

const CONTEXT_LINES = 3

/** Groups of edit positions that form one hunk each: changes closer than 2 × context merge. */
const hunkRanges = (edits: ReadonlyArray<LineEdit>): Array<[number, number]> => {
  const ranges: Array<[number, number]> = []
  edits.forEach((edit, i) => {
    if (edit.kind === "equal") return
    const start = Math.max(0, i - CONTEXT_LINES)
    const end = Math.min(edits.length, i + CONTEXT_LINES + 1)
    const last = ranges[ranges.length - 1]
    if (last !== undefined && start <= last[1]) last[1] = end
    else ranges.push([start, end])
  })
  return ranges
}

const toChange = (edit: LineEdit, oldLines: ReadonlyArray<string>, newLines: ReadonlyArray<string>): DiffChange => {
  switch (edit.kind) {
    case "equal":
      return { type: "normal", normal: true, ln1: edit.oldIndex + 1, ln2: edit.newIndex + 1, content: ` ${oldLines[edit.oldIndex] ?? ""}` }
    case "delete":
      return { type: "del", del: true, ln: edit.oldIndex + 1, content: `-${oldLines[edit.oldIndex] ?? ""}` }
    case "insert":
      return { type: "add", add: true, ln: edit.newIndex + 1, content: `+${newLines[edit.newIndex] ?? ""}` }
  }
}

// git omits the count when it is 1. A hunk with no line on one side only occurs when that side is
// empty (any line next to a change would be context), and git then prints `0,0`.
const range = (start: number, count: number): string => (count === 1 ? `${start}` : `${start},${count}`)

const toChunk = (edits: ReadonlyArray<LineEdit>, oldLines: ReadonlyArray<string>, newLines: ReadonlyArray<string>): DiffChunk => {
  const changes = edits.map((edit) => toChange(edit, oldLines, newLines))
  const oldCount = changes.filter((c) => c.type !== "add").length
  const newCount = changes.filter((c) => c.type !== "del").length
  const firstOld = changes.find((c) => c.type !== "add")
  const firstNew = changes.find((c) => c.type !== "del")
  const oldStart = firstOld === undefined ? 0 : firstOld.type === "normal" ? firstOld.ln1 : firstOld.ln
  const newStart = firstNew === undefined ? 0 : firstNew.type === "normal" ? firstNew.ln2 : firstNew.ln
  return {
    content: `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`,
    changes,
    oldStart,
    oldLines: oldCount,
    newStart,
    newLines: newCount
  }
}

/** The unified diff between two texts' lines, or undefined when they are equal. */
export const unifiedDiff = (
  oldText: string,
  newText: string,
  names: { readonly from: string; readonly to: string } = { from: "previous", to: "current" }
): GitDiff | undefined => {
  const oldLines = oldText === "" ? [] : oldText.split("\n")
  const newLines = newText === "" ? [] : newText.split("\n")
  const edits = diffLines(oldLines, newLines)
  const chunks = hunkRanges(edits).map(([start, end]) => toChunk(edits.slice(start, end), oldLines, newLines))
  if (chunks.length === 0) return undefined
  const text = [`--- ${names.from}`, `+++ ${names.to}`, ...chunks.flatMap((chunk) => [chunk.content, ...chunk.changes.map((c) => c.content)])].join("\n")
  const additions = edits.filter((e) => e.kind === "insert").length
  const deletions = edits.filter((e) => e.kind === "delete").length
  return { text: `${text}\n`, json: { files: [{ from: names.from, to: names.to, chunks, additions, deletions }] } }
}
