/**
 * The crawl benchmark's site: N pages that look like a real site's articles (~30 KB each: a
 * `<head>` with meta tags, styles and a script, a header with navigation, an article of several
 * paragraphs with inline links, a list of related pages, a footer), served by node:http on
 * 127.0.0.1 from buffers rendered once at start, so serving costs the crawlers little.
 *
 * Page 0 is `/`; page i is `/articles/{i}/{slug}`. Links form a random but deterministic graph
 * (a seeded generator per page): every page links to the next one, so all are reachable from `/`,
 * plus ~30 related pages, the 12 section pages in the navigation and 4 footer pages, all of them
 * real pages (no 404s). Off-site links, `#` anchors and `mailto:` links are there too, as on a
 * real page, and must not be followed. `/robots.txt` allows everything; `/sitemap.xml` lists
 * every page (the benchmark crawls with the sitemap skipped).
 *
 * The server counts requests per page since the last `reset()`, so a run can be checked against
 * what the site actually served.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** A small fast seeded generator (mulberry32): the same seed gives the same page. */
const seeded = (seed: number): (() => number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const words = (
  "the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were " +
  "her she there been one all we their has would when if so no what up out more about into than them can only other " +
  "time new some could these two may first then do any like my now over such our man me even most made after also did " +
  "many before must through back years where much your way well down should because each just those people how too " +
  "little state good very make world still own see men work long get here between both life being under never day same " +
  "another know while last might us great old year off come since against go came right used take three system " +
  "network crawler archive library river mountain harbour garden engine signal market council weather station " +
  "history museum railway bridge forest village journal theory method result analysis report process measure " +
  "language culture economy science software hardware protocol server browser document channel pattern structure"
).split(" ")

const sectionNames = ["News", "World", "Science", "Technology", "Culture", "Travel", "Business", "Sport", "Opinion", "Books", "Food", "Archive"]
const footerNames = ["About us", "Contact", "Privacy", "Terms of use"]
/** Pages 1..12 are the sections of the navigation, 13..16 the footer pages. */
const firstFooterPage = 1 + sectionNames.length
const relatedLinks = 30

const pick = <A>(random: () => number, list: ReadonlyArray<A>, fallback: A): A => list[Math.floor(random() * list.length)] ?? fallback

const sentence = (random: () => number, minWords: number, maxWords: number): string => {
  const count = minWords + Math.floor(random() * (maxWords - minWords + 1))
  const parts: Array<string> = []
  for (let k = 0; k < count; k++) parts.push(pick(random, words, "word"))
  const text = parts.join(" ")
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
}

const titleOf = (i: number): string => {
  const random = seeded(i * 7919 + 17)
  if (i === 0) return "Front page"
  if (i < firstFooterPage) return sectionNames[i - 1] ?? "Section"
  if (i < firstFooterPage + footerNames.length) return footerNames[i - firstFooterPage] ?? "Footer"
  return sentence(random, 4, 8).slice(0, -1)
}

/** The path of page `i` (`/` for page 0). */
export const sitePath = (i: number): string => {
  if (i === 0) return "/"
  const slug = titleOf(i).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60)
  return `/articles/${i}/${slug}`
}

const link = (i: number, text?: string): string => `<a href="${sitePath(i)}">${text ?? titleOf(i)}</a>`

/** Inline links inside paragraphs point at pages of the graph too. */
const paragraph = (random: () => number, pages: number): string => {
  const sentences: Array<string> = []
  const count = 6 + Math.floor(random() * 5)
  for (let k = 0; k < count; k++) {
    const text = sentence(random, 10, 22)
    const roll = random()
    if (roll < 0.12) sentences.push(`${text} See ${link(Math.floor(random() * pages))} for more.`)
    else if (roll < 0.2) sentences.push(`<em>${text}</em>`)
    else if (roll < 0.26) sentences.push(`<strong>${text}</strong>`)
    else sentences.push(text)
  }
  return `<p>${sentences.join(" ")}</p>`
}

