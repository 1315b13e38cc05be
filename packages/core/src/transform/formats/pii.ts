/**
 * `redactPII` (API.md §2.2) without a model: runs the deterministic detectors of
 * `pii-detectors.ts` for the requested entity groups over a text (usually the page's markdown),
 * resolves overlaps (secrets, then financial numbers, e-mails, phones, places, names; longer
 * spans first) and replaces each span. The scheme, host and path of URLs — absolute ones, `www.`
 * ones and markdown link and reference destinations — are never touched, so links keep working;
 * query strings and fragments are checked (an API key in `?key=` is a leak), as are `mailto:`
 * targets. PERSON and LOCATION are found only after explicit cues; `limited` lists them when they
 * were requested so the caller can say so (`PII_CUE_ONLY_WARNING`).
 */
import { DETECTORS, type PiiEntity, type PiiSpan } from "./pii-detectors.js"

/** Options of `redactPii`. */
export interface RedactPiiOptions {
  /** Entity groups to redact. Default: all six. */
  readonly entities?: ReadonlyArray<PiiEntity>
  /**
   * `tag` replaces a span with `[EMAIL]`, `[PHONE]` …; `mask` with as many `*` as it had
   * characters (spaces and dashes kept, the last 4 digits of a card kept); `remove` deletes it.
   * Default `tag`.
   */
  readonly replaceStyle?: "tag" | "mask" | "remove"
}

/** The redacted text, how many spans of each requested group were replaced, and the requested
 * groups that are detected by explicit cues only. */
export interface RedactPiiResult {
  readonly text: string
  readonly counts: Record<string, number>
  readonly limited: ReadonlyArray<PiiEntity>
}

export const PII_ENTITIES: ReadonlyArray<PiiEntity> = ["EMAIL", "PHONE", "FINANCIAL", "SECRET", "PERSON", "LOCATION"]

/** The warning for responses that asked for PERSON or LOCATION redaction. */
export const PII_CUE_ONLY_WARNING =
  "PII redaction ran without a language model: PERSON and LOCATION were redacted only where the text labels them " +
  "(such as \"Name:\", \"Address:\", an honorific or a numbered street address); other names and places were left unchanged."

const PRIORITY: Record<PiiEntity, number> = { SECRET: 0, FINANCIAL: 1, EMAIL: 2, PHONE: 3, LOCATION: 4, PERSON: 5 }

type Range = readonly [number, number]

/** Ranges that must stay byte-for-byte: each URL's scheme, host and path. */
const protectedRanges = (text: string): Array<Range> => {
  const ranges: Array<Range> = []
  const add = (start: number, url: string) => {
    const queryAt = url.search(/[?#]/)
    ranges.push([start, start + (queryAt === -1 ? url.length : queryAt)])
  }
  for (const m of text.matchAll(/\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>"'`)\]]+/gi)) add(m.index ?? 0, m[0])
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)/g)) {
    const target = m[1] ?? ""
    if (!/^mailto:/i.test(target)) add((m.index ?? 0) + m[0].length - target.length, target)
  }
  for (const m of text.matchAll(/^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*<?(\S+?)>?(?=\s|$)/gm)) {
    const target = m[1] ?? ""
    if (!/^mailto:/i.test(target)) add((m.index ?? 0) + m[0].lastIndexOf(target), target)
  }
  // In HTML, link and media attributes may hold relative paths.
  for (const m of text.matchAll(/\b(?:href|src|srcset|action|poster|data-src)\s*=\s*(["'])([^"']*)\1/gi)) {
    const target = m[2] ?? ""
    if (!/^mailto:/i.test(target)) add((m.index ?? 0) + m[0].length - 1 - target.length, target)
  }
  return mergeRanges(ranges)
}

/** Sorted, disjoint ranges covering the same positions. */
const mergeRanges = (ranges: ReadonlyArray<Range>): Array<Range> => {
  const merged: Array<[number, number]> = []
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1]
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end)
    else merged.push([start, end])
  }
  return merged
}

/** Whether [start, end) overlaps any of the sorted, disjoint ranges. */
const overlapsAny = (ranges: ReadonlyArray<Range>, start: number, end: number): boolean => {
  let lo = 0
  let hi = ranges.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((ranges[mid]?.[0] ?? 0) < end) lo = mid + 1
    else hi = mid
  }
  // ranges[lo - 1] is the last range starting before `end`; being disjoint, it alone can reach `start`.
  return (ranges[lo - 1]?.[1] ?? 0) > start
}

/** Keeps the best non-overlapping spans: by entity priority, then longer first. */
const resolveOverlaps = (spans: ReadonlyArray<PiiSpan>): Array<PiiSpan> => {
  const ordered = [...spans].sort(
    (a, b) => PRIORITY[a.entity] - PRIORITY[b.entity] || b.end - b.start - (a.end - a.start) || a.start - b.start
  )
  const taken: Array<PiiSpan> = []
  const occupied = new Set<number>()
  for (const span of ordered) {
    let free = true
    for (let i = span.start; i < span.end && free; i++) free = !occupied.has(i)
    if (!free) continue
    for (let i = span.start; i < span.end; i++) occupied.add(i)
    taken.push(span)
  }
  return taken.sort((a, b) => a.start - b.start)
}

const mask = (value: string, keepTail: number): string => {
  let kept = 0
  const chars = [...value]
  for (let i = chars.length - 1; i >= 0; i--) {
    const char = chars[i] ?? ""
    if (/[\s-]/.test(char)) continue
    if (/\d/.test(char) && kept < keepTail) kept++
    else chars[i] = "*"
  }
  return chars.join("")
}

const replacement = (span: PiiSpan, value: string, style: "tag" | "mask" | "remove"): string =>
  style === "tag" ? `[${span.entity}]` : style === "mask" ? mask(value, span.keepTail ?? 0) : ""

/** Redacts the requested PII entity groups from a text; deterministic and pure. */
export const redactPii = (text: string, options: RedactPiiOptions = {}): RedactPiiResult => {
  const entities = options.entities ?? PII_ENTITIES
  const style = options.replaceStyle ?? "tag"
  const protectedText = protectedRanges(text)
  const candidates = [...new Set(entities)].flatMap((entity) => DETECTORS[entity](text))
  const spans = resolveOverlaps(candidates.filter((span) => !overlapsAny(protectedText, span.start, span.end)))
  const counts: Record<string, number> = Object.fromEntries(entities.map((entity) => [entity, 0]))
  let output = ""
  let cursor = 0
  for (const span of spans) {
    output += text.slice(cursor, span.start) + replacement(span, text.slice(span.start, span.end), style)
    cursor = span.end
    counts[span.entity] = (counts[span.entity] ?? 0) + 1
  }
  output += text.slice(cursor)
  return { text: output, counts, limited: entities.filter((entity) => entity === "PERSON" || entity === "LOCATION") }
}
