import { get } from "node:http"
import type { IncomingHttpHeaders } from "node:http"
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw, gunzipSync, inflateSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { articleTitle, encodedPages, fixtureDocx, fixturePdf, fixturePdfPages, fixturePng, siteLinksOf, startFixtureSite, type FixtureSite } from "../src/index.js"

interface Raw {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/** One GET with node:http: no redirects followed, no decompression. */
const raw = (url: string, headers: Record<string, string> = {}): Promise<Raw> =>
  new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on("error", reject)
    }).on("error", reject)
  })

/** Streams a compressed body through a decompressor, counting output bytes without keeping them. */
const decompressedSize = (body: Buffer, encoding: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const stream = encoding === "gzip" ? createGunzip() : encoding === "br" ? createBrotliDecompress() : createInflate()
    let total = 0
    stream.on("data", (c: Buffer) => (total += c.length))
    stream.on("end", () => resolve(total))
    stream.on("error", reject)
    stream.end(body)
  })

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ sitePages: 50, bombMegabytes: 64 })
})
afterAll(() => site.close())

describe("fixture site", () => {
  it("listens on 127.0.0.1 and lists its pages", async () => {
    expect(site.url).toBe(`http://127.0.0.1:${site.port}`)
    const home = await raw(`${site.url}/`)
    expect(home.status).toBe(200)
    expect(home.body.toString()).toContain("/article")
    expect((await raw(`${site.url}/nope`)).status).toBe(404)
  })

  it("serves the article with its chrome, metadata and media", async () => {
    const { status, headers, body } = await raw(`${site.url}/article`)
    const html = body.toString("utf8")
    expect(status).toBe(200)
    expect(headers["content-type"]).toBe("text/html; charset=utf-8")
    for (const needle of [
      `<h1>${articleTitle}</h1>`, "<nav", "<aside", "<footer", "<table>", "<thead>", 'class="language-python"', "<ol><li>",
      "srcset=", "data:image/png;base64,", "<iframe", 'property="og:title"', 'name="dc.creator"', "article:published_time",
      "application/ld+json", `href="${site.url}/site/9"`, 'href="/site/8"', 'href="https://bread.example.org/science/yeast"'
    ]) expect(html, needle).toContain(needle)
    const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ""
    expect(JSON.parse(jsonLd)).toMatchObject({ "@type": "Article", headline: articleTitle })
  })

  it("serves each encoding page with the bytes and header it claims", async () => {
    for (const [name, expected] of Object.entries(encodedPages)) {
      const { status, headers, body } = await raw(`${site.url}/encodings/${name}`)
      expect(status, name).toBe(200)
      expect(headers["content-type"], name).toBe(expected.contentType)
      const start = body[0] === 0xef ? 3 : 0
      expect(new TextDecoder(expected.charset).decode(body.subarray(start)), name).toContain(expected.text)
    }
    expect((await raw(`${site.url}/encodings/lying-header`)).body.includes(Buffer.from("Crème"))).toBe(false)
  })

  it("redirects in chains, in a loop and to anywhere", async () => {
    const first = await raw(`${site.url}/redirect/3`)
    expect(first.status).toBe(302)
    expect(first.headers.location).toBe(`${site.url}/redirect/2`)
    const second = await raw(`${site.url}/redirect/2?status=301`)
    expect([second.status, second.headers.location]).toEqual([301, "/redirect/1?status=301"])
    expect((await raw(`${site.url}/redirect/0`)).body.toString()).toContain("Redirect chain end")
    expect((await raw(`${site.url}/redirect-loop`)).headers.location).toBe("/redirect-loop")
    const anywhere = await raw(`${site.url}/redirect-to?url=${encodeURIComponent("http://169.254.169.254/latest/meta-data")}&status=307`)
    expect([anywhere.status, anywhere.headers.location]).toEqual([307, "http://169.254.169.254/latest/meta-data"])
  })

  it("answers status pages with HTML bodies", async () => {
    for (const code of [403, 404, 500]) {
      const { status, headers, body } = await raw(`${site.url}/status/${code}`)
      expect(status).toBe(code)
      expect(headers["content-type"]).toContain("text/html")
      expect(body.toString()).toContain(`<h1>${code}`)
    }
  })

  it("serves a slow page after the delay", async () => {
    const started = Date.now()
    expect((await raw(`${site.url}/slow?ms=200`)).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    expect((await raw(`${site.url}/slow?ms=50&phase=body`)).body.toString()).toContain("done after 50 ms")
  })

  it("serves bombs that are small on the wire and huge decompressed", async () => {
    for (const [path, encoding] of [["/gzip-bomb", "gzip"], ["/deflate-bomb", "deflate"], ["/brotli-bomb", "br"]] as const) {
      const { headers, body } = await raw(`${site.url}${path}`)
      expect(headers["content-encoding"], path).toBe(encoding)
      expect(body.length, path).toBeLessThan(200_000)
      expect(Number(headers["content-length"])).toBe(body.length)
      expect(await decompressedSize(body, encoding), path).toBe(64 * 1024 * 1024)
    }
  })

  it("compresses the article honestly", async () => {
    const plain = (await raw(`${site.url}/article`)).body
    expect(gunzipSync((await raw(`${site.url}/compressed/gzip`)).body)).toEqual(plain)
    expect(inflateSync((await raw(`${site.url}/compressed/deflate`)).body)).toEqual(plain)
    const rawDeflate = await raw(`${site.url}/compressed/deflate-raw`)
    expect(rawDeflate.headers["content-encoding"]).toBe("deflate")
    const inflated = await new Promise<Buffer>((resolve) => {
      const chunks: Array<Buffer> = []
      createInflateRaw().on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve(Buffer.concat(chunks))).end(rawDeflate.body)
    })
    expect(inflated).toEqual(plain)
  })

  it("streams a huge body", async () => {
    const { headers, body } = await raw(`${site.url}/huge?mb=3`)
    expect(headers["content-length"]).toBeUndefined()
    expect(body.length).toBe(3 * 1024 * 1024)
    expect((await raw(`${site.url}/huge?mb=2&length=1`)).headers["content-length"]).toBe(String(2 * 1024 * 1024))
  })

  it("serves a PDF of three pages with a correct cross-reference table", async () => {
    const { headers, body } = await raw(`${site.url}/pdf`)
    expect(headers["content-type"]).toBe("application/pdf")
    expect(body).toEqual(Buffer.from(fixturePdf()))
    const text = body.toString("latin1")
    expect(text.startsWith("%PDF-1.")).toBe(true)
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true)
    expect(text.match(/\/Type \/Page\b(?!s)/g)?.length).toBe(fixturePdfPages.length)
    const startxref = Number(/startxref\n(\d+)/.exec(text)?.[1])
    expect(text.slice(startxref, startxref + 4)).toBe("xref")
    const offsets = [...text.slice(startxref).matchAll(/(\d{10}) 00000 n/g)].map((m) => Number(m[1]))
    offsets.forEach((offset, i) => expect(text.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true))
    expect(text).toContain("(Second Page: Findings) Tj")
  })

  it("serves a DOCX (a ZIP) and a PNG", async () => {
    const docx = await raw(`${site.url}/docx`)
    expect(docx.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    expect(docx.body.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]))
    expect(docx.body).toEqual(Buffer.from(fixtureDocx()))
    expect(docx.body.toString("utf8")).toContain("word/document.xml")
    const png = await raw(`${site.url}/image.png`)
    expect(png.headers["content-type"]).toBe("image/png")
    expect(png.body.subarray(1, 4).toString()).toBe("PNG")
    expect(png.body).toEqual(Buffer.from(fixturePng()))
  })

  it("serves JSON, a page without Content-Type, a header echo and cookies", async () => {
    const json = await raw(`${site.url}/json`)
    expect(json.headers["content-type"]).toContain("application/json")
    expect(JSON.parse(json.body.toString())).toMatchObject({ ok: true })
    expect((await raw(`${site.url}/no-content-type`)).headers["content-type"]).toBeUndefined()
    const echo = JSON.parse((await raw(`${site.url}/headers`, { "user-agent": "probe/1", "accept-language": "de-CH" })).body.toString())
    expect(echo.headers).toMatchObject({ "user-agent": "probe/1", "accept-language": "de-CH" })
    const set = await raw(`${site.url}/cookies/set?flavour=rye&size=large`)
    expect([set.status, set.headers.location]).toEqual([302, "/cookies"])
    expect(set.headers["set-cookie"]).toEqual(["flavour=rye; Path=/", "size=large; Path=/"])
    const cookies = JSON.parse((await raw(`${site.url}/cookies`, { cookie: "a=1; b=2" })).body.toString())
    expect(cookies).toEqual({ cookies: { a: "1", b: "2" } })
  })

  it("generates a deterministic linked site with a sitemap and robots.txt", async () => {
    const zero = (await raw(`${site.url}/site/0`)).body.toString()
    for (const href of siteLinksOf(0, 50)) expect(zero).toContain(`href="${href}"`)
    expect(siteLinksOf(7, 50)).toEqual(siteLinksOf(7, 50))
    expect((await raw(`${site.url}/site/49`)).status).toBe(200)
    expect((await raw(`${site.url}/site/50`)).status).toBe(404)
    const sitemap = (await raw(`${site.url}/sitemap.xml`)).body.toString()
    expect(sitemap.match(/<loc>/g)?.length).toBe(50)
    expect((await raw(`${site.url}/robots.txt`)).body.toString()).toContain("Disallow: /private")
    // every page is reachable from /site/0
    const seen = new Set([0])
    const queue = [0]
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      for (const href of siteLinksOf(i, 50)) {
        const n = Number(href.slice(6))
        if (!seen.has(n)) seen.add(n), queue.push(n)
      }
    }
    expect(seen.size).toBe(50)
  })
})
