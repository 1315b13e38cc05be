/**
 * Class and id words that say what a container is for: content ("article-body", "post") or page
 * furniture ("sidebar", "comments", "share"). Main-content detection weighs candidates by them.
 */
import { classOf, type HtmlElement } from "./dom.js"

/** Class/id words of containers that usually hold the main text. */
const positiveHint = /article|body|content|entry|main|post|text|story|prose|markdown|blog|hentry|description|detail|thread|question|answer|recipe|docs?\b|documentation|product/i

/** Class/id words of page furniture. */
const negativeHint = /nav|menu|breadcrumb|sidebar|side-bar|widget|footer|masthead|header|banner|cookie|consent|gdpr|newsletter|subscribe|signup|sign-up|login|share|sharing|social|follow|related|recommend|popular|trending|promo|sponsor|advert|comment|respond|reply|disqus|pagination|pager|tags?\b|tag-list|byline|author|avatar|meta\b|toolbar|tool-bar|modal|popup|overlay|skip|print|jump|outbrain|taboola|hidden|foot|copyright|legal|rating|search/i

const hints = new WeakMap<HtmlElement, string>()

/**
 * Class and id of an element, as one string. Read as attributes (linkedom builds a token list
 * for every `className` read) and remembered: the cleaning and scoring passes ask for them
 * several times, and an attribute read walks the element's attribute list.
 */
export const hintText = (element: HtmlElement): string => {
  const known = hints.get(element)
  if (known !== undefined) return known
  const hint = `${classOf(element)} ${element.getAttribute("id") ?? ""}`
  hints.set(element, hint)
  return hint
}

/** +25 for content-like class/id words, −25 for furniture words, 0 for neither or both. */
export const classWeight = (element: HtmlElement): number => {
  const hint = hintText(element)
  if (hint === " ") return 0
  let weight = 0
  if (positiveHint.test(hint)) weight += 25
  if (negativeHint.test(hint)) weight -= 25
  return weight
}


/**
 * Whole class/id words (between spaces, `-` or `_`) of secondary regions: comment threads,
 * sidebars, related and recommended stories. Whole words only: "node--promoted" or
 * "newsletter-post" are articles, and substrings would say otherwise.
 */
const secondaryWord = /(?:^|[\s_-])(?:comments?|commentlist|comment-?list|comments-?area|disqus|respond|sidebar|side-bar|related|relatedposts|related-posts|related-articles|recommended|recommendations|trending|popular|most-?read|most-?popular|more-?stories|read-?next|outbrain|taboola)(?=$|[\s_-])/i

/** True when the element's class or id marks a secondary region of the page. */
export const isSecondaryRegion = (element: HtmlElement): boolean => {
  const hint = hintText(element)
  return hint !== " " && secondaryWord.test(hint)
}