const head = (i: number, title: string, origin: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} | The Bench Gazette</title>
<meta name="description" content="${title}: an article of the bench gazette, page ${i}.">
<meta property="og:title" content="${title}"><meta property="og:type" content="article">
<meta property="og:url" content="${origin}${sitePath(i)}"><meta name="twitter:card" content="summary">
<link rel="canonical" href="${origin}${sitePath(i)}"><link rel="stylesheet" href="/static/site.css">
<link rel="icon" href="/static/favicon.ico">
<style>body{font-family:Georgia,serif;margin:0;color:#222}header,footer{background:#f4f1ea;padding:1em 2em}
nav ul{list-style:none;display:flex;gap:1em;margin:0;padding:0}article{max-width:42em;margin:2em auto;line-height:1.6}
.related{max-width:42em;margin:2em auto}.related li{margin:.3em 0}footer{font-size:.85em;color:#555}</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());
gtag("config","BENCH-${i}",{anonymize_ip:true});document.documentElement.className+=" js";</script>
</head>`

const header = (): string => `<body><header><a class="logo" href="/">The Bench Gazette</a>
<form role="search" action="https://search.example.com/"><input name="q" placeholder="Search"></form>
<nav aria-label="Sections"><ul>${sectionNames.map((_, k) => `<li>${link(k + 1)}</li>`).join("")}</ul></nav>
<a href="#main" class="skip">Skip to content</a></header>`

const footer = (): string => `<footer><nav aria-label="Site"><ul>${footerNames.map((_, k) => `<li>${link(firstFooterPage + k)}</li>`).join("")}</ul></nav>
<p>Follow us: <a href="https://social.example.com/benchgazette">Social</a> · <a href="https://video.example.org/benchgazette">Video</a>
· <a href="mailto:desk@bench.example">desk@bench.example</a></p><p>© 2026 The Bench Gazette. All rights reserved.</p></footer>
<script src="/static/app.js" defer></script></body></html>`

/** The HTML of page `i` of a site of `pages` pages (deterministic for a given i and pages). */
export const renderSitePage = (i: number, pages: number, origin: string): string => {
  const random = seeded(i * 2654435761 + pages)
  const title = titleOf(i)
  const sections: Array<string> = []
  const paragraphs = 25 + Math.floor(random() * 7)
  for (let k = 0; k < paragraphs; k++) {
    if (k > 0 && k % 5 === 0) sections.push(`<h2>${sentence(random, 3, 6).slice(0, -1)}</h2>`)
    sections.push(paragraph(random, pages))
  }
  const related = new Set<number>([(i + 1) % pages])
  while (related.size < Math.min(relatedLinks, pages - 1)) related.add(Math.floor(random() * pages))
  related.delete(i)
  const date = new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 2000) * 86_400_000).toISOString().slice(0, 10)
  return `${head(i, title, origin)}
${header()}
<main id="main"><article><h1>${title}</h1>
<p class="byline">By ${pick(random, ["A. Writer", "B. Reporter", "C. Editor", "D. Columnist"], "Staff")} · <time datetime="${date}">${date}</time></p>
${sections.join("\n")}
<p><a href="#main">Back to top</a> · <a href="https://archive.example.net/${i}">Elsewhere</a></p></article>
<aside class="related"><h2>Related</h2><ul>${[...related].map((r) => `<li>${link(r)}</li>`).join("")}</ul></aside></main>
${footer()}`
}

/** Requests the site answered since the last reset. */
export interface SiteStats {
  readonly requests: number
  /** Distinct pages served with 200 (each of the N counts once however often it was fetched). */
  readonly distinctPages: number
  /** Page requests beyond the first per page. */
  readonly repeatedPages: number
  readonly notFound: number
  readonly robots: number
  readonly sitemap: number
  readonly pageBytes: number
}

export interface CrawlSite {
  readonly origin: string
  readonly pages: number
  /** Mean size of a page, in bytes. */
  readonly meanPageBytes: number
  readonly stats: () => SiteStats
  readonly reset: () => void
  readonly close: () => Promise<void>
}

const robotsTxt = (origin: string): string => `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`

const sitemapXml = (origin: string, pages: number): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
    Array.from({ length: pages }, (_, i) => `<url><loc>${origin}${sitePath(i)}</loc></url>`).join("\n")}\n</urlset>\n`

const send = (res: ServerResponse, status: number, type: string, body: Buffer): void => {
  res.writeHead(status, { "content-type": type, "content-length": body.length, "cache-control": "max-age=60" })
  res.end(body)
}

/** Renders every page, then listens on a free port of 127.0.0.1. */
export const startCrawlSite = async (options: { readonly pages: number; readonly port?: number }): Promise<CrawlSite> => {
  const { pages } = options
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve())
  })
  server.keepAliveTimeout = 30_000
  const address: AddressInfo | string | null = server.address()
  if (address === null || typeof address === "string") throw new Error("the site server has no TCP address")
  const origin = `http://127.0.0.1:${address.port}`
  const bodies = Array.from({ length: pages }, (_, i) => Buffer.from(renderSitePage(i, pages, origin)))
  const byPath = new Map(bodies.map((_, i) => [sitePath(i), i]))
  const robots = Buffer.from(robotsTxt(origin))
  const sitemap = Buffer.from(sitemapXml(origin, pages))
  const notFoundPage = Buffer.from("<!doctype html><title>Not found</title><h1>Not found</h1>")
  const hits = new Uint32Array(pages)
  const counters = { requests: 0, notFound: 0, robots: 0, sitemap: 0, pageBytes: 0 }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    counters.requests += 1
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    const index = byPath.get(path)
    const body = index === undefined ? undefined : bodies[index]
    if (index !== undefined && body !== undefined) {
      hits[index] = (hits[index] ?? 0) + 1
      counters.pageBytes += body.length
      return send(res, 200, "text/html; charset=utf-8", body)
    }
    if (path === "/robots.txt") {
      counters.robots += 1
      return send(res, 200, "text/plain; charset=utf-8", robots)
    }
    if (path === "/sitemap.xml") {
      counters.sitemap += 1
      return send(res, 200, "application/xml", sitemap)
    }
    counters.notFound += 1
    send(res, 404, "text/html; charset=utf-8", notFoundPage)
  })

  const stats = (): SiteStats => {
    let distinctPages = 0
    let pageRequests = 0
    for (const count of hits) {
      if (count > 0) distinctPages += 1
      pageRequests += count
    }
    return { ...counters, distinctPages, repeatedPages: pageRequests - distinctPages }
  }
  const reset = (): void => {
    hits.fill(0)
    Object.assign(counters, { requests: 0, notFound: 0, robots: 0, sitemap: 0, pageBytes: 0 })
  }
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  const meanPageBytes = Math.round(bodies.reduce((sum, body) => sum + body.length, 0) / pages)
  return { origin, pages, meanPageBytes, stats, reset, close }
}
