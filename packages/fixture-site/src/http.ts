/**
 * The little HTTP vocabulary the fixture pages share: a route is a path pattern and a handler,
 * and handlers answer through `send`, which sets Content-Length so clients see exact sizes.
 */
import type { IncomingMessage, ServerResponse } from "node:http"

export interface RouteContext {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  /** The request URL, absolute against the site's own origin. */
  readonly url: URL
  /** The site's origin, e.g. `http://127.0.0.1:40123`. */
  readonly base: string
  /** The capture groups of the route pattern. */
  readonly params: ReadonlyArray<string>
}

export interface Route {
  readonly pattern: RegExp
  readonly handle: (ctx: RouteContext) => void | Promise<void>
}

export const route = (pattern: RegExp, handle: Route["handle"]): Route => ({ pattern, handle })

export type Headers = Readonly<Record<string, string | ReadonlyArray<string>>>

/** Answers with a complete body; `Content-Type` is whatever the headers say (or nothing). */
export const send = (res: ServerResponse, status: number, headers: Headers, body: string | Uint8Array = ""): void => {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body
  res.writeHead(status, { ...headers, "content-length": String(bytes.byteLength) })
  res.end(bytes)
}

export const sendHtml = (res: ServerResponse, html: string, status = 200): void =>
  send(res, status, { "content-type": "text/html; charset=utf-8" }, html)

export const sendJson = (res: ServerResponse, value: unknown, status = 200): void =>
  send(res, status, { "content-type": "application/json; charset=utf-8" }, JSON.stringify(value))

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** A minimal complete HTML document. */
export const page = (title: string, body: string): string =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>${body}</body></html>\n`

/** A non-negative integer query parameter, clamped, or the default. */
export const intParam = (url: URL, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number => {
  const raw = url.searchParams.get(name)
  const value = raw === null ? Number.NaN : Number(raw)
  return Number.isInteger(value) && value >= 0 ? Math.min(value, max) : fallback
}
