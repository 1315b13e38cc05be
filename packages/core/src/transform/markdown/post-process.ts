/**
 * The last pass over the converted text, line by line and aware of code fences (code is never
 * touched): trailing whitespace trimmed, runs of blank lines collapsed to one, and hard breaks that
 * end a block dropped — a backslash before a blank line is not a break but a literal backslash.
 */
import { stripHardBreak } from "./lines.js"

interface Fence {
  readonly char: string
  readonly length: number
}

// Fences may sit inside block quotes and list items, hence the `>` and space prefix.
const fenceOpen = /^[\s>]*(`{3,}|~{3,})(.*)$/
const fenceClose = /^[\s>]*(`{3,}|~{3,})\s*$/
const trailingSpace = /[ \t\u00a0]+$/
const listMarker = /^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)/
const quoteOnly = /^[\s>]*$/
const breakOnly = /^[\s>]*\\$/

// Most lines have no trailing space; an end-anchored regex would still scan each of them.
const endsInSpace = (line: string): boolean => {
  const last = line.charCodeAt(line.length - 1)
  return last === 32 || last === 9 || last === 0xa0
}

const openingFence = (line: string): Fence | undefined => {
  const match = fenceOpen.exec(line)
  const run = match?.[1]
  if (run === undefined) return undefined
  // A backtick fence's info string cannot hold a backtick (that line is inline code).
  if (run.startsWith("`") && (match?.[2] ?? "").includes("`")) return undefined
  return { char: run.charAt(0), length: run.length }
}

const closes = (line: string, fence: Fence): boolean => {
  const run = fenceClose.exec(line)?.[1]
  return run !== undefined && run.charAt(0) === fence.char && run.length >= fence.length
}

// A hard break needs a following line in the same paragraph.
const endsBlock = (next: string | undefined): boolean =>
  next === undefined || quoteOnly.test(next) || listMarker.test(next)

export const tidyMarkdown = (markdown: string): string => {
  const lines = markdown.split("\n")
  const out: Array<string> = []
  let fence: Fence | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ""
    if (fence !== undefined) {
      out.push(line)
      if (closes(line, fence)) fence = undefined
      continue
    }
    let tidy = endsInSpace(line) ? line.replace(trailingSpace, "") : line
    fence = openingFence(tidy)
    if (fence === undefined && tidy.endsWith("\\") && endsBlock(lines[i + 1])) tidy = stripHardBreak(tidy).replace(trailingSpace, "")
    // A line holding only a break is vertical spacing from stacked <br>s, not content.
    if (breakOnly.test(tidy)) continue
    if (tidy === "" && (out.length === 0 || out[out.length - 1] === "")) continue
    out.push(tidy)
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop()
  return out.join("\n")
}
