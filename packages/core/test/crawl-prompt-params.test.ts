/** Crawl options from plain English, the fallback when no LLM is configured (API.md §3.6). */
import { describe, expect, it } from "vitest"
import { paramsFromPrompt, pathPrefixRegex } from "@gleaner/core"

const options = (prompt: string) => paramsFromPrompt(prompt).options

describe("paramsFromPrompt", () => {
  it("reads page counts", () => {
    expect(options("Crawl the first 50 pages")).toEqual({ limit: 50 })
    expect(options("up to 200 pages please")).toEqual({ limit: 200 })
    expect(options("limit 10")).toEqual({ limit: 10 })
    expect(options("Limit: 1,000")).toEqual({ limit: 1000 })
    expect(options("grab twenty-five blog pages")).toEqual({ limit: 25 })
  })

  it("reads depth without mistaking it for a page count", () => {
    expect(options("go 2 levels deep")).toEqual({ maxDiscoveryDepth: 2 })
    expect(options("depth 3")).toEqual({ maxDiscoveryDepth: 3 })
    expect(options("with a max depth of one")).toEqual({ maxDiscoveryDepth: 1 })
    expect(options("Depth limit of 2, at most 30 pages")).toEqual({ maxDiscoveryDepth: 2, limit: 30 })
    expect(options("no more than three links deep")).toEqual({ maxDiscoveryDepth: 3 })
  })

  it("keeps paths the prompt asks for", () => {
    expect(options("only /blog")).toEqual({ includePaths: ["^/blog(/|$)"] })
    expect(options("Only blog posts under /blog/")).toEqual({ includePaths: ["^/blog(/|$)"] })
    expect(options("just https://example.com/docs/v2 and /api")).toEqual({ includePaths: ["^/docs/v2(/|$)", "^/api(/|$)"] })
    expect(options("crawl /docs")).toEqual({ includePaths: ["^/docs(/|$)"] })
    expect(options("crawl https://example.com/blog, 5 pages")).toEqual({ limit: 5 })
  })

  it("skips paths the prompt rules out", () => {
    expect(options("exclude /tag")).toEqual({ excludePaths: ["^/tag(/|$)"] })
    expect(options("skip /tag and /author pages")).toEqual({ excludePaths: ["^/tag(/|$)", "^/author(/|$)"] })
    expect(options("don't include /admin")).toEqual({ excludePaths: ["^/admin(/|$)"] })
    expect(options("only /blog, but not /blog/drafts")).toEqual({ includePaths: ["^/blog(/|$)"], excludePaths: ["^/blog/drafts(/|$)"] })
  })

  it("turns paths into regexes that match the path and what is below it, nothing else", () => {
    const regex = new RegExp(pathPrefixRegex("/blog"))
    expect(regex.test("/blog")).toBe(true)
    expect(regex.test("/blog/post")).toBe(true)
    expect(regex.test("/blogging")).toBe(false)
    expect(pathPrefixRegex("/v1.2/*")).toBe("^/v1\\.2(/|$)")
    expect(new RegExp(pathPrefixRegex("/docs/*/api")).test("/docs/v3/api/x")).toBe(true)
  })

  it("reads subdomains, external links and the whole domain, negated or not", () => {
    expect(options("Include subdomains")).toEqual({ allowSubdomains: true })
    expect(options("no subdomains")).toEqual({ allowSubdomains: false })
    expect(options("follow external links too")).toEqual({ allowExternalLinks: true })
    expect(options("don't follow external links")).toEqual({ allowExternalLinks: false })
    expect(options("crawl the entire domain")).toEqual({ crawlEntireDomain: true })
    expect(options("The whole site, please")).toEqual({ crawlEntireDomain: true })
    expect(options("skip /tag and include subdomains")).toEqual({ excludePaths: ["^/tag(/|$)"], allowSubdomains: true })
  })

  it("reads sitemap use", () => {
    expect(options("sitemap only")).toEqual({ sitemap: "only" })
    expect(options("Only the sitemap")).toEqual({ sitemap: "only" })
    expect(options("skip the sitemap")).toEqual({ sitemap: "skip" })
    expect(options("ignore sitemap")).toEqual({ sitemap: "skip" })
    expect(options("use the sitemap")).toEqual({ sitemap: "include" })
  })

  it("reads query strings and delays", () => {
    expect(options("ignore query strings")).toEqual({ ignoreQueryParameters: true })
    expect(options("Ignore URL parameters")).toEqual({ ignoreQueryParameters: true })
    expect(options("wait 2 seconds between pages")).toEqual({ delay: 2 })
    expect(options("delay of 90 seconds")).toEqual({})
  })

  it("reads a whole request and says what it understood", () => {
    const result = paramsFromPrompt("Crawl the whole site including subdomains, up to 100 pages, 2 levels deep, skip /tag and /author, ignore query parameters")
    expect(result.options).toEqual({
      excludePaths: ["^/tag(/|$)", "^/author(/|$)"],
      crawlEntireDomain: true,
      allowSubdomains: true,
      ignoreQueryParameters: true,
      limit: 100,
      maxDiscoveryDepth: 2
    })
    expect(result.understood).toEqual([
      "at most 100 pages",
      "at most 2 link hops from the start page",
      "skip pages under /tag, /author",
      "the entire domain, not only below the start path",
      "include subdomains",
      "ignore query parameters"
    ])
  })

  it("gives nothing for text it does not understand", () => {
    expect(paramsFromPrompt("find me pricing information")).toEqual({ options: {}, understood: [] })
    expect(paramsFromPrompt("")).toEqual({ options: {}, understood: [] })
    expect(paramsFromPrompt("someone often goes there")).toEqual({ options: {}, understood: [] })
  })
})
