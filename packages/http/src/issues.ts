/**
 * Turns Effect's schema issues into the body upstream answers a bad request with (API.md §1.3):
 * zod-like `details` (`unrecognized_keys` naming every unknown key of an object, otherwise
 * `{code, path, message}` per field) and the `error` text: the unrecognized-key sentence, a custom
 * refinement message, or "Bad Request".
 *
 * Decoding with `errors: "all"` reports every member of a failed union separately, including the
 * `undefined` member behind each optional field; those are folded into one issue per path here.
 */
import { messages } from "@gleaner/core"
import type { ParseResult } from "effect"

type PathKey = string | number

export type IssueDetail =
  | {
    readonly code: "unrecognized_keys"
    readonly keys: ReadonlyArray<string>
    readonly path: ReadonlyArray<PathKey>
    readonly message: string
  }
  | { readonly code: string; readonly path: ReadonlyArray<PathKey>; readonly message: string }

export interface BadRequestDescription {
  readonly message: string
  readonly details: ReadonlyArray<IssueDetail>
}

type Issue = ParseResult.ArrayFormatterIssue

const pathOf = (path: ReadonlyArray<PropertyKey>): Array<PathKey> =>
  path.map((k) => (typeof k === "symbol" ? String(k) : k))

const EXPECTED = /^Expected (.*), actual (.*)$/s

/** One issue for all the failed union members at a path; none when only `undefined` was expected. */
const foldTypeIssues = (path: Array<PathKey>, issues: ReadonlyArray<Issue>): IssueDetail | undefined => {
  const parsed = issues.map((i) => EXPECTED.exec(i.message))
  const expected = parsed.flatMap((m) => (m === null || m[1] === "undefined" ? [] : [m[1] ?? ""]))
  const actual = parsed.find((m) => m !== null)?.[2]
  if (parsed.every((m) => m !== null) && actual !== undefined) {
    if (expected.length === 0) return undefined
    return { code: "invalid_type", path, message: `Expected ${expected.join(" | ")}, actual ${actual}` }
  }
  const first = issues.find((i) => !i.message.startsWith("Expected undefined")) ?? issues[0]
  return first === undefined ? undefined : { code: "invalid_type", path, message: first.message }
}

const detailFor = (path: Array<PathKey>, issues: ReadonlyArray<Issue>): IssueDetail | undefined => {
  const refinement = issues.find((i) => i._tag === "Refinement")
  if (refinement !== undefined) return { code: "custom", path, message: refinement.message }
  const missing = issues.find((i) => i._tag === "Missing")
  if (missing !== undefined) return { code: "invalid_type", path, message: "Required" }
  const types = issues.filter((i) => i._tag === "Type")
  if (types.length > 0) return foldTypeIssues(path, types)
  const other = issues[0]
  return other === undefined ? undefined : { code: "custom", path, message: other.message }
}

const unrecognized = (path: Array<PathKey>, keys: ReadonlyArray<string>): IssueDetail => ({
  code: "unrecognized_keys",
  keys,
  path,
  message: `Unrecognized key(s) in object: ${keys.map((k) => `'${k}'`).join(", ")}`
})

export const describeIssues = (issues: ReadonlyArray<Issue>): BadRequestDescription => {
  // groups in order of first appearance: unknown keys by the object holding them, others by path
  const groups = new Map<string, { kind: "keys" | "field"; path: Array<PathKey>; issues: Array<Issue> }>()
  for (const issue of issues) {
    const full = pathOf(issue.path)
    const kind = issue._tag === "Unexpected" ? "keys" : "field"
    const path = kind === "keys" ? full.slice(0, -1) : full
    const id = `${kind}:${JSON.stringify(path)}`
    const group = groups.get(id) ?? { kind, path, issues: [] }
    group.issues.push(issue)
    groups.set(id, group)
  }
  const details: Array<IssueDetail> = []
  for (const group of groups.values()) {
    const detail = group.kind === "keys"
      ? unrecognized(group.path, group.issues.map((i) => String(pathOf(i.path).at(-1))))
      : detailFor(group.path, group.issues)
    if (detail !== undefined) details.push(detail)
  }
  const first = details[0]
  const message = details.some((d) => d.code === "unrecognized_keys")
    ? messages.unrecognizedKeys
    : first !== undefined && first.code === "custom" && !first.message.startsWith("Expected ")
    ? first.message
    : "Bad Request"
  return { message, details }
}
