/**
 * A line diff for change tracking: Myers' O((N+M)·D) algorithm in its linear-space form (the
 * "middle snake" bisection), on lines interned to integers. Two reductions keep real pages fast:
 * the common prefix and suffix are stripped first, and lines that occur on one side only are set
 * aside before the search (they can never be part of a longest common subsequence, so the script
 * stays minimal) and woven back in afterwards. A cost cap bounds pathological inputs: a bisection
 * that would explore more than `MAX_BISECT_CELLS` diagonal cells reports its range as deleted and
 * re-added, which is still a correct diff, just not a minimal one.
 */

/** One step of an edit script; indexes are 0-based line positions in the old and new texts. */
export type LineEdit =
  | { readonly kind: "equal"; readonly oldIndex: number; readonly newIndex: number }
  | { readonly kind: "delete"; readonly oldIndex: number }
  | { readonly kind: "insert"; readonly newIndex: number }

const MAX_BISECT_CELLS = 25_000_000

type Emit = (edit: LineEdit) => void

interface Sequences {
  readonly a: Int32Array
  readonly b: Int32Array
}

const intern = (oldLines: ReadonlyArray<string>, newLines: ReadonlyArray<string>) => {
  const ids = new Map<string, number>()
  const idOf = (line: string) => {
    let id = ids.get(line)
    if (id === undefined) {
      id = ids.size
      ids.set(line, id)
    }
    return id
  }
  return { a: Int32Array.from(oldLines, idOf), b: Int32Array.from(newLines, idOf) }
}

const at = (array: Int32Array, index: number): number => array[index] ?? -1

/** Edits for a[aLo, aHi) against b[bLo, bHi), in order. */
const diffRange = (s: Sequences, aLo: number, aHi: number, bLo: number, bHi: number, emit: Emit): void => {
  while (aLo < aHi && bLo < bHi && at(s.a, aLo) === at(s.b, bLo)) emit({ kind: "equal", oldIndex: aLo++, newIndex: bLo++ })
  let aEnd = aHi
  let bEnd = bHi
  while (aEnd > aLo && bEnd > bLo && at(s.a, aEnd - 1) === at(s.b, bEnd - 1)) {
    aEnd--
    bEnd--
  }
  if (aLo === aEnd) for (let j = bLo; j < bEnd; j++) emit({ kind: "insert", newIndex: j })
  else if (bLo === bEnd) for (let i = aLo; i < aEnd; i++) emit({ kind: "delete", oldIndex: i })
  else {
    const split = middleSnake(s, aLo, aEnd, bLo, bEnd)
    if (split === undefined) {
      for (let i = aLo; i < aEnd; i++) emit({ kind: "delete", oldIndex: i })
      for (let j = bLo; j < bEnd; j++) emit({ kind: "insert", newIndex: j })
    } else {
      diffRange(s, aLo, aLo + split.x, bLo, bLo + split.y, emit)
      diffRange(s, aLo + split.x, aEnd, bLo + split.y, bEnd, emit)
    }
  }
  for (let k = 0; k < aHi - aEnd; k++) emit({ kind: "equal", oldIndex: aEnd + k, newIndex: bEnd + k })
}

/**
 * Finds a point (x, y) on an optimal path through the edit graph of the two ranges by searching
 * forward from the start and backward from the end until the paths overlap (a port of the
 * bisection in diff-match-patch). Returns undefined when the cost cap is reached.
 */
