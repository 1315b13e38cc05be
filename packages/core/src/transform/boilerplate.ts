/**
 * What page furniture looks like, for main-content detection: class/id words that hint at
 * content or at boilerplate, tags and ARIA roles that never hold the main text, and the pass
 * that strips navigation, share bars, related-link lists, comment forms and banners. Every rule
 * is guarded by size: an element holding most of the text in scope is never furniture, because
 * on broken markup a stray `<nav>` or `<aside>` can end up wrapping the whole article.
 */
import { type ElementStats, linkDensity, type StatsMap } from "./content-score.js"
import type { HtmlElement } from "./dom.js"
import { hintText } from "./hints.js"

/** Form controls and embeds: no prose, ever. */
const controlTags: ReadonlySet<string> = new Set([
  "button", "input", "select", "textarea", "option", "iframe", "object", "embed", "audio", "video", "map", "dialog"
])

/** Page regions that hold the main text only on broken markup. */
const regionTags: ReadonlySet<string> = new Set(["nav", "aside", "footer", "menu", "form", "header"])

/** ARIA roles of page furniture. */
const furnitureRoles: ReadonlySet<string> = new Set([
  "navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menu", "menubar",
  "toolbar", "alert", "status", "marquee", "timer"
])

/** Word (between `-`, `_` or spaces) of link furniture: removed when the element is mostly links. */
const linkyHint = /(?:^|[\s_-])(?:nav|navbar|navigation|menu|menus|breadcrumbs?|share|sharing|social|related|recommended|popular|trending|toolbar|tags|tag-list|tagcloud|pagination|pager|sitemap|footer-links|quicklinks)(?:$|[\s_-])/i

/** Word of banners and widgets that are furniture whatever their links. */
const bannerHint = /(?:^|[\s_-])(?:cookies?|cookie-banner|consent|gdpr|newsletter|subscribe|subscription|signup|popup|modal|overlay|advert|advertisement|sponsored|comment-form|comment-respond|respond|reply-form|skip-link|skip|print|disqus|outbrain|taboola|paywall)(?:$|[\s_-])/i

const isHidden = (element: HtmlElement): boolean => {
  if (element.hasAttribute("hidden")) return true
  if (element.getAttribute("aria-hidden") === "true") return true
  const style = element.getAttribute("style")
  return style !== null && /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style)
}

const hasFurnitureRole = (element: HtmlElement): boolean => {
  const role = element.getAttribute("role")
  return role !== null && furnitureRoles.has(role.trim().toLowerCase())
}

/** Scope in which a removal is judged: its text decides what counts as "most of it". */
export interface Scope {
  readonly text: number
  /** Remove link clusters (menus, link lists) too: only once the content root is known. */
  readonly linkClusters: boolean
}

const isLinkCluster = (s: ElementStats): boolean =>
  s.text > 0 && linkDensity(s) > 0.5 && s.proseText < s.text * 0.3

/** Whether `element` (with stats `s`) is furniture within `scope`. */
export const isFurniture = (element: HtmlElement, s: ElementStats, scope: Scope): boolean => {
  const tag = element.localName
  if (controlTags.has(tag)) return true
  if (s.text > scope.text * 0.5) return false
  const density = linkDensity(s)
  if (regionTags.has(tag)) return tag !== "header" || density > 0.3 || s.proseText < 200
  if (hasFurnitureRole(element) || isHidden(element)) return true
  const hint = hintText(element)
  if (bannerHint.test(hint) && s.proseText < 1000) return true
  if (linkyHint.test(hint) && density > 0.35) return true
  return scope.linkClusters && isLinkCluster(s) && tag !== "a"
}

/** Removes furniture under `root` (top-down; a removed element's subtree is not visited). */
export const stripFurniture = (root: HtmlElement, stats: StatsMap, linkClusters: boolean): void => {
  const rootStats = stats.get(root)
  if (rootStats === undefined) return
  const scope: Scope = { text: rootStats.text, linkClusters: linkClusters && linkDensity(rootStats) < 0.35 }
  const visit = (element: HtmlElement): void => {
    for (const child of [...element.children]) {
      const s = stats.get(child)
      if (s === undefined) continue
      if (isFurniture(child, s, scope)) child.remove()
      else visit(child)
    }
  }
  visit(root)
}
