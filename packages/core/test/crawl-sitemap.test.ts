import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { maxSitemapBytes, parseSitemap, SitemapTooLargeError } from "@gleaner/core"

const utf8 = (text: string) => new TextEncoder().encode(text)
const urlset = (entries: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`

describe("urlset", () => {
  it("lists page URLs with their lastmod when present", () => {
    const xml = urlset(`
      <url><loc>https://example.com/</loc><lastmod>2024-05-01</lastmod><priority>1.0</priority></url>
      <url><loc>https://example.com/about</loc></url>`)
    expect(parseSitemap(utf8(xml))).toEqual({
      urls: [{ loc: "https://example.com/", lastmod: "2024-05-01" }, { loc: "https://example.com/about" }],
      sitemaps: []
    })
  })

  it("trims whitespace and newlines around locations", () => {
    const xml = urlset("<url>\n  <loc>\n    https://example.com/a\n  </loc>\n  <lastmod> 2024-01-02T03:04:05+00:00 </lastmod>\n</url>")
    expect(parseSitemap(xml).urls).toEqual([{ loc: "https://example.com/a", lastmod: "2024-01-02T03:04:05+00:00" }])
  })

  it("decodes XML entities, named and numeric", () => {
    const xml = urlset("<url><loc>https://example.com/?a=1&amp;b=2&#38;c=&#x33;&apos;&unknown;</loc></url>")
    expect(parseSitemap(xml).urls[0]?.loc).toBe("https://example.com/?a=1&b=2&c=3'&unknown;")
  })

  it("reads locations wrapped in CDATA as written", () => {
    const xml = urlset("<url><loc><![CDATA[https://example.com/?q=a&amp;b]]></loc></url><url><loc> <![CDATA[https://example.com/b]]> </loc></url>")
    expect(parseSitemap(xml).urls.map((u) => u.loc)).toEqual(["https://example.com/?q=a&amp;b", "https://example.com/b"])
  })

  it("understands namespace prefixes and ignores loc elements of extensions", () => {
    const xml = `<?xml version="1.0"?>
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <sm:url>
    <image:image><image:loc>https://cdn.example.com/photo.jpg</image:loc></image:image>
    <sm:loc>https://example.com/gallery</sm:loc>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/gallery"/>
  </sm:url>
  <!-- <sm:url><sm:loc>https://example.com/commented-out</sm:loc></sm:url> -->
</sm:urlset>`
    expect(parseSitemap(xml).urls).toEqual([{ loc: "https://example.com/gallery" }])
  })

  it("keeps only absolute http(s) locations", () => {
    const xml = urlset(`
      <url><loc>/relative/page</loc></url>
      <url><loc>ftp://example.com/file</loc></url>
      <url><loc>javascript:alert(1)</loc></url>
      <url><loc>http://example.com/plain</loc></url>
      <url><loc></loc></url>
      <url><lastmod>2024-01-01</lastmod></url>`)
    expect(parseSitemap(xml).urls).toEqual([{ loc: "http://example.com/plain" }])
  })

  it("stops after maxUrls entries", () => {
    const xml = urlset(Array.from({ length: 10 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join(""))
    expect(parseSitemap(xml, 3).urls.map((u) => u.loc)).toEqual(["https://example.com/0", "https://example.com/1", "https://example.com/2"])
    expect(parseSitemap(xml, 0).urls).toEqual([])
  })

  it("reads 50,000 URLs in well under a second", () => {
    const xml = urlset(Array.from({ length: 60_000 }, (_, i) => `<url><loc>https://example.com/page/${i}</loc><lastmod>2024-01-01</lastmod></url>`).join("\n"))
    const started = performance.now()
    const { urls } = parseSitemap(utf8(xml))
    expect(urls).toHaveLength(50_000)
    expect(urls[49_999]?.loc).toBe("https://example.com/page/49999")
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe("sitemapindex", () => {
  it("lists child sitemaps, not pages", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/sitemap-posts.xml.gz</loc><lastmod>2024-05-01</lastmod></sitemap>
  <sitemap><loc>https://example.com/sitemap-pages.xml</loc></sitemap>
  <sitemap><loc>sitemap-relative.xml</loc></sitemap>
</sitemapindex>`
    expect(parseSitemap(xml)).toEqual({
      urls: [],
      sitemaps: ["https://example.com/sitemap-posts.xml.gz", "https://example.com/sitemap-pages.xml"]
    })
  })
})

describe("text sitemaps", () => {
  it("reads one http(s) URL per line and skips the rest", () => {
    const text = "\uFEFFhttps://example.com/a\r\n\r\n  http://example.com/b  \n# comment\nmailto:me@example.com\n/relative\nhttps://example.com/c"
    expect(parseSitemap(utf8(text)).urls.map((u) => u.loc)).toEqual(["https://example.com/a", "http://example.com/b", "https://example.com/c"])
  })

  it("stops after maxUrls lines", () => {
    expect(parseSitemap("https://example.com/1\nhttps://example.com/2\nhttps://example.com/3", 2).urls).toHaveLength(2)
  })
})

describe("gzip", () => {
  it("inflates a gzipped sitemap, whatever it was served as", () => {
    const body = gzipSync(utf8(urlset("<url><loc>https://example.com/zipped</loc></url>")))
    expect(parseSitemap(body).urls).toEqual([{ loc: "https://example.com/zipped" }])
  })

  it("refuses a body that inflates beyond the cap instead of exhausting memory", () => {
    const bomb = gzipSync(new Uint8Array(maxSitemapBytes + 1024 * 1024), { level: 1 })
    expect(bomb.length).toBeLessThan(1024 * 1024)
    expect(() => parseSitemap(bomb)).toThrow(SitemapTooLargeError)
    expect(() => parseSitemap(bomb)).toThrow(/larger than 52428800 bytes once decompressed/)
  })

  it("yields nothing for a corrupt gzip stream", () => {
    expect(parseSitemap(Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef]))).toEqual({ urls: [], sitemaps: [] })
  })
})

describe("garbage input", () => {
  it("yields nothing rather than throwing", () => {
    const inputs: Array<Uint8Array | string> = [
      "",
      "<html><body><a href='https://example.com/'>not a sitemap</a></body></html>",
      urlset("<url><loc>https://example.com/unterminated"),
      "<urlset><url><loc><![CDATA[https://example.com/never-closed",
      "<<<>>><url><<loc>>",
      Uint8Array.from([0xff, 0xfe, 0x00, 0x80, 0x81, 0x1f])
    ]
    for (const input of inputs) expect(parseSitemap(input)).toEqual({ urls: [], sitemaps: [] })
  })

  it("keeps what was read before the document breaks off", () => {
    const xml = urlset("<url><loc>https://example.com/complete</loc></url><url><loc>https://example.com/cut").slice(0, -"</urlset>".length)
    expect(parseSitemap(xml).urls).toEqual([{ loc: "https://example.com/complete" }])
  })
})
