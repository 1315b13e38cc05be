/** What a crawl follows and how its frontier dedupes URLs (API.md §3.6). */
import { describe, expect, it } from "vitest"
import { compileScope, type CrawlScope, type CrawlScopeOptions, defaultScopeOptions, scopeOptions } from "@gleaner/core"

const scopeFor = (start: string, given: Partial<CrawlScopeOptions> = {}): CrawlScope => {
  const compiled = compileScope(new URL(start), scopeOptions(given))
  if (!compiled.ok) throw new Error(compiled.message)
  return compiled.scope
}

const reason = (scope: CrawlScope, url: string, depth = 1) => {
  const decision = scope.decide(new URL(url), depth)
  return decision.follow ? "follow" : decision.reason
}

describe("crawl scope defaults", () => {
  it("are upstream's", () => {
    expect(defaultScopeOptions).toEqual({
      includePaths: [],
      excludePaths: [],
      regexOnFullURL: false,
      crawlEntireDomain: false,
      allowSubdomains: false,
      allowExternalLinks: false,
      ignoreQueryParameters: false,
      deduplicateSimilarURLs: true
    })
    expect(scopeOptions({ allowSubdomains: true }).allowSubdomains).toBe(true)
    expect(scopeOptions({}).maxDiscoveryDepth).toBeUndefined()
  })
})

describe("which hosts a crawl follows", () => {
  it("follows only http(s) links", () => {
    const scope = scopeFor("https://example.com/")
    expect(reason(scope, "mailto:me@example.com")).toBe("scheme")
    expect(reason(scope, "ftp://example.com/file")).toBe("scheme")
    expect(reason(scope, "javascript:void(0)")).toBe("scheme")
    expect(reason(scope, "http://example.com/about")).toBe("follow")
  })

  it("treats www and non-www of the start host as the same site", () => {
    expect(reason(scopeFor("https://example.com/"), "https://www.example.com/a")).toBe("follow")
    expect(reason(scopeFor("https://www.example.com/"), "https://example.com/a")).toBe("follow")
    expect(reason(scopeFor("https://EXAMPLE.com/"), "https://Example.COM/a")).toBe("follow")
  })

  it("refuses subdomains unless allowSubdomains, and other hosts unless allowExternalLinks", () => {
    const plain = scopeFor("https://example.com/")
    expect(reason(plain, "https://docs.example.com/a")).toBe("subdomain")
    expect(reason(plain, "https://other.org/a")).toBe("external")
    expect(reason(plain, "https://notexample.com/a")).toBe("external")

    const subdomains = scopeFor("https://www.example.com/", { allowSubdomains: true })
    expect(reason(subdomains, "https://docs.example.com/a")).toBe("follow")
    expect(reason(subdomains, "https://a.b.example.com/a")).toBe("follow")
    expect(reason(subdomains, "https://other.org/a")).toBe("external")

    const external = scopeFor("https://example.com/", { allowExternalLinks: true })
    expect(reason(external, "https://other.org/a")).toBe("follow")
    expect(reason(external, "https://docs.example.com/a")).toBe("follow")
  })

  it("does not count the parent domain as a subdomain of the start", () => {
    const scope = scopeFor("https://blog.example.com/", { allowSubdomains: true })
    expect(reason(scope, "https://example.com/")).toBe("external")
    expect(reason(scope, "https://en.blog.example.com/")).toBe("follow")
  })
})

