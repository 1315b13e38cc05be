/**
 * Measures a DOM subtree for main-content detection in one bottom-up pass: how much text each
 * element holds, how much of it sits in links, and a content score gathered from its
 * paragraph-like blocks (text in the element's own flow: direct text and inline children).
 * Prose scores by length and punctuation; the score flows up to ancestors, fading with distance,
 * so the element that holds the most prose ends up with the highest score.
 */
import { type HtmlElement, isElement, TEXT_NODE } from "./dom.js"
import { isSecondaryRegion } from "./hints.js"

/** What the pass learns about one element. */
export interface ElementStats {
  /** Characters of text in the subtree, whitespace runs counted once. */
  text: number
  /** Of which inside `<a>` elements. */
  linkText: number
  /** Content score received from prose blocks in the subtree. */
  score: number
  /** Characters of prose-block text in the subtree. */
  proseText: number
  /** Of which inside secondary regions (comments, sidebars, related stories). */
  secondaryProse: number
  /** The element's own class or id marks a secondary region. */
  secondary: boolean
  /** Text in the element's own flow (direct text and inline children). */
  flow: number
  flowLinks: number
  flowCommas: number
  flowStops: number
  /** Own prose sits beside block children (a text run in a container, not a paragraph). */
  mixed: boolean
}

export type StatsMap = Map<HtmlElement, ElementStats>

/** Elements whose text flows in their parent's line (their text belongs to the parent's block). */
export const inlineTags: ReadonlySet<string> = new Set([
  "a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "del", "dfn", "em", "font", "i", "img", "ins", "kbd",
  "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr", "label", "nobr", "strike", "tt", "big"
])

/** Shortest own-flow text that counts as a prose block. */
const minBlockChars = 25
/** How many ancestor levels a block's score reaches. */
const maxLevels = 5

const commaPattern = /[,，、،]/g
const stopPattern = /[.!?。！？]/g

const countMatches = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0

const emptyStats = (): ElementStats => ({
  text: 0, linkText: 0, score: 0, proseText: 0, secondaryProse: 0, secondary: false, flow: 0, flowLinks: 0, flowCommas: 0, flowStops: 0, mixed: false
})

const collapsedLength = (text: string): number => {
  const trimmed = text.replace(/\s+/g, " ")
  return trimmed === " " ? 0 : trimmed.length
}

/** Adds a child's figures to its parent's; inline children also extend the parent's flow. */
const absorb = (parent: ElementStats, child: ElementStats, childIsInline: boolean, childIsLink: boolean): void => {
  parent.text += child.text
  parent.linkText += childIsLink ? child.text : child.linkText
  parent.proseText += child.proseText
  parent.secondaryProse += child.secondaryProse
  if (childIsInline) {
    parent.flow += child.flow
    parent.flowLinks += childIsLink ? child.flow : child.flowLinks
    parent.flowCommas += child.flowCommas
    parent.flowStops += child.flowStops
  }
}

/** Score of one prose block: a point, one per comma, up to three for length, up to 1.5 for sentence ends. */
export const blockScore = (stats: ElementStats): number =>
  1 + stats.flowCommas + Math.min(Math.floor(stats.flow / 100), 3) + Math.min(stats.flowStops, 3) * 0.5

/** A run this long without a single comma or full stop is a row of labels (a menu), not prose. */
const maxUnpunctuatedChars = 100

const isProseBlock = (element: HtmlElement, stats: ElementStats): boolean =>
  !inlineTags.has(element.localName) && stats.flow >= minBlockChars && stats.flowLinks / stats.flow < 0.5 &&
  (stats.flow < maxUnpunctuatedChars || stats.flowCommas + stats.flowStops > 0)

const measureElement = (element: HtmlElement, map: StatsMap): ElementStats => {
  const stats = emptyStats()
  for (let child = element.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) {
      const value = child.textContent ?? ""
      const length = collapsedLength(value)
      if (length === 0) continue
      stats.text += length
      stats.flow += length
      stats.flowCommas += countMatches(value, commaPattern)
      stats.flowStops += countMatches(value, stopPattern)
    } else if (isElement(child)) {
      const tag = child.localName
      const inline = inlineTags.has(tag)
      if (!inline) stats.mixed = true
      absorb(stats, measureElement(child, map), inline, tag === "a")
    }
  }
  if (isProseBlock(element, stats)) stats.proseText += stats.flow
  stats.secondary = stats.proseText > 0 && isSecondaryRegion(element)
  if (stats.secondary) stats.secondaryProse = stats.proseText
  map.set(element, stats)
  return stats
}

/**
 * Sends every prose block's score to its ancestors: the parent gets it all, the grandparent
 * half, farther ancestors a third divided by their distance. A text run inside a container
 * (beside block children) is a paragraph of that container, so the container counts as parent.
 */
const propagate = (root: HtmlElement, map: StatsMap): void => {
  for (const [element, stats] of map) {
    if (element === root || !isProseBlock(element, stats)) continue
    const score = blockScore(stats)
    let level = 0
    const first = stats.mixed ? element : element.parentElement
    for (let node = first; node !== null && level < maxLevels; node = node.parentElement, level++) {
      const target = map.get(node)
      if (target === undefined) break
      target.score += level === 0 ? score : level === 1 ? score / 2 : score / (level * 3)
      if (node === root) break
    }
  }
}

/** Measures `root` and every element under it. */
export const measure = (root: HtmlElement): StatsMap => {
  const map: StatsMap = new Map()
  measureElement(root, map)
  propagate(root, map)
  return map
}

/** Share of an element's text that sits in links (0 when it has no text). */
export const linkDensity = (stats: ElementStats): number => (stats.text === 0 ? 0 : stats.linkText / stats.text)
