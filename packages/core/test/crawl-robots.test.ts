import { describe, expect, it } from "vitest"
import {
  crawlDelaySeconds,
  isAllowed,
  maxRobotsBytes,
  parseRobots,
  robotsAllowAll,
  robotsDisallowAll,
  robotsRules,
  robotsSitemaps
} from "@gleaner/core"

const rulesFor = (text: string, agent = "FirecrawlAgent/1.0") => robotsRules(parseRobots(text), agent)
const allowed = (text: string, path: string, agent?: string) => isAllowed(rulesFor(text, agent), `https://example.com${path}`)

/** The example file of RFC 9309 §5.1. */
const rfcExample = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF`

describe("the RFC 9309 example file", () => {
  it("limits foobot to the pages it is allowed", () => {
    expect(allowed(rfcExample, "/example/page.html", "foobot")).toBe(true)
    expect(allowed(rfcExample, "/example/allowed.gif", "foobot")).toBe(true)
    expect(allowed(rfcExample, "/example/other.html", "foobot")).toBe(false)
    expect(allowed(rfcExample, "/", "foobot")).toBe(false)
  })

  it("applies one group to every User-agent line above its rules", () => {
    for (const agent of ["barbot", "bazbot"]) {
      expect(allowed(rfcExample, "/example/page.html", agent)).toBe(false)
      expect(allowed(rfcExample, "/example/other.html", agent)).toBe(true)
    }
  })

  it("gives an agent with an empty group no rules rather than the * group's", () => {
    expect(allowed(rfcExample, "/example/other.html", "quxbot")).toBe(true)
    expect(allowed(rfcExample, "/picture.gif", "quxbot")).toBe(true)
  })

  it("falls back to the * group for other agents", () => {
    expect(allowed(rfcExample, "/example/other.html")).toBe(false)
    expect(allowed(rfcExample, "/images/picture.gif")).toBe(false)
    expect(allowed(rfcExample, "/images/picture.gif?size=2")).toBe(true)
    expect(allowed(rfcExample, "/publications/paper.pdf")).toBe(true)
  })
})

describe("rule precedence", () => {
  it("lets the longest matching pattern decide (RFC 9309 §5.2)", () => {
    const text = "User-agent: *\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
    expect(allowed(text, "/example/page/")).toBe(true)
    expect(allowed(text, "/example/page/other.gif")).toBe(true)
    expect(allowed(text, "/example/page/disallowed.gif")).toBe(false)
  })

  it("prefers Allow when an Allow and a Disallow are equally long", () => {
    const text = "User-agent: *\nDisallow: /page\nAllow: /page\nDisallow: /x*y\nAllow: /x*y\n"
    expect(allowed(text, "/page")).toBe(true)
    expect(allowed(text, "/xaay")).toBe(true)
  })

  it("does not care in which order the rules are written", () => {
    const text = "User-agent: *\nDisallow: /shop/cart\nAllow: /shop/\nDisallow: /\n"
    expect(allowed(text, "/shop/shoes")).toBe(true)
    expect(allowed(text, "/shop/cart?id=1")).toBe(false)
    expect(allowed(text, "/about")).toBe(false)
  })

  it("treats an empty Disallow as allowing everything", () => {
    expect(allowed("User-agent: *\nDisallow:\n", "/anything")).toBe(true)
  })

  it("always allows /robots.txt", () => {
    expect(allowed("User-agent: *\nDisallow: /\n", "/robots.txt")).toBe(true)
    expect(isAllowed(robotsDisallowAll, "https://example.com/robots.txt")).toBe(true)
    expect(isAllowed(robotsDisallowAll, "https://example.com/")).toBe(false)
    expect(isAllowed(robotsAllowAll, "https://example.com/private")).toBe(true)
  })
})

describe("patterns", () => {
  const text = `User-agent: *
