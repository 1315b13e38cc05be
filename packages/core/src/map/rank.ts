/**
 * The relevance order of a map with `search` (API.md §3.7). Upstream re-ranks by embedding
 * similarity; Gleaner uses a small deterministic scorer instead, so the same links and query
 * always give the same order and nothing leaves the machine:
 *
 * - the query and each link are cut into lower-case words (letters and digits of any script);
 * - a query word found as a whole word scores the field's weight — the URL's path and query 3,
 *   the title 2, the description 1, the host name 0.5 — and a word that only begins with it
 *   (`auth` in `authentication`) a quarter of that;
 * - each query word is weighted by how rare it is among the links (inverse document frequency),
 *   so `page` on every page counts for little and `42` on one page for much;
 * - the whole query, word for word in a row, in a field earns that field's weight once more;
 * - links are sorted by score, ties keep their discovery order, and links matching no word at
 *   all follow the matches in discovery order.
 */

/** What the scorer reads of a link. */
export interface RankableLink {
  readonly url: string
  readonly title?: string | undefined
  readonly description?: string | undefined
}

/** Weight of a whole-word match per field. */
const fieldWeights = { path: 3, title: 2, description: 1, host: 0.5 } as const
type Field = keyof typeof fieldWeights
const fields: ReadonlyArray<Field> = ["path", "title", "description", "host"]

/** Share of the field's weight a word earns when it only begins a word of the field. */
const prefixShare = 0.25

/** Query words shorter than this match whole words only (`a` would begin too many). */
const minPrefixLength = 2

/** The lower-case words of a text: runs of letters and digits (any script). */
export const searchTerms = (text: string): Array<string> =>
  text.normalize("NFKC").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "")

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The words of each field of a link. */
const wordsOf = (link: RankableLink): Readonly<Record<Field, ReadonlyArray<string>>> => {
  let host = ""
  let path = link.url
  if (URL.canParse(link.url)) {
    const url = new URL(link.url)
    host = url.hostname
    path = url.pathname + url.search
  }
  return {
    path: searchTerms(decoded(path)),
    title: searchTerms(link.title ?? ""),
    description: searchTerms(link.description ?? ""),
    host: searchTerms(host)
  }
}

/** 1 for a whole-word match, `prefixShare` when the term only begins a word, else 0. */
const matchOf = (term: string, words: ReadonlyArray<string>): number => {
  if (words.includes(term)) return 1
  return term.length >= minPrefixLength && words.some((word) => word.startsWith(term)) ? prefixShare : 0
}

/** Whether `terms` appear one after the other in `words`. */
const containsPhrase = (words: ReadonlyArray<string>, terms: ReadonlyArray<string>): boolean => {
  for (let i = 0; i + terms.length <= words.length; i++) {
    if (terms.every((term, j) => words[i + j] === term)) return true
  }
  return false
}

/**
 * The relevance of every link to `query`, in input order (0 for a link matching no query word).
 * Scores are comparable within one call only: rarity is measured among the links given.
 */
export const relevanceScores = (links: ReadonlyArray<RankableLink>, query: string): Array<number> => {
  const terms = [...new Set(searchTerms(query))]
  if (terms.length === 0) return links.map(() => 0)
  const words = links.map(wordsOf)
  // per link, per query term: the share each field earns
  const matches = words.map((w) => terms.map((term) => fields.map((field) => ({ field, share: matchOf(term, w[field]) }))))
  const rarity = terms.map((_, t) => {
    const linksWithTerm = matches.filter((m) => (m[t] ?? []).some(({ share }) => share > 0)).length
    return Math.log(1 + links.length / (1 + linksWithTerm))
  })
  const meanRarity = rarity.reduce((sum, r) => sum + r, 0) / terms.length
  return matches.map((m, i) => {
    let score = 0
    for (const [t, perField] of m.entries()) {
      for (const { field, share } of perField) score += share * fieldWeights[field] * (rarity[t] ?? 0)
    }
    const linkWords = words[i]
    if (score > 0 && terms.length > 1 && linkWords !== undefined) {
      for (const field of fields) if (containsPhrase(linkWords[field], terms)) score += fieldWeights[field] * meanRarity
    }
    return score
  })
}

/**
 * The links ordered by relevance to `query`: best first, ties and non-matches in the order
 * given. A query without any word leaves the order as it is.
 */
export const rankLinks = <A extends RankableLink>(links: ReadonlyArray<A>, query: string): Array<A> => {
  const scores = relevanceScores(links, query)
  return links
    .map((link, index) => ({ link, index, score: scores[index] ?? 0 }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ link }) => link)
}
