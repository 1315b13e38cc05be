/**
 * @gleaner/fixture-site — a real HTTP server on 127.0.0.1 serving pages we wrote ourselves, so
 * scrape, crawl and fetch tests never touch the internet. `startFixtureSite()` listens on a free
 * port; `/` lists every page. Tests only: nothing here is part of Gleaner.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { page, type Route, sendHtml } from "./http.js"
import { articleRoutes } from "./pages/article.js"
import { docxRoutes } from "./pages/docx.js"
import { encodingRoutes } from "./pages/encodings.js"
import { largeRoutes } from "./pages/large.js"
import { miscRoutes } from "./pages/misc.js"
import { pdfRoutes } from "./pages/pdf.js"
import { pngRoutes } from "./pages/png.js"
import { redirectRoutes } from "./pages/redirects.js"
import { siteRoutes } from "./pages/site.js"

export { articleHtml, articleTitle } from "./pages/article.js"
export { docxMimeType, fixtureDocx } from "./pages/docx.js"
export { encodedPages } from "./pages/encodings.js"
export { type ForwardProxy, type ForwardProxyOptions, type ProxyHit, startForwardProxy } from "./forward-proxy.js"
export { makeBomb } from "./pages/large.js"
export { buildPdf, fixturePdf, fixturePdfPages, type PdfPage } from "./pages/pdf.js"
export { fixturePng, fixturePngBase64 } from "./pages/png.js"
export { siteLinksOf } from "./pages/site.js"
export { type ReceivedMail, type SmtpTestServer, startSmtpServer } from "./smtp-server.js"

export interface FixtureSiteOptions {
  /** Pages of the generated `/site/{i}` graph. Default 600. */
  readonly sitePages?: number
  /** Decompressed size of the bomb pages, in MB. Default 128. */
  readonly bombMegabytes?: number
}

export interface FixtureSite {
  /** The origin, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly url: string
  readonly port: number
  readonly close: () => Promise<void>
}

const indexPage = (routes: ReadonlyArray<Route>): string =>
  page("Gleaner fixture site", `<h1>Gleaner fixture site</h1><ul>${routes.map((r) => `<li><code>${r.pattern.source}</code></li>`).join("")}</ul>
<p><a href="/article">Article</a> · <a href="/site/0">Generated site</a> · <a href="/pdf">PDF</a></p>`)

const dispatch = (routes: ReadonlyArray<Route>, origin: () => string) => (req: IncomingMessage, res: ServerResponse): void => {
  const base = origin()
  const url = new URL(req.url ?? "/", base)
  if (url.pathname === "/") return sendHtml(res, indexPage(routes))
  for (const r of routes) {
    const match = r.pattern.exec(url.pathname)
    if (match === null) continue
    const params = match.slice(1).map((p) => p ?? "")
    Promise.resolve()
      .then(() => r.handle({ req, res, url, base, params }))
      .catch((error: unknown) => {
        if (!res.headersSent) sendHtml(res, page("Error", `<h1>Fixture error</h1><pre>${String(error)}</pre>`), 500)
        else res.destroy()
      })
    return
  }
  sendHtml(res, page("Not found", "<h1>404 Not Found</h1><p>The fixture site has no such page.</p>"), 404)
}

/** Starts the fixture site on 127.0.0.1 and a free port. */
export const startFixtureSite = async (options: FixtureSiteOptions = {}): Promise<FixtureSite> => {
  const routes: ReadonlyArray<Route> = [
    ...articleRoutes,
    ...encodingRoutes,
    ...redirectRoutes,
    ...miscRoutes,
    ...largeRoutes(options.bombMegabytes ?? 128),
    ...pdfRoutes,
    ...docxRoutes,
    ...pngRoutes,
    ...siteRoutes(options.sitePages ?? 600)
  ]
  let origin = ""
  const server = createServer(dispatch(routes, () => origin))
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the fixture site is not listening on TCP")
  const { port } = address
  origin = `http://127.0.0.1:${port}`
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error === undefined ? resolve() : reject(error)))
      server.closeAllConnections()
    })
  return { url: origin, port, close }
}