describe("which paths a crawl follows", () => {
  it("keeps to the start path unless crawlEntireDomain", () => {
    for (const start of ["https://example.com/blog", "https://example.com/blog/"]) {
      const scope = scopeFor(start)
      expect(reason(scope, "https://example.com/blog")).toBe("follow")
      expect(reason(scope, "https://example.com/blog/")).toBe("follow")
      expect(reason(scope, "https://example.com/blog/2024/post")).toBe("follow")
      expect(reason(scope, "https://www.example.com/blog/post")).toBe("follow")
      expect(reason(scope, "https://example.com/blogging")).toBe("outside-path")
      expect(reason(scope, "https://example.com/about")).toBe("outside-path")
      expect(reason(scope, "https://example.com/")).toBe("outside-path")
    }
    const entire = scopeFor("https://example.com/blog/", { crawlEntireDomain: true })
    expect(reason(entire, "https://example.com/about")).toBe("follow")
    expect(reason(entire, "https://example.com/")).toBe("follow")
  })

  it("follows everything on the site when the crawl starts at the root", () => {
    const scope = scopeFor("https://example.com")
    expect(reason(scope, "https://example.com/anything/at/all")).toBe("follow")
    expect(reason(scopeFor("https://example.com/index.html"), "https://example.com/about")).toBe("follow")
  })

  it("does not hold other hosts it may follow to the start path", () => {
    const scope = scopeFor("https://example.com/blog/", { allowSubdomains: true, allowExternalLinks: true })
    expect(reason(scope, "https://docs.example.com/guide")).toBe("follow")
    expect(reason(scope, "https://other.org/x")).toBe("follow")
  })

  it("skips files that are not pages but scrapes documents", () => {
    const scope = scopeFor("https://example.com/")
    for (const file of ["logo.PNG", "photo.jpg", "clip.mp4", "song.mp3", "code.zip", "site.css", "app.js", "font.woff2"]) {
      expect(reason(scope, `https://example.com/assets/${file}`)).toBe("file-type")
    }
    for (const doc of ["report.pdf", "letter.docx", "page.html", "page.php", "feed"]) {
      expect(reason(scope, `https://example.com/files/${doc}`)).toBe("follow")
    }
    expect(reason(scope, "https://example.com/v1.2/docs")).toBe("follow")
  })
})

describe("includePaths and excludePaths", () => {
  it("require one include to match the pathname", () => {
    const scope = scopeFor("https://example.com/", { includePaths: ["^/blog/", "^/news/"] })
    expect(reason(scope, "https://example.com/blog/a")).toBe("follow")
    expect(reason(scope, "https://example.com/news/b")).toBe("follow")
    expect(reason(scope, "https://example.com/shop/c")).toBe("include")
    // The pathname alone is tested: a query mentioning /blog/ does not help.
    expect(reason(scope, "https://example.com/shop?from=/blog/")).toBe("include")
  })

  it("skip URLs matching any exclude, even when an include matches", () => {
    const scope = scopeFor("https://example.com/", { includePaths: ["^/blog"], excludePaths: ["/drafts/", "^/blog/tag"] })
    expect(reason(scope, "https://example.com/blog/post")).toBe("follow")
    expect(reason(scope, "https://example.com/blog/drafts/x")).toBe("exclude")
    expect(reason(scope, "https://example.com/blog/tag/js")).toBe("exclude")
  })

  it("match the whole URL with regexOnFullURL", () => {
    const scope = scopeFor("https://example.com/", { includePaths: ["^https://example\\.com/.*\\?lang=en"], regexOnFullURL: true })
    expect(reason(scope, "https://example.com/page?lang=en")).toBe("follow")
    expect(reason(scope, "https://example.com/page?lang=fr")).toBe("include")
    expect(reason(scopeFor("https://example.com/", { excludePaths: ["#top"], regexOnFullURL: true }), "https://example.com/a#top")).toBe("follow")
  })

  it("report an invalid regex at compile time, naming it", () => {
    const bad = compileScope(new URL("https://example.com/"), scopeOptions({ includePaths: ["^/ok"], excludePaths: ["^/fine", "(unclosed"] }))
    expect(bad.ok).toBe(false)
    if (bad.ok) return
    expect(bad.field).toBe("excludePaths")
    expect(bad.index).toBe(1)
    expect(bad.message).toContain("excludePaths[1]")
    expect(bad.message).toContain("(unclosed")

    const badInclude = compileScope(new URL("https://example.com/"), scopeOptions({ includePaths: ["[a-"] }))
    expect(badInclude.ok ? "" : badInclude.message).toMatch(/^Invalid regular expression in includePaths\[0\] "\[a-"/)
  })
})

describe("maxDiscoveryDepth", () => {
  it("limits link hops from the start, which is depth 0", () => {
    const scope = scopeFor("https://example.com/", { maxDiscoveryDepth: 1 })
    expect(reason(scope, "https://example.com/", 0)).toBe("follow")
    expect(reason(scope, "https://example.com/a", 1)).toBe("follow")
    expect(reason(scope, "https://example.com/a/b", 2)).toBe("depth")
    expect(reason(scopeFor("https://example.com/", { maxDiscoveryDepth: 0 }), "https://example.com/a", 1)).toBe("depth")
    expect(reason(scopeFor("https://example.com/"), "https://example.com/deep", 500)).toBe("follow")
  })
})

