/**
 * cleanDocument: noise removal, includeTags/excludeTags, absolute link and image URLs (srcset,
 * lazy attributes, <base href>), base64 images, ad blocking and <noscript> handling.
 */
import { describe, expect, it } from "vitest"
import { type CleanOptions, cleanDocument, parseHtml } from "@gleaner/core"

const base: CleanOptions = {
  baseUrl: "https://shop.example/blog/post.html",
  onlyMainContent: false,
  removeBase64Images: true,
  blockAds: true
}

const clean = (body: string, options: Partial<CleanOptions> = {}, head = "") =>
  cleanDocument(parseHtml(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`), { ...base, ...options })

describe("cleanDocument", () => {
  it("removes scripts, styles, templates, inline SVG and comments", () => {
    const root = clean(`<p>Text<!-- note --></p><script>x()</script><style>p{}</style><template><p>t</p></template><svg><title>icon</title></svg>`)
    expect(root.innerHTML).toBe("<p>Text</p>")
  })

  it("keeps only the elements matching includeTags, outermost first, in page order", () => {
    const root = clean(`<div class="a"><p>one</p><p class="b">nested</p></div><p>two</p><p class="b">three</p>`, { includeTags: [".b", ".a"] })
    expect(root.children.map((e) => e.textContent)).toEqual(["onenested", "three"])
  })

  it("removes the elements matching excludeTags, iframes included, and ignores invalid selectors", () => {
    const root = clean(`<p>keep</p><div class="promo">drop</div><iframe src="https://video.example/v"></iframe>`, {
      excludeTags: [".promo", "iframe", "[[[not a selector"]
    })
    expect(root.innerHTML).toBe("<p>keep</p>")
  })

  it("makes link targets absolute and drops javascript: links' targets", () => {
    const root = clean(`<a href="../about">About</a><a href="#top">Top</a><a href="javascript:void(0)">Menu</a><a href="mailto:a@b.c">Mail</a>`)
    expect(root.querySelectorAll("a").map((a) => a.getAttribute("href"))).toEqual([
      "https://shop.example/about", "https://shop.example/blog/post.html#top", null, "mailto:a@b.c"
    ])
  })

  it("resolves against <base href>", () => {
    const root = clean(`<a href="x">x</a>`, {}, `<base href="https://cdn.example/site/">`)
    expect(root.querySelector("a")?.getAttribute("href")).toBe("https://cdn.example/site/x")
  })

  it("picks the largest srcset candidate, a lazy-load source and a picture source", () => {
    const root = clean([
      `<img id="a" src="small.jpg" srcset="small.jpg 320w, https://img.example/c_fill,w_1600/big.jpg 1600w, mid.jpg 800w">`,
      `<img id="b" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/lazy/real.png" alt="real">`,
      `<img id="c" srcset="one.png 1x, two.png 2x">`,
      `<picture><source srcset="wide.webp 1200w, narrow.webp 600w"><img id="d"></picture>`
    ].join(""))
    const src = (id: string) => root.querySelector(`#${id}`)?.getAttribute("src")
    expect(src("a")).toBe("https://img.example/c_fill,w_1600/big.jpg")
    expect(src("b")).toBe("https://shop.example/lazy/real.png")
    expect(src("c")).toBe("https://shop.example/blog/two.png")
    expect(src("d")).toBe("https://shop.example/blog/wide.webp")
    expect(root.querySelector("#a")?.hasAttribute("srcset")).toBe(false)
  })

  it("replaces inline base64 images by their alt text when asked", () => {
    const image = `data:image/png;base64,${"iVBORw0KGgo".repeat(60)}`
    const body = `<p>Chart: <img src="${image}" alt="sales by month"><img src="${image}"></p>`
    expect(clean(body).innerHTML).toBe("<p>Chart: sales by month</p>")
    expect(clean(body, { removeBase64Images: false }).querySelectorAll("img").length).toBe(2)
  })

  it("blocks ad slots, sponsored widgets, ad-network iframes, ad click links and tracking pixels", () => {
    const body = [
      `<p>Story</p>`,
      `<div class="ad-slot top-ad">Advertisement</div>`,
      `<div id="div-gpt-ad-123">gpt</div>`,
      `<ins class="adsbygoogle" data-ad-client="ca-pub-1"></ins>`,
      `<div class="sponsored-content"><a href="/x">Sponsored story</a></div>`,
      `<iframe src="https://tpc.googlesyndication.com/safeframe/1"></iframe>`,
      `<a href="https://adclick.g.doubleclick.net/pcs/click?x=1">Buy now</a>`,
      `<img src="https://stats.example/p.gif" width="1" height="1">`,
      `<div class="adContainer">camel</div>`,
      `<div class="address">12 Harbour Road</div>`,
      `<div class="header-shadow">kept</div>`
    ].join("")
    const root = clean(body)
    expect(root.textContent).toBe("Story12 Harbour Roadkept")
    expect(clean(body, { blockAds: false }).textContent).toContain("Advertisement")
  })

  it("spares a content block whose class mentions ads but holds prose", () => {
    const prose = "A long paragraph of real article text that merely sits in a container with an unlucky class name. "
    const root = clean(`<div class="article-body has-ads"><p>${prose.repeat(8)}</p></div>`)
    expect(root.textContent).toContain("unlucky class name")
  })

  it("drops short <noscript> fallbacks and keeps a <noscript> that holds the page", () => {
    const post = "This is the crawler view of a thread, served inside noscript by script-rendered forums. ".repeat(3)
    const root = clean(`<noscript><img src="/pixel.gif"></noscript><noscript>Please enable JavaScript.</noscript><noscript><div class="post"><p>${post}</p></div></noscript>`)
    expect(root.querySelector("noscript")).toBeNull()
    expect(root.querySelector(".post p")?.textContent).toContain("crawler view")
    expect(root.textContent).not.toContain("enable JavaScript")
  })

  it("narrows to the main content when onlyMainContent is set", () => {
    const prose = "The main story goes on for a while, with commas, clauses and full stops, as stories do. "
    const root = clean(`<nav><a href="/a">A</a> <a href="/b">B</a></nav><article><p>${prose.repeat(4)}</p><p>${prose.repeat(4)}</p></article><footer>Footer</footer>`, { onlyMainContent: true })
    expect(root.textContent).toContain("The main story")
    expect(root.textContent).not.toContain("Footer")
  })
})
