/**
 * Small utility pages: `/status/{code}` (an HTML error page with that status), `/slow?ms=`
 * (waits before the headers, or with `phase=body` after the first bytes of the body),
 * `/no-content-type`, `/json`, `/headers` (echoes the request as JSON), `/cookies` (echoes
 * the cookies received) and `/cookies/set?name=value` (sets them, then redirects to `/cookies`).
 */
import { escapeHtml, intParam, page, route, send, sendHtml, sendJson } from "../http.js"

const reasons: Readonly<Record<number, string>> = {
  400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
  429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"
}

const statusPage = (code: number): string => {
  const reason = reasons[code] ?? "Status"
  return page(`${code} ${reason}`, `<h1>${code} ${escapeHtml(reason)}</h1><p>The fixture site answered ${code} on purpose.</p>`)
}

const parseCookies = (header: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (header ?? "").split(";").flatMap((part) => {
      const eq = part.indexOf("=")
      return eq > 0 ? [[part.slice(0, eq).trim(), part.slice(eq + 1).trim()]] : []
    })
  )

export const miscRoutes = [
  route(/^\/status\/([1-5]\d\d)$/, ({ res, params }) => {
    const code = Number(params[0])
    if (code < 200 || code === 204 || code === 304) return send(res, code < 200 ? 200 : code, {})
    sendHtml(res, statusPage(code), code)
  }),
  route(/^\/slow$/, ({ res, url }) => {
    const ms = intParam(url, "ms", 1000, 600_000)
    const inBody = url.searchParams.get("phase") === "body"
    if (inBody) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      res.write("<!doctype html><html><body><p>Slow start")
    }
    const timer = setTimeout(() => {
      if (inBody) res.end(`, done after ${ms} ms</p></body></html>`)
      else sendHtml(res, page("Slow page", `<p>Answered after ${ms} ms</p>`))
    }, ms)
    res.on("close", () => clearTimeout(timer))
  }),
  route(/^\/no-content-type$/, ({ res }) => send(res, 200, {}, page("No content type", "<p>This page has no Content-Type header.</p>"))),
  route(/^\/json$/, ({ res }) => sendJson(res, { ok: true, name: "fixture", items: [1, 2, 3], nested: { text: "héllo" } })),
  route(/^\/headers$/, ({ req, res }) => sendJson(res, { method: req.method, url: req.url, headers: req.headers })),
  route(/^\/cookies$/, ({ req, res }) => sendJson(res, { cookies: parseCookies(req.headers.cookie) })),
  route(/^\/cookies\/set$/, ({ res, url }) => {
    const cookies = [...url.searchParams].map(([name, value]) => `${name}=${encodeURIComponent(value)}; Path=/`)
    send(res, 302, { location: "/cookies", "set-cookie": cookies }, "")
  })
]
