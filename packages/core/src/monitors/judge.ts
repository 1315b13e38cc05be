/**
 * The deterministic judge: whether a page's change matters for the monitor's goal, without an
 * LLM. The goal's terms are its words (case, accents and simple plurals folded, stop words and
 * words under three letters left out) and its quoted phrases; a change is meaningful when a term
 * occurs in one of the changed lines. Every judgment says it came from this judge, so a reader
 * knows it matched words and did not understand them. The LLM judge arrives with the LLM issue.
 */
import type { MonitorJudgment } from "../schema/monitor.js"

const stopWords = new Set([
  "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our", "out", "has",
  "him", "his", "how", "its", "may", "new", "now", "old", "see", "two", "way", "who", "did", "get", "let", "say", "she",
  "too", "use", "that", "with", "have", "this", "will", "your", "from", "they", "know", "want", "been", "good", "much",
  "some", "time", "very", "when", "come", "here", "just", "like", "long", "make", "many", "more", "only", "over", "such",
  "take", "than", "them", "well", "were", "what", "about", "after", "again", "their", "there", "these", "those", "which",
  "while", "would", "could", "should", "into", "onto", "also", "each", "other", "page", "pages", "site", "website",
  "tell", "notify", "alert", "let", "know", "whenever", "changes", "change", "changed", "update", "updates", "updated",
  "track", "watch", "monitor", "please", "any", "every", "something", "anything", "mention", "mentions", "if", "me"
])

/** Lower case, accents removed (NFKD without combining marks). */
const fold = (text: string): string => text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()

/** A word reduced to a stem for matching: `prices` → `price`, `batteries` → `battery`, `boxes` → `box`. */
const stem = (word: string): string => {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`
  if (word.length > 4 && /(?:ch|sh|x|ss|z)es$/.test(word)) return word.slice(0, -2)
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) return word.slice(0, -1)
  return word
}

const words = (text: string): Array<string> => fold(text).match(/[\p{L}\p{N}]+/gu) ?? []

export interface GoalTerms {
  /** Stems of the goal's significant words. */
  readonly words: ReadonlyArray<string>
  /** Quoted phrases of the goal, folded. */
  readonly phrases: ReadonlyArray<string>
}

/** The terms of a goal: its quoted phrases, and its other words without stop words. */
export const goalTerms = (goal: string): GoalTerms => {
  const phrases = [...goal.matchAll(/["“„«]([^"”“»]+)["”»]/g)].map((m) => fold(m[1] ?? "").trim()).filter((p) => p !== "")
  const rest = goal.replace(/["“„«][^"”“»]+["”»]/g, " ")
  const significant = words(rest).filter((w) => w.length >= 3 && !stopWords.has(w)).map(stem)
  return { words: [...new Set(significant)], phrases: [...new Set(phrases)] }
}

/** The goal terms a line contains. */
const termsIn = (line: string, terms: GoalTerms): Array<string> => {
  const folded = fold(line)
  const stems = new Set(words(line).map(stem))
  return [...terms.phrases.filter((p) => folded.includes(p)), ...terms.words.filter((w) => stems.has(w))]
}

const quoted = (terms: ReadonlyArray<string>) => terms.map((t) => `"${t}"`).join(", ")

/**
 * Judges one page's change against the goal. `changed` pairs removed lines with the added lines
 * that replaced them (in order) as `changed` entries; the rest are `added` or `removed`.
 */
export const judgeChange = (
  goal: string,
  change: { readonly added: ReadonlyArray<string>; readonly removed: ReadonlyArray<string> },
  status: "new" | "changed" | "removed"
): MonitorJudgment => {
  const terms = goalTerms(goal)
  const all = [...terms.phrases, ...terms.words]
  const removedHits = change.removed.map((line) => ({ line, terms: termsIn(line, terms) })).filter((h) => h.terms.length > 0)
  const addedHits = change.added.map((line) => ({ line, terms: termsIn(line, terms) })).filter((h) => h.terms.length > 0)
  const meaningfulChanges: Array<MonitorJudgment["meaningfulChanges"][number]> = []
  const pairs = status === "changed" ? Math.min(removedHits.length, addedHits.length) : 0
  for (let i = 0; i < pairs; i++) {
    const before = removedHits[i]
    const after = addedHits[i]
    if (before === undefined || after === undefined) continue
    meaningfulChanges.push({ type: "changed", before: before.line, after: after.line, reason: `Mentions ${quoted([...new Set([...before.terms, ...after.terms])])}` })
  }
  for (const hit of removedHits.slice(pairs)) meaningfulChanges.push({ type: "removed", before: hit.line, after: null, reason: `Mentions ${quoted(hit.terms)}` })
  for (const hit of addedHits.slice(pairs)) meaningfulChanges.push({ type: "added", before: null, after: hit.line, reason: `Mentions ${quoted(hit.terms)}` })
  const found = [...new Set([...removedHits, ...addedHits].flatMap((h) => h.terms))]
  const where = status === "new" ? "the new page" : status === "removed" ? "the removed page" : "the changed lines"
  if (all.length === 0) {
    return {
      meaningful: true,
      confidence: "low",
      reason: "Deterministic judge (no LLM configured): the goal has no terms to look for, so every change counts.",
      meaningfulChanges: [],
      judge: "deterministic"
    }
  }
  return found.length > 0
    ? {
      meaningful: true,
      confidence: "medium",
      reason: `Deterministic judge (no LLM configured): goal terms ${quoted(found)} found in ${where}.`,
      meaningfulChanges,
      judge: "deterministic"
    }
    : {
      meaningful: false,
      confidence: "low",
      reason: `Deterministic judge (no LLM configured): none of the goal terms (${quoted(all)}) appear in ${where}.`,
      meaningfulChanges: [],
      judge: "deterministic"
    }
}
