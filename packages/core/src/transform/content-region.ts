/**
 * The region of a page where its prose lives: walking down from the body, always into the child
 * that holds most of the prose, until no child holds most of it. Prose in secondary regions
 * (comment threads, sidebars, related stories) does not count when the page has prose of its
 * own beside them; on a forum thread the posts are all there is, so then they do count.
 */
import type { ElementStats, StatsMap } from "./content-score.js"
import type { HtmlElement } from "./dom.js"

/** Share of the prose a child must hold for the walk to go down into it. */
const descentShare = 0.75
/** A secondary region holding more than this share of the page's prose is a wrapper, not a region. */
const maxSecondaryShare = 0.5

/** Prose of its own a declared article needs for its comments to count as secondary. */
const minArticleProse = 100
/** Prose of its own any other page needs (characters, or a share of all its prose). */
const minOwnProse = 600
const minOwnShare = 0.2

/** How much of an element's prose counts as the page's own (primary) prose. */
export type Mass = (stats: ElementStats | undefined) => number

/**
 * The primary-prose measure of a page. With `isArticle` (the page says it is an article) a
 * little prose of its own is enough to make comments secondary; otherwise it takes 600
 * characters, or a fifth of the page's prose.
 */
export const primaryMass = (stats: StatsMap, body: HtmlElement, isArticle: boolean): Mass => {
  const total = stats.get(body)?.proseText ?? 0
  const secondary = new Map<ElementStats, number>()
  const collect = (element: HtmlElement): number => {
    const s = stats.get(element)
    if (s === undefined || s.secondaryProse === 0) return 0
    let sum = 0
    if (s.secondary && s.proseText < total * maxSecondaryShare) sum = s.proseText
    else for (const child of element.children) sum += collect(child)
    secondary.set(s, sum)
    return sum
  }
  const primary = total - collect(body)
  const hasPrimary = isArticle ? primary >= minArticleProse : primary >= minOwnProse || primary >= total * minOwnShare
  return (s) => (s === undefined ? 0 : hasPrimary ? s.proseText - (secondary.get(s) ?? 0) : s.proseText)
}

/** The deepest element on the walk down the children that hold most of the primary prose. */
export const proseRegion = (body: HtmlElement, stats: StatsMap, mass: Mass): HtmlElement => {
  let node = body
  for (;;) {
    const total = mass(stats.get(node))
    let best: HtmlElement | undefined
    let bestMass = 0
    for (const child of node.children) {
      const m = mass(stats.get(child))
      if (m > bestMass) {
        best = child
        bestMass = m
      }
    }
    if (best === undefined || bestMass < total * descentShare) return node
    node = best
  }
}

/** The figures {@link widen} compares: what the current root holds. */
export interface Extent {
  readonly text: number
  readonly linkText: number
  readonly proseText: number
  readonly mass: number
}

export const extentOf = (stats: ElementStats | undefined, mass: Mass): Extent => ({
  text: stats?.text ?? 0,
  linkText: stats?.linkText ?? 0,
  proseText: stats?.proseText ?? 0,
  mass: mass(stats)
})

/** Above this share of links, what a step up would add is teasers or menus. */
const maxAddedLinkShare = 0.35

/**
 * Walks up from `from` (whose content is `extent`) towards `limit` while what each step adds
 * reads like more of the same: primary prose rather than comments or related stories, and not
 * mostly links. Returns the last element reached, or `undefined` when no step was taken.
 */
export const widen = (from: HtmlElement, extent: Extent, limit: HtmlElement, stats: StatsMap, mass: Mass): HtmlElement | undefined => {
  let node = from
  let current = extent
  let reached: HtmlElement | undefined
  while (node !== limit) {
    const parent = node.parentElement
    const p = parent === null ? undefined : stats.get(parent)
    if (parent === null || p === undefined) return reached
    const next = extentOf(p, mass)
    const addedMass = next.mass - current.mass
    const addedSecondary = next.proseText - current.proseText - addedMass
    const addedText = next.text - current.text
    const addedLinks = next.linkText - current.linkText
    if (addedSecondary > addedMass) return reached
    if (addedText > 300 && addedLinks > addedText * maxAddedLinkShare) return reached
    node = parent
    current = next
    reached = parent
  }
  return reached
}
