/**
 * Finds the main content of a page, for article, forum, product, listing, docs and service
 * pages alike. Furniture (menus, headers, footers, banners, consent dialogs) is stripped first;
 * then two views are combined: the region where most of the page's own prose lives (robust when
 * content is spread over many sections, posts or items) and the core, the best-scoring prose
 * container with the siblings that belong to it (precise on articles framed by teasers and
 * comments). The core wins when it lies in the region and holds a fair share of its prose; on
 * pages that do not declare themselves articles it is then widened towards the region while
 * what it gains reads like more content, and a core that holds the region widens the region
 * towards it the same way (a listing under its introduction). What remains is stripped of
 * furniture again and given back the page's main heading when that sat above it.
 */
import { stripFurniture } from "./boilerplate.js"
import { findCore } from "./content-core.js"
import { extentOf, type Mass, primaryMass, proseRegion, widen } from "./content-region.js"
import { measure, type StatsMap } from "./content-score.js"
import { bodyOf, collapseWhitespace, headOf, type HtmlDocument, type HtmlElement } from "./dom.js"

/** Share of the region's prose the core must hold to be preferred to the region. */
const minCoreShare = 0.3

/** The page declares itself an article (`og:type`), so comment threads are not its content. */
const declaresArticle = (document: HtmlDocument): boolean =>
  /^article$/i.test((headOf(document).querySelector("meta[property='og:type']")?.getAttribute("content") ?? "").trim())

/** An `<h1>` that is only a link home: the site's logo, not the page's title. */
const isLogo = (heading: HtmlElement): boolean => {
  const link = heading.querySelector("a[href]")
  if (link === null || collapseWhitespace(link.textContent ?? "") !== collapseWhitespace(heading.textContent ?? "")) return false
  return /^(?:(?:https?:)?\/\/[^/]+)?\/?(?:index\.\w+)?$/.test((link.getAttribute("href") ?? "").trim())
}

/** The page's main heading: its `<h1>`, the one matching the title when there are several. */
const mainHeading = (document: HtmlDocument, body: HtmlElement): HtmlElement | undefined => {
  const headings = body.querySelectorAll("h1").filter((h) => collapseWhitespace(h.textContent ?? "") !== "" && !isLogo(h))
  if (headings.length <= 1) return headings[0]
  const title = collapseWhitespace(headOf(document).querySelector("title")?.textContent ?? "").toLowerCase()
  return headings.find((h) => title.includes(collapseWhitespace(h.textContent ?? "").toLowerCase())) ?? headings[0]
}

/** Wraps the core's members in a new container at the core's place (or returns the lone member). */
const materialize = (document: HtmlDocument, element: HtmlElement, members: ReadonlyArray<HtmlElement>): HtmlElement => {
  if (members.length === 1 && members[0] !== undefined) return members[0]
  const container = document.createElement("div")
  element.parentElement?.insertBefore(container, members[0] ?? element)
  for (const member of members) container.appendChild(member)
  return container
}

/** Chooses the content root among the region and the core (see the module comment). */
const chooseRoot = (document: HtmlDocument, body: HtmlElement, stats: StatsMap, mass: Mass, isArticle: boolean): HtmlElement => {
  const region = proseRegion(body, stats, mass)
  const core = findCore(body, stats)
  if (core === undefined) return region
  // The core holds the region (a listing under its introduction): on pages that are not declared
  // articles, take what it adds that reads like content.
  if (!isArticle && core.element !== region && core.element.contains(region)) {
    return widen(region, extentOf(stats.get(region), mass), core.element, stats, mass) ?? region
  }
  if (!core.members.every((m) => region.contains(m))) return region
  const extent = core.members.map((m) => extentOf(stats.get(m), mass)).reduce((a, b) => ({
    text: a.text + b.text, linkText: a.linkText + b.linkText, proseText: a.proseText + b.proseText, mass: a.mass + b.mass
  }))
  if (extent.mass < mass(stats.get(region)) * minCoreShare) return region
  const widened = isArticle ? undefined : widen(core.element, extent, region, stats, mass)
  return widened ?? materialize(document, core.element, core.members)
}

/** Elements in document order, to tell whether the heading came before the content. */
const precedes = (body: HtmlElement, first: HtmlElement, second: HtmlElement): boolean => {
  for (const element of body.querySelectorAll("*")) {
    if (element === first) return true
    if (element === second) return false
  }
  return false
}

/** Puts the main heading back on top when the content lost it: it sat above, outside it. */
const restoreHeading = (body: HtmlElement, root: HtmlElement, heading: HtmlElement | undefined, wasBefore: boolean): void => {
  if (heading === undefined || !wasBefore || root === body || root.contains(heading) || root.querySelector("h1") !== null) return
  root.insertBefore(heading.cloneNode(true), root.firstChild)
}

/**
 * Returns the element holding the page's main content, cleaned of furniture. The document is
 * changed in place: furniture is removed, and a container may gather the kept siblings.
 */
export const extractMainContent = (document: HtmlDocument): HtmlElement => {
  const body = bodyOf(document) ?? document.createElement("body")
  const heading = mainHeading(document, body)
  stripFurniture(body, measure(body), false)
  const stats = measure(body)
  const isArticle = declaresArticle(document)
  const root = chooseRoot(document, body, stats, primaryMass(stats, body, isArticle), isArticle)
  // A heading stripped with its page header sat above the content; otherwise look where it is.
  const headingFirst = heading !== undefined && (!heading.isConnected || precedes(body, heading, root))
  // The figures of the body pass still hold inside the root, unless the root is a new container.
  stripFurniture(root, stats.has(root) ? stats : measure(root), true)
  restoreHeading(body, root, heading, headingFirst)
  return root
}