Disallow: /*.php$
Disallow: /fish*.php
Disallow: /search?q=
Allow: /exact$
Disallow: /exact
`
  it("matches * against any run of characters and $ at the end of the path", () => {
    expect(allowed(text, "/index.php")).toBe(false)
    expect(allowed(text, "/folder/filename.php")).toBe(false)
    expect(allowed(text, "/filename.php?parameters")).toBe(true)
    expect(allowed(text, "/filename.php5")).toBe(true)
    expect(allowed(text, "/windows.PHP")).toBe(true)
    expect(allowed(text, "/fishheads/catfish.php?parameters")).toBe(false)
    expect(allowed(text, "/Fish.PHP")).toBe(true)
  })

  it("matches the query string as part of the path", () => {
    expect(allowed(text, "/search?q=cats")).toBe(false)
    expect(allowed(text, "/search?page=2")).toBe(true)
  })

  it("anchors a pattern ending in $ to the whole path", () => {
    expect(allowed(text, "/exact")).toBe(true)
    expect(allowed(text, "/exact/more")).toBe(false)
  })

  it("compares paths with percent-encoding normalised", () => {
    const encoded = "User-agent: *\nDisallow: /%7Euser/\nDisallow: /foo/bar/ツ\nDisallow: /a%2fb\n"
    expect(allowed(encoded, "/~user/page")).toBe(false)
    expect(allowed("User-agent: *\nDisallow: /~user/\n", "/%7euser/page")).toBe(false)
    expect(allowed(encoded, "/foo/bar/%E3%83%84")).toBe(false)
    expect(allowed(encoded, "/foo/bar/ツ/more")).toBe(false)
    expect(allowed(encoded, "/a%2Fb")).toBe(false)
    expect(allowed(encoded, "/a/b")).toBe(true)
  })

  it("accepts a path given without its origin", () => {
    expect(isAllowed(rulesFor("User-agent: *\nDisallow: /private\n"), "/private/x")).toBe(false)
    expect(isAllowed(rulesFor("User-agent: *\nDisallow: /private\n"), new URL("https://example.com/public"))).toBe(true)
  })

  it("matches thousands of URLs quickly", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `Disallow: /section-${i}/*/item*.html$`)
    const rules = rulesFor(`User-agent: *\n${lines.join("\n")}`)
    const started = performance.now()
    let blocked = 0
    for (let i = 0; i < 5000; i++) if (!isAllowed(rules, `https://example.com/section-${i % 300}/a/b/item${i}.html`)) blocked++
    expect(blocked).toBe(3400)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe("group selection", () => {
  const text = `User-agent: *
Disallow: /everyone

User-agent: FirecrawlAgent
Disallow: /firecrawl

User-agent: Firecrawl
Disallow: /short-token

User-agent: firecrawlagent
Disallow: /again
`
  it("prefers the group naming our product token over *, case-insensitively", () => {
    expect(allowed(text, "/everyone")).toBe(true)
    expect(allowed(text, "/firecrawl")).toBe(false)
  })

  it("merges every group that names the chosen token", () => {
    expect(allowed(text, "/again")).toBe(false)
  })

  it("chooses the most specific token, not every token that matches", () => {
    expect(allowed(text, "/short-token")).toBe(true)
    expect(allowed(text, "/short-token", "Firecrawl/2")).toBe(false)
  })

  it("finds our token inside a browser-like user agent string", () => {
    expect(allowed(text, "/firecrawl", "Mozilla/5.0 (compatible; FirecrawlAgent/1.0)")).toBe(false)
  })

  it("ignores a version written after the token in robots.txt", () => {
    expect(allowed("User-agent: Gleaner/2.1\nDisallow: /\n", "/page", "Gleaner/0.1")).toBe(false)
  })

  it("applies no rules when neither our token nor * is named", () => {
    expect(allowed("User-agent: otherbot\nDisallow: /\n", "/page")).toBe(true)
  })

  it("ignores rules written before any User-agent line", () => {
    expect(allowed("Disallow: /\nUser-agent: *\nDisallow: /private\n", "/page")).toBe(true)
  })
})

describe("crawl-delay and sitemaps", () => {
  it("reads the crawl delay of the chosen group, in seconds", () => {
    const text = "User-agent: *\nCrawl-delay: 10\n\nUser-agent: FirecrawlAgent\nCrawl-delay: 2.5\nDisallow: /x\n"
    expect(crawlDelaySeconds(rulesFor(text))).toBe(2.5)
    expect(crawlDelaySeconds(rulesFor(text, "otherbot"))).toBe(10)
    expect(crawlDelaySeconds(rulesFor("User-agent: *\nCrawl-delay: soon\n"))).toBeUndefined()
  })

  it("collects absolute sitemap URLs from anywhere in the file, once each", () => {
    const robots = parseRobots(`Sitemap: https://example.com/sitemap.xml
User-agent: otherbot
Disallow: /
SITEMAP:https://example.com/news.xml # news
sitemap: /relative.xml
Sitemap: ftp://example.com/sitemap.xml
Sitemap: https://example.com/sitemap.xml
`)
    expect(robotsSitemaps(robots)).toEqual(["https://example.com/sitemap.xml", "https://example.com/news.xml"])
  })
})

describe("tolerant parsing", () => {
  it("reads a BOM, CRLF line ends, comments and odd spacing and case", () => {
    const text = "\uFEFF# robots for example.com\r\nUSER-AGENT : *  # all\r\n\r\n  disallow :  /private  # keep out\r\nAllow: /private/open\r\n"
    expect(allowed(text, "/private/secret")).toBe(false)
    expect(allowed(text, "/private/open/doc")).toBe(true)
    expect(allowed(text, "/public")).toBe(true)
  })

  it("skips unknown and malformed lines without ending the group", () => {
    const text = "User-agent: *\nHost: example.com\nthis is not a rule\nNoindex: /x\nDisallow: /private\n"
    expect(allowed(text, "/private")).toBe(false)
    expect(allowed(text, "/x")).toBe(true)
  })

  it("allows everything for garbage input", () => {
    for (const text of ["", "<html><body>Not found</body></html>", "\u0000\u0001\uFFFD binary", "::::\n:\n#"]) {
      const robots = parseRobots(text)
      expect(isAllowed(robotsRules(robots, "FirecrawlAgent"), "https://example.com/any/page")).toBe(true)
      expect(robots.sitemaps).toEqual([])
    }
  })

  it("ignores what comes after the first 500 KiB", () => {
    const filler = `# ${"x".repeat(1000)}\n`.repeat(Math.ceil(maxRobotsBytes / 1003))
    const text = `User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`
    expect(allowed(text, "/early")).toBe(false)
    expect(allowed(text, "/late")).toBe(true)
  })
})
