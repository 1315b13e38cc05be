/**
 * The core of the main content: the element that scores best as a container of prose (its
 * received prose score, its tag and ARIA role, its class/id words and those of its ancestors,
 * discounted by link density), lifted over repeated containers (an article in chunks, a thread
 * in posts) and joined by the siblings that carry prose too.
 */
import { type ElementStats, linkDensity, type StatsMap } from "./content-score.js"
import { classOf, type HtmlElement } from "./dom.js"
import { classWeight } from "./hints.js"

const tagWeights: Readonly<Record<string, number>> = {
  article: 10, main: 10, section: 3, div: 5, td: 3, pre: 3, blockquote: 3,
  ol: -3, ul: -3, dl: -3, dd: -3, dt: -3, li: -3, form: -3, address: -3,
  h1: -5, h2: -5, h3: -5, h4: -5, h5: -5, h6: -5, th: -5, header: -10, footer: -20, nav: -20, aside: -20
}

const semanticWeight = (element: HtmlElement): number => {
  const role = element.getAttribute("role")
  const itemprop = element.getAttribute("itemprop") ?? ""
  let weight = 0
  if (role === "main" || role === "article") weight += 10
  if (/articleBody|text|reviewBody|description/i.test(itemprop)) weight += 20
  return weight
}

/** Received score plus tag, role and class weights, times (1 − link density). */
const candidateScore = (element: HtmlElement, stats: ElementStats): number =>
  (stats.score + (tagWeights[element.localName] ?? 0) + semanticWeight(element) + classWeight(element)) * (1 - linkDensity(stats))

/** Furniture words on an ancestor count against everything inside it (a comment thread's posts). */
const contextPenalty = (element: HtmlElement, body: HtmlElement, memo: Map<HtmlElement, number>): number => {
  const parent = element.parentElement
  if (parent === null || parent === body) return 0
  const known = memo.get(parent)
  if (known !== undefined) return known
  const penalty = Math.min(0, classWeight(parent)) + contextPenalty(parent, body, memo)
  memo.set(parent, penalty)
  return penalty
}

interface Ranked {
  readonly element: HtmlElement
  readonly score: number
}

const rankCandidates = (stats: StatsMap, body: HtmlElement): Array<Ranked> => {
  const ranked: Array<Ranked> = []
  const memo = new Map<HtmlElement, number>()
  for (const [element, s] of stats) {
    if (s.score > 0) ranked.push({ element, score: candidateScore(element, s) + contextPenalty(element, body, memo) })
  }
  return ranked.sort((a, b) => b.score - a.score)
}

const ancestorsOf = (element: HtmlElement): Array<HtmlElement> => {
  const out: Array<HtmlElement> = []
  for (let p = element.parentElement; p !== null; p = p.parentElement) out.push(p)
  return out
}

/** When near-top candidates share an ancestor below the body, the content is that ancestor. */
const sharedAncestor = (ranked: ReadonlyArray<Ranked>, body: HtmlElement): HtmlElement | undefined => {
  const top = ranked[0]
  if (top === undefined) return undefined
  const close = ranked.slice(1, 6).filter((c) => c.score >= top.score * 0.75).map((c) => new Set([c.element, ...ancestorsOf(c.element)]))
  if (close.length < 2) return top.element
  for (const ancestor of ancestorsOf(top.element)) {
    if (ancestor === body) break
    if (close.filter((set) => set.has(ancestor)).length >= 2) return ancestor
  }
  return top.element
}

/** Tag and class words without digits: repeated containers ("post-17", "post-18") share it. */
const signature = (element: HtmlElement): string =>
  `${element.localName}.${classOf(element).split(/\s+/).filter((t) => t !== "" && !/\d/.test(t)).sort().join(".")}`

/** A sibling built like `element` that holds prose of its own (the next chunk, the next post). */
const isTwin = (element: HtmlElement, sibling: HtmlElement, stats: StatsMap): boolean => {
  const own = stats.get(element)
  const s = stats.get(sibling)
  if (own === undefined || s === undefined || sibling === element) return false
  return signature(sibling) === signature(element) && s.proseText >= Math.max(100, own.proseText * 0.2) && linkDensity(s) < 0.4
}

/** The lowest ancestor of the candidate (up to four levels) that has a twin stands for it. */
const liftOverTwins = (candidate: HtmlElement, stats: StatsMap, body: HtmlElement): HtmlElement => {
  let element = candidate
  for (let level = 0; level < 4; level++) {
    const parent = element.parentElement
    if (parent === null || parent === body) return candidate
    if (parent.children.some((sibling) => isTwin(element, sibling, stats))) return element
    element = parent
  }
  return candidate
}

/** A sibling that carries prose of its own, or a good share of the candidate's score. */
const belongsWith = (sibling: HtmlElement, s: ElementStats, threshold: number): boolean => {
  if (candidateScore(sibling, s) >= threshold) return true
  const density = linkDensity(s)
  if (s.proseText >= 80 && density < 0.25) return true
  return s.proseText > 0 && s.proseText < 80 && density === 0 && s.text === s.proseText
}

/** The core: one element and the siblings kept with it, in document order. */
export interface ContentCore {
  readonly element: HtmlElement
  readonly members: ReadonlyArray<HtmlElement>
}

/** Finds the core of the content in `body`, or `undefined` when no element holds prose. */
export const findCore = (body: HtmlElement, stats: StatsMap): ContentCore | undefined => {
  const top = sharedAncestor(rankCandidates(stats, body), body)
  if (top === undefined || top === body) return undefined
  const element = liftOverTwins(top, stats, body)
  const own = stats.get(element)
  const parent = element.parentElement
  if (parent === null || own === undefined) return { element, members: [element] }
  const threshold = Math.max(10, candidateScore(element, own) * 0.2)
  const members = parent.children.filter((sibling) => {
    if (sibling === element || isTwin(element, sibling, stats)) return true
    const s = stats.get(sibling)
    return s !== undefined && belongsWith(sibling, s, threshold)
  })
  return { element, members }
}
