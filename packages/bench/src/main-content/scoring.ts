/**
 * The two main-content metrics, restated from the dataset READMEs under shared/bench-data:
 * the article-extraction-benchmark's 4-token shingle precision/recall (macro means, F1 of the
 * means) and WCXB's bag-of-words F1 (mean of per-page F1s) with its snippet checks.
 */

/** Python's `\w+` over Unicode text: letters, digits and underscore (marks split words). */
const wordPattern = /[\p{L}\p{N}_]+/gu

export const tokenize = (text: string): Array<string> => text.match(wordPattern) ?? []

const countBag = (items: ReadonlyArray<string>): Map<string, number> => {
  const bag = new Map<string, number>()
  for (const item of items) bag.set(item, (bag.get(item) ?? 0) + 1)
  return bag
}

const overlapOf = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const bag = countBag(b)
  let overlap = 0
  for (const item of a) {
    const left = bag.get(item) ?? 0
    if (left > 0) {
      overlap++
      bag.set(item, left - 1)
    }
  }
  return overlap
}

const shingles = (tokens: ReadonlyArray<string>): Array<string> => {
  if (tokens.length === 0) return []
  if (tokens.length < 4) return [tokens.join("\u0001")]
  const out: Array<string> = []
  for (let i = 0; i + 4 <= tokens.length; i++) out.push(tokens.slice(i, i + 4).join("\u0001"))
  return out
}

/** Per-page AEB score; `undefined` precision/recall are left out of the means. */
export interface ShinglePage {
  readonly precision: number | undefined
  readonly recall: number | undefined
  readonly exact: boolean
}

export const scoreShingles = (predicted: string, truth: string): ShinglePage => {
  const predTokens = tokenize(predicted)
  const truthTokens = tokenize(truth)
  const pred = shingles(predTokens)
  const gold = shingles(truthTokens)
  const tp = overlapOf(pred, gold)
  const fp = pred.length - tp
  const fn = gold.length - tp
  const exact = predTokens.join(" ") === truthTokens.join(" ")
  if (fp === 0 && fn === 0) return { precision: 1, recall: 1, exact }
  return {
    precision: pred.length === 0 ? undefined : tp / (tp + fp),
    recall: gold.length === 0 ? undefined : tp / (tp + fn),
    exact
  }
}

const mean = (values: ReadonlyArray<number>): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length

export interface ShingleSummary {
  readonly n: number
  readonly f1: number
  readonly precision: number
  readonly recall: number
  readonly accuracy: number
}

export const summarizeShingles = (pages: ReadonlyArray<ShinglePage>): ShingleSummary => {
  const precision = mean(pages.flatMap((p) => (p.precision === undefined ? [] : [p.precision])))
  const recall = mean(pages.flatMap((p) => (p.recall === undefined ? [] : [p.recall])))
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { n: pages.length, f1, precision, recall, accuracy: mean(pages.map((p) => (p.exact ? 1 : 0))) }
}

/** Per-page WCXB score. */
export interface WordPage {
  readonly f1: number
  readonly precision: number
  readonly recall: number
  readonly withRate: number | undefined
  readonly withoutRate: number | undefined
}

const snippetRate = (haystack: string, snippets: ReadonlyArray<string>): number | undefined => {
  const wanted = snippets.map((s) => s.replace(/\s+/g, " ").trim().toLowerCase()).filter((s) => s !== "")
  if (wanted.length === 0) return undefined
  return wanted.filter((s) => haystack.includes(s)).length / wanted.length
}

export const scoreWords = (
  predicted: string,
  truth: string,
  snippets: { readonly with: ReadonlyArray<string>; readonly without: ReadonlyArray<string> }
): WordPage => {
  const pred = tokenize(predicted.toLowerCase())
  const gold = tokenize(truth.toLowerCase())
  const haystack = predicted.replace(/\s+/g, " ").toLowerCase()
  const rates = { withRate: snippetRate(haystack, snippets.with), withoutRate: snippetRate(haystack, snippets.without) }
  if (gold.length === 0) return { f1: pred.length === 0 ? 1 : 0, precision: pred.length === 0 ? 1 : 0, recall: 1, ...rates }
  if (pred.length === 0) return { f1: 0, precision: 0, recall: 0, ...rates }
  const overlap = overlapOf(pred, gold)
  const precision = overlap / pred.length
  const recall = overlap / gold.length
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { f1, precision, recall, ...rates }
}

export interface WordSummary {
  readonly n: number
  readonly f1: number
  readonly precision: number
  readonly recall: number
  readonly withRate: number
  readonly withoutRate: number
}

export const summarizeWords = (pages: ReadonlyArray<WordPage>): WordSummary => ({
  n: pages.length,
  f1: mean(pages.map((p) => p.f1)),
  precision: mean(pages.map((p) => p.precision)),
  recall: mean(pages.map((p) => p.recall)),
  withRate: mean(pages.flatMap((p) => (p.withRate === undefined ? [] : [p.withRate]))),
  withoutRate: mean(pages.flatMap((p) => (p.withoutRate === undefined ? [] : [p.withoutRate])))
})
