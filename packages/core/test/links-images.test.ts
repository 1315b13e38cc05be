/**
 * extractLinks and extractImages: absolute http(s) URLs of the whole page, in order, without
 * duplicates; srcset parsing that survives commas inside URLs.
 */
import { describe, expect, it } from "vitest"
import { extractImages, extractLinks, parseHtml, parseSrcset } from "@gleaner/core"

const pageUrl = "https://site.example/docs/page"

describe("extractLinks", () => {
  it("returns absolute http(s) links in page order, deduplicated, without fragments-only, javascript: or mailto:", () => {
    const document = parseHtml(`<nav><a href="/">Home</a><a href="guide">Guide</a></nav>
      <p><a href="#top">Top</a> <a href="javascript:void(0)">JS</a> <a href="mailto:x@y.z">Mail</a>
      <a href="https://other.example/a#b">Other</a> <a href="/">Home again</a> <a href="guide">Guide again</a>
      <a href="//cdn.example/file.pdf">File</a> <a>no href</a> <a href="ftp://files.example/x">FTP</a></p>
      <map><area href="/area" alt="x"></map>`)
    expect(extractLinks(document, pageUrl)).toEqual([
      "https://site.example/", "https://site.example/docs/guide", "https://other.example/a#b", "https://cdn.example/file.pdf",
      "https://site.example/area"
    ])
  })

  it("resolves against <base href>", () => {
    const document = parseHtml(`<html><head><base href="/v2/"></head><body><a href="intro">Intro</a></body></html>`)
    expect(extractLinks(document, pageUrl)).toEqual(["https://site.example/v2/intro"])
  })
})

describe("extractImages", () => {
  it("returns og:image and every <img> (largest srcset candidate, lazy sources), absolute and deduplicated", () => {
    const document = parseHtml(`<html><head><meta property="og:image" content="/social.png"></head><body>
      <img src="a.png"><img src="a.png"><img srcset="s.jpg 480w, l.jpg 1080w">
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/lazy.jpg">
      <img src="data:image/png;base64,${"A".repeat(500)}"></body></html>`)
    expect(extractImages(document, pageUrl)).toEqual([
      "https://site.example/social.png", "https://site.example/docs/a.png", "https://site.example/docs/l.jpg", "https://site.example/lazy.jpg"
    ])
  })
})

describe("parseSrcset", () => {
  it("keeps commas inside URLs and reads width and density descriptors", () => {
    expect(parseSrcset("https://i.example/w_400,h_300/a.jpg 400w, https://i.example/w_800,h_600/a.jpg 800w")).toEqual([
      { url: "https://i.example/w_400,h_300/a.jpg", size: 400, unit: "w" },
      { url: "https://i.example/w_800,h_600/a.jpg", size: 800, unit: "w" }
    ])
    expect(parseSrcset("a.png, b.png 2x")).toEqual([{ url: "a.png", size: 1, unit: "x" }, { url: "b.png", size: 2, unit: "x" }])
  })
})
