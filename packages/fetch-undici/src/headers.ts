/**
 * Request and response headers. Outgoing requests look like a desktop Chrome unless the caller
 * says otherwise (the Scraper passes mobile and location headers in `headers`); headers that
 * belong to the transport (Host, Connection, Content-Length, Accept-Encoding …) are ours, not
 * the caller's, because we must be able to frame and decode what comes back. On a redirect to
 * another site the credentials the caller gave for the first site are not forwarded.
 */
import type { IncomingHttpHeaders } from "node:http"

export const defaultUserAgent =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36"

const defaults: Readonly<Record<string, string>> = {
  "user-agent": defaultUserAgent,
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "accept-language": "en-US,en;q=0.9"
}

/** Only what `readBody` can decode. */
const acceptEncoding = "gzip, deflate, br"

const transportHeaders = new Set([
  "host", "connection", "content-length", "transfer-encoding", "keep-alive", "upgrade", "expect",
  "proxy-connection", "te", "trailer", "accept-encoding"
])

const credentialHeaders = ["authorization", "proxy-authorization", "cookie"]

/** The caller's headers (names lower-cased) over the defaults, minus transport headers. */
export const requestHeaders = (given: Readonly<Record<string, string>> | undefined): Record<string, string> => {
  const headers: Record<string, string> = { ...defaults }
  for (const [name, value] of Object.entries(given ?? {})) {
    const key = name.toLowerCase()
    if (!transportHeaders.has(key)) headers[key] = value
  }
  headers["accept-encoding"] = acceptEncoding
  return headers
}

/** Same host, or one a subdomain of the other (example.com ↔ www.example.com). */
const sameSite = (a: URL, b: URL): boolean =>
  a.hostname === b.hostname || a.hostname.endsWith(`.${b.hostname}`) || b.hostname.endsWith(`.${a.hostname}`)

/** The headers for the next hop: no body headers after a method change, no credentials off-site. */
export const headersForRedirect = (
  headers: Readonly<Record<string, string>>,
  from: URL,
  to: URL,
  bodyDropped: boolean
): Record<string, string> => {
  const next = { ...headers }
  if (bodyDropped) delete next["content-type"]
  if (!sameSite(from, to)) for (const name of credentialHeaders) delete next[name]
  return next
}

/**
 * Response headers as one string per name (repeated headers joined with `, `). When the body was
 * decompressed, Content-Encoding and Content-Length describe bytes the caller never sees, so
 * they are dropped.
 */
export const responseHeaders = (raw: IncomingHttpHeaders, decoded: boolean): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue
    if (decoded && (name === "content-encoding" || name === "content-length")) continue
    headers[name] = Array.isArray(value) ? value.join(", ") : value
  }
  return headers
}

/** The values of one header, repeated or not. */
export const headerValues = (raw: IncomingHttpHeaders, name: string): ReadonlyArray<string> => {
  const value = raw[name]
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}