describe("the frontier key", () => {
  const key = (scope: CrawlScope, url: string) => scope.key(new URL(url))
  const exact = scopeFor("https://example.com/", { deduplicateSimilarURLs: false })
  const similar = scopeFor("https://example.com/")

  it("ignores the fragment, default ports and host case", () => {
    for (const scope of [exact, similar]) {
      expect(key(scope, "https://example.com/a#section")).toBe(key(scope, "https://example.com/a"))
      expect(key(scope, "https://EXAMPLE.com:443/a")).toBe(key(scope, "https://example.com/a"))
      expect(key(scope, "http://example.com:80/a")).toBe(key(scope, "http://example.com/a"))
      expect(key(scope, "https://example.com:8443/a")).not.toBe(key(scope, "https://example.com/a"))
    }
  })

  it("sorts query parameters but keeps their values apart", () => {
    expect(key(exact, "https://example.com/s?b=2&a=1")).toBe(key(exact, "https://example.com/s?a=1&b=2"))
    expect(key(exact, "https://example.com/s?a=1")).not.toBe(key(exact, "https://example.com/s?a=2"))
    expect(key(exact, "https://example.com/s?")).toBe(key(exact, "https://example.com/s"))
  })

  it("drops the query with ignoreQueryParameters, in the key and in what is fetched", () => {
    const scope = scopeFor("https://example.com/", { ignoreQueryParameters: true })
    expect(key(scope, "https://example.com/s?page=2")).toBe(key(scope, "https://example.com/s?page=3"))
    expect(scope.fetchUrl(new URL("https://example.com/s?page=2#x")).href).toBe("https://example.com/s")
    expect(similar.fetchUrl(new URL("https://example.com/s?page=2#x")).href).toBe("https://example.com/s?page=2")
  })

  it("counts www, http/https, trailing slash and index files as one URL with deduplicateSimilarURLs", () => {
    const one = key(similar, "https://example.com/docs")
    for (const variant of [
      "https://www.example.com/docs", "http://example.com/docs", "https://example.com/docs/",
      "https://example.com/docs/index.html", "http://www.example.com/docs/index.php", "https://example.com/docs/index.htm"
    ]) {
      expect(key(similar, variant)).toBe(one)
    }
    expect(key(similar, "https://example.com/index.html")).toBe(key(similar, "https://example.com/"))
    expect(key(similar, "https://example.com/docs/intro.html")).not.toBe(one)
  })

  it("keeps those variants apart without deduplicateSimilarURLs", () => {
    const one = key(exact, "https://example.com/docs")
    for (const variant of ["https://www.example.com/docs", "http://example.com/docs", "https://example.com/docs/", "https://example.com/docs/index.html"]) {
      expect(key(exact, variant)).not.toBe(one)
    }
  })
})

describe("the start URL denial", () => {
  it("is absent when the start URL passes the filters", () => {
    expect(scopeFor("https://example.com/blog/", { includePaths: ["^/blog"] }).startDenial()).toBeUndefined()
    expect(scopeFor("https://example.com/").startDenial()).toBeUndefined()
  })

  it("names the exclude pattern that shuts out the start URL", () => {
    const message = scopeFor("https://example.com/blog/", { excludePaths: ["^/blog"] }).startDenial()
    expect(message).toContain("https://example.com/blog/")
    expect(message).toContain('excludePaths pattern "^/blog"')
  })

  it("lists the include patterns the start URL misses", () => {
    const message = scopeFor("https://example.com/", { includePaths: ["^/blog", "^/news"] }).startDenial()
    expect(message).toContain("includePaths")
    expect(message).toContain('"^/blog", "^/news"')
  })

  it("tests the full URL with regexOnFullURL", () => {
    const scope = scopeFor("https://example.com/", { includePaths: ["^https://example\\.com/$"], regexOnFullURL: true })
    expect(scope.startDenial()).toBeUndefined()
  })
})
