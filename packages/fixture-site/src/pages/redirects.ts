/**
 * Redirect pages: `/redirect/{n}` is a chain of n hops ending on a 200 page (odd hops use an
 * absolute Location, even hops a relative one; `?status=301|302|303|307|308`, default 302),
 * `/redirect-loop` redirects to itself forever, and `/redirect-to?url=…` sends the client
 * anywhere — including private addresses, which is what SSRF tests need.
 */
import { escapeHtml, intParam, page, route, send, sendHtml } from "../http.js"

const redirectStatuses = new Set([301, 302, 303, 307, 308])

const statusOf = (url: URL): number => {
  const status = intParam(url, "status", 302)
  return redirectStatuses.has(status) ? status : 302
}

const redirect = (res: Parameters<typeof send>[0], status: number, location: string): void =>
  send(res, status, { location, "content-type": "text/html; charset=utf-8" }, page("Moved", `<a href="${escapeHtml(location)}">moved</a>`))

export const redirectRoutes = [
  route(/^\/redirect\/(\d+)$/, ({ res, url, base, params }) => {
    const n = Number(params[0])
    if (n === 0) return sendHtml(res, page("Redirect chain end", "<h1>Redirect chain end</h1><p>You have arrived.</p>"))
    const query = url.search
    const next = `/redirect/${n - 1}${query}`
    redirect(res, statusOf(url), n % 2 === 1 ? `${base}${next}` : next)
  }),
  route(/^\/redirect-loop$/, ({ res, url }) => redirect(res, statusOf(url), "/redirect-loop")),
  route(/^\/redirect-to$/, ({ res, url }) => {
    const target = url.searchParams.get("url")
    if (target === null) return send(res, 400, { "content-type": "text/plain" }, "url parameter required")
    redirect(res, statusOf(url), target)
  })
]
