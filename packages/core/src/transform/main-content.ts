/**
 * Finds the main content of a page. Every element is scored from the prose it holds (text
 * length, punctuation, paragraphs), its link density, its tag and semantic role, and the words
 * in its class and id; the best subtree is chosen, widened to the siblings that belong with it,
 * stripped of the furniture inside it, and given back the page's main heading when that sits
 * just above it. When nothing scores clearly, the whole body (cleaned) is the content.
 */
import { stripFurniture } from "./boilerplate.js"
import { classWeight } from "./hints.js"
import { type ElementStats, linkDensity, measure, type StatsMap } from "./content-score.js"
import { bodyOf, collapseWhitespace, type HtmlDocument, type HtmlElement } from "./dom.js"

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

/** A candidate's final score: received score plus tag, role and class weights, times (1 − link density). */
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

const rankCandidates = (stats: StatsMap, body: HtmlElement): Array<{ element: HtmlElement; score: number }> => {
  const ranked: Array<{ element: HtmlElement; score: number }> = []
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

/** When several near-top candidates share an ancestor, the content is that ancestor (posts, items). */
const sharedAncestor = (ranked: ReadonlyArray<{ element: HtmlElement; score: number }>, body: HtmlElement): HtmlElement | undefined => {
  const top = ranked[0]
  if (top === undefined) return undefined
  const close = ranked.slice(1, 6).filter((c) => c.score >= top.score * 0.75).map((c) => new Set(ancestorsOf(c.element).concat(c.element)))
  if (close.length < 2) return top.element
  for (const ancestor of ancestorsOf(top.element)) {
    if (ancestor === body) break
    if (close.filter((set) => set.has(ancestor)).length >= 2) return ancestor
  }
  return top.element
}

/**
 * Prose that counts towards the main content: secondary regions (comments, related stories) are
 * left out when the page has prose of its own beside them; on a forum thread the posts are all
 * there is, so they count.
 */
const massOf = (stats: StatsMap, body: HtmlElement, isArticle: boolean): ((s: ElementStats | undefined) => number) => {
  const all = stats.get(body)
  const primary = all === undefined ? 0 : all.proseText - all.secondaryProse
  const hasPrimary = isArticle ? primary >= 100 : primary >= 600 || (all !== undefined && primary >= all.proseText * 0.2)
  const skipSecondary = hasPrimary && (globalThis as unknown as { __mcsec?: string }).__mcsec !== "off"
  return (s) => (s === undefined ? 0 : skipSecondary ? s.proseText - s.secondaryProse : s.proseText)
}

/** The page declares itself an article (`og:type`), so comment threads are not its content. */
const declaresArticle = (document: HtmlDocument): boolean =>
  /^article$/i.test((document.querySelector("meta[property='og:type']")?.getAttribute("content") ?? "").trim())

const descend = (body: HtmlElement, stats: StatsMap, isArticle: boolean): HtmlElement => {
  const share = Number((globalThis as unknown as { __mcshare?: string }).__mcshare ?? "0.8")
  const mass = massOf(stats, body, isArticle)
  let node = body
  for (;;) {
    const total = mass(stats.get(node))
    let best: HtmlElement | undefined
    let bestMass = 0
    for (const child of node.children) {
      const m = mass(stats.get(child))
      if (m > bestMass) { best = child; bestMass = m }
    }
    if (best === undefined || bestMass < total * share) return node
    node = best
  }
}

const climb = (from: HtmlElement, to: HtmlElement, stats: StatsMap): HtmlElement => {
  let node = from
  while (node !== to) {
    const parent = node.parentElement
    const s = stats.get(node)
    const p = stats.get(parent ?? node)
    if (parent === null || s === undefined || p === undefined) return node
    const extraProse = p.proseText - s.proseText
    const extraSecondary = p.secondaryProse - s.secondaryProse
    const extraText = p.text - s.text
    const extraLinks = p.linkText - s.linkText
    if (extraProse > 0 && extraSecondary > extraProse * 0.5) return node
    if (extraText > 0 && extraLinks / extraText > 0.5 && extraText > 200) return node
    node = parent
  }
  return node
}

const gainRoot = (body: HtmlElement, stats: StatsMap): HtmlElement => {
  const alpha = Number((globalThis as unknown as { __mcalpha?: string }).__mcalpha ?? "1")
  const mass = massOf(stats, body, false)
  let best = body
  let bestGain = -Infinity
  for (const [element, s] of stats) {
    const m = mass(s)
    const gain = m - alpha * (s.text - m)
    if (gain > bestGain) { best = element; bestGain = gain }
  }
  return best
}

const pickRoot = (body: HtmlElement, stats: StatsMap, candidate: HtmlElement | undefined): HtmlElement => {
  const region = descend(body, stats, false)
  if (candidate === undefined || !region.contains(candidate)) return region
  return climb(candidate, region, stats)
}

/** Tag and class words without digits: repeated containers ("post-17", "post-18") share it. */
const signature = (element: HtmlElement): string =>
  `${element.localName}.${(element.getAttribute("class") ?? "").split(/\s+/).filter((t) => t !== "" && !/\d/.test(t)).sort().join(".")}`

/** A sibling built like `element` that holds prose of its own (the next chunk, the next post). */
const isTwin = (element: HtmlElement, sibling: HtmlElement, stats: StatsMap): boolean => {
  const own = stats.get(element)
  const s = stats.get(sibling)
  if (own === undefined || s === undefined || sibling === element) return false
  return signature(sibling) === signature(element) && s.proseText >= Math.max(100, own.proseText * 0.2) && linkDensity(s) < 0.4
}

/**
 * Content split over repeated containers (an article in chunks, a thread in posts): the lowest
 * ancestor of the candidate (up to four levels) that has a twin sibling stands for it instead.
 */
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

/** Siblings of the candidate that carry prose of their own (or a good share of its score). */
const belongsWith = (sibling: HtmlElement, s: ElementStats, threshold: number): boolean => {
  if (candidateScore(sibling, s) >= threshold) return true
  const density = linkDensity(s)
  if (s.proseText >= 80 && density < 0.25) return true
  return s.proseText > 0 && s.proseText < 80 && density === 0 && s.text === s.proseText
}

/** The candidate plus its siblings that belong with it, gathered in a new container. */
const gatherSiblings = (document: HtmlDocument, candidate: HtmlElement, stats: StatsMap): HtmlElement => {
  const parent = candidate.parentElement
  const own = stats.get(candidate)
  if (parent === null || own === undefined) return candidate
  const threshold = Math.max(10, candidateScore(candidate, own) * 0.2)
  const kept = parent.children.filter((sibling) => {
    if (sibling === candidate || isTwin(candidate, sibling, stats)) return true
    const s = stats.get(sibling)
    return s !== undefined && belongsWith(sibling, s, threshold)
  })
  if (kept.length === 1) return candidate
  const container = document.createElement("div")
  parent.insertBefore(container, candidate)
  for (const element of kept) container.appendChild(element)
  return container
}

/** The page's main heading: the `<h1>` (the first one whose text matches the title, if several). */
const mainHeading = (document: HtmlDocument, body: HtmlElement): HtmlElement | undefined => {
  const headings = body.querySelectorAll("h1").filter((h) => collapseWhitespace(h.textContent ?? "") !== "")
  if (headings.length <= 1) return headings[0]
  const title = collapseWhitespace(document.querySelector("title")?.textContent ?? "").toLowerCase()
  return headings.find((h) => title.includes(collapseWhitespace(h.textContent ?? "").toLowerCase())) ?? headings[0]
}

/** Puts the main heading back on top of the content when it sat above it, outside it. */
const restoreHeading = (root: HtmlElement, heading: HtmlElement | undefined): void => {
  if (heading === undefined || root.contains(heading)) return
  const clone = heading.cloneNode(true)
  root.insertBefore(clone, root.firstChild)
}

/**
 * Returns the element holding the page's main content, cleaned of furniture. The document is
 * changed in place (furniture is removed, a container may be inserted around kept siblings).
 */
export const extractMainContent = (document: HtmlDocument): HtmlElement => {
  const body = bodyOf(document) ?? document.createElement("body")
  const heading = mainHeading(document, body)
  stripFurniture(body, measure(body), false)
  const stats = measure(body)
  const ranked = rankCandidates(stats, body)
  const mode = (globalThis as unknown as { __mcmode?: string }).__mcmode ?? "score"
  if (mode === "hybrid") {
    const isArticle = declaresArticle(document)
    const region = descend(body, stats, isArticle)
    const mass = massOf(stats, body, isArticle)
    const regionMass = mass(stats.get(region))
    const top = sharedAncestor(ranked, body)
    const core = top === undefined ? undefined : liftOverTwins(top, stats, body)
    const coreRoot = core === undefined || core === body ? body : gatherSiblings(document, core, stats)
    const coreMass = coreRoot === body ? mass(stats.get(body)) : mass(measure(coreRoot).get(coreRoot))
    const threshold = Number((globalThis as unknown as { __mcratio?: string }).__mcratio ?? "0.5")
    const useCore = region.contains(coreRoot) && coreMass >= regionMass * threshold
    const rec = (globalThis as unknown as { __mcrec?: (x: unknown) => void }).__mcrec
    if (rec) rec({ ratio: regionMass === 0 ? 1 : coreMass / regionMass, inside: region.contains(coreRoot) })
    const root = useCore ? coreRoot : region
    stripFurniture(root, measure(root), true)
    restoreHeading(root, heading)
    return root
  }
  const candidate = mode === "descend" ? descend(body, stats, false) : mode === "climb" ? pickRoot(body, stats, ranked[0]?.element) : mode === "gain" ? gainRoot(body, stats) : sharedAncestor(ranked, body)
  const root = candidate === undefined || candidate === body ? body : mode === "descend" || mode === "climb" || mode === "gain" ? candidate : gatherSiblings(document, candidate, stats)
  const dbg = (globalThis as unknown as { __mcdebug?: (l: string, e: unknown) => void }).__mcdebug
  if (dbg) { dbg("top", ranked[0]?.element); dbg("candidate", candidate); dbg("root", root) }
  stripFurniture(root, measure(root), true)
  restoreHeading(root, heading)
  return root
}