const middleSnake = (s: Sequences, aLo: number, aHi: number, bLo: number, bHi: number): { x: number; y: number } | undefined => {
  const n = aHi - aLo
  const m = bHi - bLo
  const maxD = Math.ceil((n + m) / 2)
  const offset = maxD
  const size = 2 * maxD
  const forward = new Int32Array(size).fill(-1)
  const backward = new Int32Array(size).fill(-1)
  forward[offset + 1] = 0
  backward[offset + 1] = 0
  const delta = n - m
  const front = delta % 2 !== 0
  const dLimit = Math.min(maxD, Math.ceil(MAX_BISECT_CELLS / (n + m)))
  let k1start = 0
  let k1end = 0
  let k2start = 0
  let k2end = 0
  for (let d = 0; d < dLimit; d++) {
    for (let k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      const i = offset + k1
      let x1 = k1 === -d || (k1 !== d && at(forward, i - 1) < at(forward, i + 1)) ? at(forward, i + 1) : at(forward, i - 1) + 1
      let y1 = x1 - k1
      while (x1 < n && y1 < m && at(s.a, aLo + x1) === at(s.b, bLo + y1)) {
        x1++
        y1++
      }
      forward[i] = x1
      if (x1 > n) k1end += 2
      else if (y1 > m) k1start += 2
      else if (front) {
        const j = offset + delta - k1
        if (j >= 0 && j < size && at(backward, j) !== -1 && x1 >= n - at(backward, j)) return { x: x1, y: y1 }
      }
    }
    for (let k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      const i = offset + k2
      let x2 = k2 === -d || (k2 !== d && at(backward, i - 1) < at(backward, i + 1)) ? at(backward, i + 1) : at(backward, i - 1) + 1
      let y2 = x2 - k2
      while (x2 < n && y2 < m && at(s.a, aHi - 1 - x2) === at(s.b, bHi - 1 - y2)) {
        x2++
        y2++
      }
      backward[i] = x2
      if (x2 > n) k2end += 2
      else if (y2 > m) k2start += 2
      else if (!front) {
        const j = offset + delta - k2
        if (j >= 0 && j < size && at(forward, j) !== -1) {
          const x1 = at(forward, j)
          if (x1 >= n - x2) return { x: x1, y: x1 - (j - offset) }
        }
      }
    }
  }
  return undefined
}

/** Keeps only the lines both sides share, remembering where each came from. */
const sharedOnly = ({ a, b }: Sequences) => {
  const inA = new Set(a)
  const inB = new Set(b)
  const aIndex: Array<number> = []
  const bIndex: Array<number> = []
  a.forEach((id, i) => inB.has(id) && aIndex.push(i))
  b.forEach((id, j) => inA.has(id) && bIndex.push(j))
  return {
    reduced: { a: Int32Array.from(aIndex, (i) => at(a, i)), b: Int32Array.from(bIndex, (j) => at(b, j)) },
    aIndex,
    bIndex
  }
}

/** A minimal (under the cost cap) edit script turning `oldLines` into `newLines`. */
export const diffLines = (oldLines: ReadonlyArray<string>, newLines: ReadonlyArray<string>): Array<LineEdit> => {
  const full = intern(oldLines, newLines)
  const { reduced, aIndex, bIndex } = sharedOnly(full)
  const edits: Array<LineEdit> = []
  let nextOld = 0
  let nextNew = 0
  // Lines unique to one side are emitted in place: deletions before insertions in each gap.
  const catchUp = (oldUntil: number, newUntil: number) => {
    while (nextOld < oldUntil) edits.push({ kind: "delete", oldIndex: nextOld++ })
    while (nextNew < newUntil) edits.push({ kind: "insert", newIndex: nextNew++ })
  }
  diffRange(reduced, 0, reduced.a.length, 0, reduced.b.length, (edit) => {
    if (edit.kind === "equal") {
      const oldIndex = aIndex[edit.oldIndex] ?? 0
      const newIndex = bIndex[edit.newIndex] ?? 0
      catchUp(oldIndex, newIndex)
      edits.push({ kind: "equal", oldIndex: nextOld++, newIndex: nextNew++ })
    } else if (edit.kind === "delete") {
      catchUp((aIndex[edit.oldIndex] ?? 0) + 1, nextNew)
    } else {
      catchUp(nextOld, (bIndex[edit.newIndex] ?? 0) + 1)
    }
  })
  catchUp(oldLines.length, newLines.length)
  return edits
}
