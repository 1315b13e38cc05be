/**
 * Main-content detection on hand-written pages of the kinds Gleaner must handle (test/golden/pages:
 * an article framed by navigation, a sidebar, comments and a cookie banner; a docs page with a
 * sidebar; a product page; a forum thread; a listing), plus the fallbacks: a page with no clear
 * content keeps its whole body, and a heading that is only the site logo is not restored.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { extractMainContent, htmlToMarkdown, parseHtml } from "@gleaner/core"

const page = (name: string): string => readFileSync(new URL(`./golden/pages/${name}.html`, import.meta.url), "utf8")

const mainMarkdown = (html: string): string =>
  htmlToMarkdown(extractMainContent(parseHtml(html)), { baseUrl: "https://example.test/" })

describe("extractMainContent", () => {
  it("keeps an article's text and heading, and drops navigation, byline, share bar, comments, sidebar, banner and footer", () => {
    const md = mainMarkdown(page("article"))
    expect(md.startsWith("# Night trains return to the valley")).toBe(true)
    expect(md).toContain("After eleven years without a single overnight service")
    expect(md).toContain("## Timetable and fares")
    expect(md).toContain("funded from separate budgets")
    for (const furniture of ["Sport", "By Ada Marsh", "Share", "railfan77", "I have been waiting", "Most read", "cookies", "Privacy"]) {
      expect(md).not.toContain(furniture)
    }
  })

  it("keeps a docs page's prose, table and code, without the docs sidebar or the pager", () => {
    const md = mainMarkdown(page("docs"))
    expect(md).toContain("# Configuring retries")
    expect(md).toContain("| `maxRetries` | 3 |")
    expect(md).toContain("```js")
    expect(md).toContain("tried six times in total")
    for (const furniture of ["Installation", "Logging", "Quick start", "Pricing", "MIT licence"]) expect(md).not.toContain(furniture)
  })

  it("keeps a product's description under its name, without the cart form, breadcrumbs or related products", () => {
    const md = mainMarkdown(page("product"))
    expect(md).toContain("# Fieldstone Kettle, 1.2 l")
    expect(md).toContain("works on gas, electric and induction hobs")
    expect(md).toContain("whistle can be folded away")
    for (const furniture of ["Add to cart", "Stoneware teapot", "Home / Tea", "Free delivery"]) expect(md).not.toContain(furniture)
  })

  it("keeps every post of a forum thread (the thread is the content, not a comment section)", () => {
    const md = mainMarkdown(page("forum"))
    expect(md).toContain("# Sourdough starter smells like nail polish?")
    expect(md).toContain("smells sharply of nail polish remover")
    expect(md).toContain("usually means the starter is hungry")
    expect(md).toContain("Moving it to a cooler shelf")
    for (const furniture of ["Log in", "Popular threads", "Forum rules", "Reply"]) expect(md).not.toContain(furniture)
  })

  it("keeps a listing's repeated items with their linked titles, and its introduction", () => {
    const md = mainMarkdown(page("listing"))
    expect(md).toContain("# Upcoming workshops")
    for (const item of ["Carve a wooden spoon", "Fix your own bike", "Soldering for beginners", "Mend your clothes"]) {
      expect(md).toContain(`[${item}]`)
    }
    expect(md).toContain("Darning, patches and buttons")
    expect(md).toContain("All workshops take place in the shed")
    for (const furniture of ["Tool library", "Donate", "run by volunteers"]) expect(md).not.toContain(furniture)
  })

  it("falls back to the whole body when no part of it stands out", () => {
    const html = "<html><body><div><p>One short note.</p></div><div><p>Another short note.</p></div></body></html>"
    const root = extractMainContent(parseHtml(html))
    expect(root.localName).toBe("body")
    expect(root.textContent).toContain("One short note.")
    expect(root.textContent).toContain("Another short note.")
  })

  it("does not take a logo heading (an <h1> that only links home) for the page title", () => {
    const html = `<html><head><title>Spring planting</title></head><body>
      <header><h1><a href="/">Garden Notes</a></h1></header>
      <div class="post"><p>${"Plant the early potatoes once the soil has warmed, and keep fleece at hand for cold nights. ".repeat(4)}</p>
      <p>${"Sow peas in a double row against netting, water them well, and protect the seedlings from birds. ".repeat(4)}</p></div>
      </body></html>`
    const md = mainMarkdown(html)
    expect(md).not.toContain("Garden Notes")
    expect(md).toContain("Plant the early potatoes")
  })

  it("drops a consent dialog full of policy text, but not a wrapper whose class says a banner is shown", () => {
    const prose = "The article text, which is what the reader came for, with enough commas, words and sentences. "
    const policy = "We and our partners store and access information on your device, such as cookies, for analytics. "
    const html = `<html><body><div class="page has-cookie-banner"><h1>Title</h1><div class="entry"><p>${prose.repeat(3)}</p><p>${prose.repeat(2)}</p></div></div>
      <div id="onetrust-consent-sdk"><div class="ot-pc"><p>${policy.repeat(6)}</p><p>${policy.repeat(6)}</p></div></div></body></html>`
    const md = mainMarkdown(html)
    expect(md).toContain("what the reader came for")
    expect(md).not.toContain("our partners")
  })

  it("keeps the headers of the items of a listing (they hold the items' titles)", () => {
    const item = (title: string) => `<article class="teaser"><header><h2><a href="/${title}">${title} in the news today</a></h2></header>
      <p>A short summary of the story about ${title}, long enough to read as a sentence, with a comma.</p></article>`
    const html = `<html><body><header class="site"><a href="/">Home</a><a href="/a">A</a><a href="/b">B</a></header>
      <main>${["Bees", "Boats", "Bridges", "Bread"].map(item).join("")}</main></body></html>`
    const md = mainMarkdown(html)
    for (const title of ["Bees", "Boats", "Bridges", "Bread"]) expect(md).toContain(`[${title} in the news today]`)
  })

  it("survives broken markup that wraps the article in a stray <nav>", () => {
    const prose = "This paragraph is part of the real article and carries enough words to count as prose, with commas, too. "
    const html = `<html><body><nav><a href="/">Home</a><div class="article"><p>${prose.repeat(3)}</p><p>${prose.repeat(3)}</p></div></body></html>`
    expect(mainMarkdown(html)).toContain("This paragraph is part of the real article")
  })
})
