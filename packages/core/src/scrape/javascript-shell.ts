/**
 * Does a fetched HTML page need JavaScript to show its content? A single pass over the markup
 * (no DOM) counts the text a reader would see outside scripts, styles and templates; a page with
 * almost none that also carries what renders it — an empty application root (`#root`, `#app`,
 * `#__next`, …), script bundles, or a `<noscript>` asking for JavaScript — is a shell, and the
 * Scraper renders it in the browser. Pages with real text stop the scan early, so the check costs
 * little on ordinary pages.
 */

/** Visible characters (whitespace excluded) that make a page a real page, not a shell. */
const enoughText = 200

const rawTextElements = new Set(["script", "style", "template", "noscript", "svg", "head", "title"])

const appRoot = /<(?:div|main|body|section)\b[^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte|q-app|ember-application|react-root|main-app|application)["'\s>]/i
const scriptBundle = /<script\b[^>]*\b(?:src\s*=|type\s*=\s*["']?module)/i
const noscriptAsk = /<noscript\b[^>]*>[^]*?(?:enable|turn on|requires?|need)\s+(?:javascript|js)\b/i

/** Where `</name` next starts (any case), or -1. */
const endTag = (html: string, name: string, from: number): number => {
  for (let at = html.indexOf("</", from); at >= 0; at = html.indexOf("</", at + 2)) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) return at
  }
  return -1
}

/** Visible text length, stopping once it reaches `limit`. */
const visibleText = (html: string, limit: number): number => {
  let count = 0
  let i = 0
  const n = html.length
  while (i < n) {
    const lt = html.indexOf("<", i)
    const end = lt < 0 ? n : lt
    for (let j = i; j < end; j++) {
      const c = html.charCodeAt(j)
      if (c > 32) {
        count += 1
        if (count >= limit) return count
      }
    }
    if (lt < 0) break
    if (html.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4)
      i = close < 0 ? n : close + 3
      continue
    }
    const gt = html.indexOf(">", lt + 1)
    if (gt < 0) break
    const name = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(lt, Math.min(gt + 1, lt + 40)))?.[1]?.toLowerCase()
    i = gt + 1
    if (name !== undefined && rawTextElements.has(name) && html.charCodeAt(gt - 1) !== 47) {
      // skip to the matching end tag (these elements' text is not shown as page text)
      const close = endTag(html, name, i)
      if (close >= 0) i = close
    }
  }
  return count
}

export const looksLikeJavaScriptShell = (html: string): boolean => {
  if (visibleText(html, enoughText) >= enoughText) return false
  return appRoot.test(html) || scriptBundle.test(html) || noscriptAsk.test(html)
}
