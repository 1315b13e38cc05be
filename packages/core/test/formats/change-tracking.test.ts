import { describe, expect, it } from "vitest"
import { compareJsonFields, compareSnapshots, normalizeForComparison, removedChangeTracking } from "../../src/transform/formats/change-tracking.js"
import { diffLines, type LineEdit } from "../../src/transform/formats/line-diff.js"

const scrapedAt = Date.UTC(2025, 0, 2, 3, 4, 5)
const lines = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i + 1}`)

/** Rebuilds the new text from the old one and an edit script, checking every index on the way. */
const replay = (oldLines: ReadonlyArray<string>, newLines: ReadonlyArray<string>, edits: ReadonlyArray<LineEdit>) => {
  const out: Array<string> = []
  let i = 0
  let j = 0
  for (const edit of edits) {
    if (edit.kind === "equal") {
      expect([edit.oldIndex, edit.newIndex, oldLines[i]]).toEqual([i, j, newLines[j]])
      out.push(newLines[j] ?? "")
      i++
      j++
    } else if (edit.kind === "delete") {
      expect(edit.oldIndex).toBe(i++)
    } else {
      expect(edit.newIndex).toBe(j)
      out.push(newLines[j++] ?? "")
    }
  }
  expect([i, j]).toEqual([oldLines.length, newLines.length])
  return out
}

const lcsLength = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  let previous = new Array<number>(b.length + 1).fill(0)
  for (const x of a) {
    const row = [0]
    b.forEach((y, j) => row.push(x === y ? (previous[j] ?? 0) + 1 : Math.max(previous[j + 1] ?? 0, row[j] ?? 0)))
    previous = row
  }
  return previous[b.length] ?? 0
}

describe("compareSnapshots", () => {
  it("reports a first scrape as new", () => {
    expect(compareSnapshots(undefined, { markdown: "# Hi" }, ["git-diff"])).toEqual({ previousScrapeAt: null, changeStatus: "new", visibility: "visible" })
  })

  it("treats formatting-only differences as the same page", () => {
    const previous = { markdown: "# Title\r\n\r\n\r\nSome  text\u00a0here.   \n\n- item\n", scrapedAt }
    expect(compareSnapshots(previous, { markdown: "# Title\n\nSome text here.\n\n- item" }, ["git-diff"])).toEqual({
      previousScrapeAt: "2025-01-02T03:04:05.000Z",
      changeStatus: "same",
      visibility: "visible"
    })
  })

  it("returns a git-style diff and its parse-diff form when asked", () => {
    const before = lines(12).join("\n")
    const after = lines(12).map((l) => (l === "Line 4" ? "Line four" : l)).concat("Line 13").join("\n")
    const result = compareSnapshots({ markdown: before, scrapedAt }, { markdown: after }, ["git-diff"])
    expect(result.changeStatus).toBe("changed")
    expect(result.diff?.text).toBe(
      ["--- previous", "+++ current", "@@ -1,7 +1,7 @@", " Line 1", " Line 2", " Line 3", "-Line 4", "+Line four", " Line 5", " Line 6", " Line 7",
        "@@ -10,3 +10,4 @@", " Line 10", " Line 11", " Line 12", "+Line 13", ""].join("\n")
    )
    const [file] = result.diff?.json.files ?? []
    expect(file).toMatchObject({ from: "previous", to: "current", additions: 2, deletions: 1 })
    expect(file?.chunks[0]?.changes.slice(2, 5)).toEqual([
      { type: "normal", normal: true, ln1: 3, ln2: 3, content: " Line 3" },
      { type: "del", del: true, ln: 4, content: "-Line 4" },
      { type: "add", add: true, ln: 4, content: "+Line four" }
    ])
    expect(file?.chunks[1]).toMatchObject({ content: "@@ -10,3 +10,4 @@", oldStart: 10, oldLines: 3, newStart: 10, newLines: 4 })
  })

  it("omits the diff unless git-diff mode is requested, and diffs from an empty page", () => {
    expect(compareSnapshots({ markdown: "a", scrapedAt }, { markdown: "b" }, [])).not.toHaveProperty("diff")
    const fromEmpty = compareSnapshots({ markdown: "", scrapedAt }, { markdown: "x\ny" }, ["git-diff"])
    expect(fromEmpty.diff?.text).toBe("--- previous\n+++ current\n@@ -0,0 +1,2 @@\n+x\n+y\n")
  })

  it("compares JSON fields in json mode", () => {
    const previous = { markdown: "same", json: { price: 10, name: "Mug", tags: ["a"] }, scrapedAt }
    const result = compareSnapshots(previous, { markdown: "same", json: { name: "Mug", price: 12, tags: ["a"], color: "red" } }, ["json"])
    expect(result).toEqual({
      previousScrapeAt: "2025-01-02T03:04:05.000Z",
      changeStatus: "changed",
      visibility: "visible",
      json: { price: { previous: 10, current: 12 }, color: { previous: null, current: "red" } }
    })
    expect(compareJsonFields([1, 2], [1, 2])).toEqual({})
    expect(compareJsonFields("a", "b")).toEqual({ $: { previous: "a", current: "b" } })
  })

  it("builds the removed result for the caller", () => {
    expect(removedChangeTracking(scrapedAt)).toEqual({ previousScrapeAt: "2025-01-02T03:04:05.000Z", changeStatus: "removed", visibility: "visible" })
  })

  it("normalises whitespace but keeps content", () => {
    expect(normalizeForComparison("\n\nA\t b  \r\nc\u200b\n\n\n\nd\n")).toBe("A b\nc\n\nd")
  })
})

describe("diffLines", () => {
  it("produces a valid, minimal edit script on random inputs", () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    for (let round = 0; round < 500; round++) {
      const alphabet = 1 + Math.floor(random() * 6)
      const make = () => Array.from({ length: Math.floor(random() * 25) }, () => String.fromCharCode(97 + Math.floor(random() * alphabet)))
      const a = make()
      const b = make()
      const edits = diffLines(a, b)
      expect(replay(a, b, edits)).toEqual(b)
      expect(edits.filter((e) => e.kind === "equal").length).toBe(lcsLength(a, b))
    }
  })

  it("handles 10,000-line pages with scattered edits and complete rewrites", () => {
    const before = Array.from({ length: 10_000 }, (_, i) => `Paragraph ${i} talks about item ${i % 13}.`)
    const after = before.map((line, i) => (i % 97 === 0 ? `Edited ${i}` : line))
    after.splice(5_000, 0, "An inserted line")
    const edits = diffLines(before, after)
    expect(replay(before, after, edits)).toEqual(after)
    // 104 edited lines (each a deletion and an insertion) plus one inserted line: still minimal.
    expect(edits.filter((e) => e.kind === "delete").length).toBe(104)
    expect(edits.filter((e) => e.kind === "insert").length).toBe(105)

    const reversed = [...before].reverse()
    expect(replay(before, reversed, diffLines(before, reversed))).toEqual(reversed)
    const shuffled = before.map((_, i) => before[(i * 7919) % before.length] ?? "")
    expect(replay(before, shuffled, diffLines(before, shuffled))).toEqual(shuffled)
  })
})
