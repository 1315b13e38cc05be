/** The order of a map with `search` (API.md §3.7): a deterministic relevance scorer. */
import { describe, expect, it } from "vitest"
import { rankLinks, relevanceScores, searchTerms } from "@gleaner/core"

const urls = (links: ReadonlyArray<{ readonly url: string }>) => links.map((l) => new URL(l.url).pathname)

describe("map ranking", () => {
  it("cuts queries and text into lower-case words of any script", () => {
    expect(searchTerms("  Page-42: Über_uns / café ")).toEqual(["page", "42", "über", "uns", "café"])
    expect(searchTerms("—!?")).toEqual([])
  })

  it("puts the page whose path holds the exact word first, even without a title", () => {
    const links = [
      { url: "https://a.test/site/421", title: "Site page 421" },
      { url: "https://a.test/site/4", title: "Site page 4" },
      { url: "https://a.test/site/142", title: "Site page 142" },
      { url: "https://a.test/site/42" },
      { url: "https://a.test/site/7", title: "Site page 7" }
    ]
    expect(urls(rankLinks(links, "page 42"))[0]).toBe("/site/42")
  })

  it("a title with the whole phrase beats one with the words scattered", () => {
    const links = [
      { url: "https://a.test/b", title: "Plan your move to the enterprise" },
      { url: "https://a.test/a", title: "Enterprise plan pricing" }
    ]
    expect(urls(rankLinks(links, "enterprise plan"))).toEqual(["/a", "/b"])
  })

  it("matches the beginning of words: auth finds authentication", () => {
    const links = [
      { url: "https://a.test/docs/billing" },
      { url: "https://a.test/docs/authentication" },
      { url: "https://a.test/docs/errors" }
    ]
    expect(urls(rankLinks(links, "auth"))).toEqual(["/docs/authentication", "/docs/billing", "/docs/errors"])
  })

  it("descriptions count, for less than titles", () => {
    const links = [
      { url: "https://a.test/1", description: "How to rotate an API key" },
      { url: "https://a.test/2", title: "Rotate keys" },
      { url: "https://a.test/3", title: "Changelog" }
    ]
    expect(urls(rankLinks(links, "rotate"))).toEqual(["/2", "/1", "/3"])
  })

  it("keeps discovery order among equal scores and among links matching nothing", () => {
    const links = ["/x/one", "/blog/a", "/x/two", "/blog/b", "/x/three"].map((path) => ({ url: `https://a.test${path}` }))
    expect(urls(rankLinks(links, "blog"))).toEqual(["/blog/a", "/blog/b", "/x/one", "/x/two", "/x/three"])
    expect(relevanceScores(links, "blog").map((s) => s > 0)).toEqual([false, true, false, true, false])
  })

  it("a query without words leaves the order as discovered", () => {
    const links = [{ url: "https://a.test/b" }, { url: "https://a.test/a" }]
    expect(rankLinks(links, " -- ")).toEqual(links)
  })

  it("is deterministic: the same links and query give the same order", () => {
    const links = Array.from({ length: 50 }, (_, i) => ({ url: `https://a.test/p/${i % 7}/${i}`, title: `Item ${i % 3}` }))
    expect(rankLinks(links, "item 2 p 3")).toEqual(rankLinks([...links], "item 2 p 3"))
  })
})
