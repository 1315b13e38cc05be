/**
 * A generated site for crawl and map tests: `/site/{i}` for i in [0, pages), each linking to the
 * next page (so all are reachable from `/site/0`), to two pseudo-random pages chosen by a fixed
 * formula, to its parent `i/2`, back to `/site`, to a fragment of itself and to one external
 * URL; every tenth page also links to `/site/members/{i}`, which robots.txt disallows.
 * Deterministic: the same `pages` always gives the same graph. `/site` is the index,
 * `/sitemap.xml` lists every page and `/robots.txt` disallows `/private` and `/site/members`
 * and names the sitemap.
 */
import { escapeHtml, page, route, send, sendHtml } from "../http.js"

/** The paths page `i` links to, in document order (without the fragment and external links). */
export const siteLinksOf = (i: number, pages: number): ReadonlyArray<string> => {
  const targets = [(i + 1) % pages, (i * 7 + 3) % pages, (i * 13 + 5) % pages, Math.floor(i / 2)]
  return [...new Set(targets.filter((t) => t !== i))].map((t) => `/site/${t}`)
}

const sitePage = (i: number, pages: number): string => {
  const links = siteLinksOf(i, pages)
    .map((href) => `<li><a href="${href}">Page ${href.slice(6)}</a></li>`)
    .join("")
  return page(
    `Site page ${i}`,
    `<nav><a href="/site">Index</a> · <a href="#content">Skip</a></nav>
<main id="content"><h1>Site page ${i}</h1>
<p>Page ${i} of ${pages}. Its number squared is ${i * i}; its lucky word is ${escapeHtml(["apple", "birch", "cedar", "dune", "ember"][i % 5] ?? "")}.</p>
<ul>${links}</ul>${i % 10 === 0 ? `<p><a href="/site/members/${i}">Members only</a></p>` : ""}
<p>Elsewhere: <a href="https://external.example.com/from/${i}">an external page</a>.</p></main>`
  )
}

const sitemap = (base: string, pages: number): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
  Array.from({ length: pages }, (_, i) => `<url><loc>${base}/site/${i}</loc></url>`).join("\n") +
  "\n</urlset>\n"

export const siteRoutes = (pages: number) => [
  route(/^\/site\/?$/, ({ res }) => sendHtml(res, page("Site index", `<h1>Site index</h1><p><a href="/site/0">Start at page 0</a></p>`))),
  route(/^\/site\/(\d+)$/, ({ res, params }) => {
    const i = Number(params[0])
    if (i >= pages) return sendHtml(res, page("Not found", "<h1>No such page</h1>"), 404)
    sendHtml(res, sitePage(i, pages))
  }),
  route(/^\/site\/members\/(\d+)$/, ({ res }) => sendHtml(res, page("Members", "<h1>Members only</h1><p>Robots may not read this.</p>"))),
  route(/^\/private(\/.*)?$/, ({ res }) => sendHtml(res, page("Private", "<h1>Robots may not read this</h1>"))),
  route(/^\/sitemap\.xml$/, ({ res, base }) => send(res, 200, { "content-type": "application/xml" }, sitemap(base, pages))),
  route(/^\/robots\.txt$/, ({ res, base }) =>
    send(res, 200, { "content-type": "text/plain" }, `User-agent: *\nDisallow: /private\nDisallow: /site/members\n\nSitemap: ${base}/sitemap.xml\n`))
]
