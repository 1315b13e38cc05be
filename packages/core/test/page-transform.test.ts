/**
 * transformPage: one parse; metadata, links and images come from the whole page (before the page
 * is narrowed to its main content); only the outputs asked for are computed.
 */
import { describe, expect, it } from "vitest"
import { transformPage } from "@gleaner/core"

const prose = "The story itself, long enough to be prose, with commas, clauses and full stops. "
const html = `<!DOCTYPE html><html lang="en"><head><title>Story</title><meta property="og:image" content="/og.png"></head><body>
  <nav><a href="/home">Home</a> <a href="/about">About</a></nav>
  <article><h1>Story</h1><p>${prose.repeat(4)}<a href="/source">source</a></p><p>${prose.repeat(4)}</p><img src="/photo.jpg" alt="photo"></article>
  <footer><a href="/privacy">Privacy</a></footer></body></html>`

const options = {
  url: "https://example.test/news/story", sourceURL: "example.test/news/story", statusCode: 200,
  onlyMainContent: true, removeBase64Images: true, blockAds: true
}

describe("transformPage", () => {
  it("computes every output asked for: links and images of the whole page, markdown and html of the main content", () => {
    const result = transformPage(html, { ...options, want: { markdown: true, html: true, links: true, images: true } })
    expect(result.metadata).toMatchObject({ title: "Story", language: "en", url: options.url, sourceURL: options.sourceURL, statusCode: 200 })
    expect(result.links).toEqual(["https://example.test/home", "https://example.test/about", "https://example.test/source", "https://example.test/privacy"])
    expect(result.images).toEqual(["https://example.test/og.png", "https://example.test/photo.jpg"])
    expect(result.markdown).toContain("# Story")
    expect(result.markdown).toContain("[source](https://example.test/source)")
    expect(result.markdown).not.toContain("Privacy")
    expect(result.html).toContain(`src="https://example.test/photo.jpg"`)
    expect(result.html).not.toContain("Privacy")
  })

  it("computes nothing but metadata when nothing else is asked for", () => {
    const result = transformPage(html, { ...options, want: { markdown: false, html: false, links: false, images: false } })
    expect(Object.keys(result)).toEqual(["metadata"])
  })

  it("converts the whole body without onlyMainContent", () => {
    const result = transformPage(html, { ...options, onlyMainContent: false, want: { markdown: true, html: false, links: false, images: false } })
    expect(result.markdown).toContain("Privacy")
    expect(result.markdown).toContain("The story itself")
  })
})
