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

/**
 * A `<header>` of the page rather than of an article or section (whose header holds its title,
 * which a listing needs).
 */
const isPageHeader = (element: HtmlElement): boolean => element.parentElement?.closest("article, section, main, li") === null

/** ARIA roles of page furniture. */
const furnitureRoles: ReadonlySet<string> = new Set([
  "navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menu", "menubar",
  "toolbar", "alert", "status", "marquee", "timer"
])

/** Word (between `-`, `_` or spaces) of link furniture: removed when the element is mostly links. */
const linkyHint = /(?:^|[\s_-])(?:nav|navbar|navigation|menu|menus|breadcrumbs?|share|sharing|social|related|recommended|popular|trending|toolbar|tags|tag-list|tagcloud|pagination|pager|sitemap|footer-links|quicklinks)(?:$|[\s_-])/i

/** Word of consent dialogs and cookie banners: furniture whatever they hold. */
const consentHint = /(?:^|[\s_-])(?:cookies?|cookie-?banner|cookie-?notice|consent|gdpr|onetrust)(?:$|[\s_-])/i

/** Word of banners and widgets: furniture unless they hold a good deal of prose ("modal-enabled"). */
const bannerHint = /(?:^|[\s_-])(?:newsletter|subscribe|subscription|signup|popup|modal|overlay|advert|advertisement|sponsored|comment-form|comment-respond|respond|reply-form|skip-link|skip|print|disqus|outbrain|taboola|paywall)(?:$|[\s_-])/i

/** `aria-label` of consent dialogs and cookie banners. */
const consentLabel = /cookie|consent|privacy (?:preference|setting|choice)/i

/** Word of bylines, datelines and reading-time notes: dropped inside the content when short. */
const metaHint = /(?:^|[\s_-])(?:byline|bylines|author|authors|dateline|timestamp|published|posted-on|entry-meta|post-meta|article-meta|meta|date|reading-time|read-time)(?:$|[\s_-])/i

/** Longest text a byline or dateline block has. */
const maxMetaChars = 250

/** Hidden from everyone. (`aria-hidden` is not: it hides from screen readers what is shown twice.) */
const isHidden = (element: HtmlElement): boolean => {
  if (element.hasAttribute("hidden")) return true
  const style = element.getAttribute("style")
  return style !== null && /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style)
}

const hasFurnitureRole = (element: HtmlElement): boolean => {
  const role = element.getAttribute("role")
  return role !== null && furnitureRoles.has(role.trim().toLowerCase())
}

/** Headings stay even when they are links: a listing's item titles are. */
const headingTags: ReadonlySet<string> = new Set(["h1", "h2", "h3", "h4", "h5", "h6"])

/** Scope in which a removal is judged: its text decides what counts as "most of it". */
export interface Scope {
  readonly text: number
  /** Inside the chosen content: bylines and (when it is prose) link clusters go too. */
  readonly inner: boolean
  /** Remove link clusters (menus, link lists): inside content that is prose, not a link list. */
  readonly linkClusters: boolean
}

const isLinkCluster = (s: ElementStats): boolean =>
  s.text > 0 && linkDensity(s) > 0.5 && s.proseText < s.text * 0.3

/** Whether `element` (with stats `s`) is furniture within `scope`. */
export const isFurniture = (element: HtmlElement, s: ElementStats, scope: Scope): boolean => {
  const tag = element.localName
  if (controlTags.has(tag)) return true
  const hint = hintText(element)
  // Consent dialogs are never content, however much policy text they carry; but a wrapper that
  // merely says one is shown ("has-cookie-banner") holds the page's heading or main element.
  if ((consentHint.test(hint) || consentLabel.test(element.getAttribute("aria-label") ?? "")) &&
    element.querySelector("h1, main, article") === null) return true
  if (s.text > scope.text * 0.5) return false
  const density = linkDensity(s)
  if (regionTags.has(tag)) return tag !== "header" || (isPageHeader(element) && (density > 0.3 || s.proseText < 200))
  if (hasFurnitureRole(element) || isHidden(element)) return true
  if (bannerHint.test(hint) && s.proseText < 1000) return true
  if (linkyHint.test(hint) && density > 0.35) return true
  if (!scope.inner) return false
  if (s.text < maxMetaChars && metaHint.test(hint)) return true
  return scope.linkClusters && isLinkCluster(s) && tag !== "a" && !headingTags.has(tag)
}

/** Removes furniture under `root` (top-down; a removed element's subtree is not visited). */
export const stripFurniture = (root: HtmlElement, stats: StatsMap, inner: boolean): void => {
  const rootStats = stats.get(root)
  if (rootStats === undefined) return
  const scope: Scope = { text: rootStats.text, inner, linkClusters: inner && linkDensity(rootStats) < 0.35 }
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
