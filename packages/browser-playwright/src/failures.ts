/**
 * Turns what Playwright and Chromium report into Gleaner's catalogued errors, in the words the
 * undici fetcher uses for the same failures, so a user sees one vocabulary whichever engine
 * ran. Chromium names network failures `net::ERR_…` inside Playwright's message; a browser that
 * crashed or was killed shows up as a closed target.
 */
import {
  BadRequestError,
  type GleanerError,
  ScrapeDnsError,
  ScrapeSiteError,
  ScrapeSslError,
  ScrapeTimeoutError,
  ScrapeUnsupportedFileError,
  UnsafeAddressError
} from "@gleaner/core"
import { errors } from "playwright-core"

/** The first line of an error's message (Playwright appends call logs below it). */
export const firstLineOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? ""

/** The `net::ERR_…` code in a Playwright navigation error, without the prefix. */
export const netErrorOf = (error: unknown): string | undefined => /net::(ERR_[A-Z0-9_]+)/.exec(firstLineOf(error))?.[1]

export const unsafeAddressError = (hostname: string, reason: string): UnsafeAddressError =>
  new UnsafeAddressError({
    message: `Blocked ${hostname}: ${reason}. ` +
      "Private, loopback, link-local and cloud-metadata addresses are refused; an operator can exempt ranges with GLEANER_ALLOWED_NETWORKS.",
    details: { hostname }
  })

export const dnsError = (hostname: string, code: string): ScrapeDnsError =>
  new ScrapeDnsError({ message: `DNS resolution failed for hostname ${hostname}`, details: { code } })

export const badUrlError = (reason: string): BadRequestError => new BadRequestError({ message: reason })

export const crashError = (url?: string): ScrapeSiteError =>
  new ScrapeSiteError({
    message: `The browser exited while rendering ${url ?? "the page"} (it crashed or was stopped); the next render starts a new one`,
    details: { code: "BROWSER_EXITED" }
  })

const connectionCodes: Readonly<Record<string, string>> = {
  ERR_CONNECTION_REFUSED: "Connection refused",
  ERR_CONNECTION_RESET: "Connection reset",
  ERR_CONNECTION_CLOSED: "Connection closed by the server",
  ERR_CONNECTION_FAILED: "Connection failed",
  ERR_EMPTY_RESPONSE: "The server closed the connection without answering",
  ERR_ADDRESS_UNREACHABLE: "Host unreachable",
  ERR_INTERNET_DISCONNECTED: "Network unreachable",
  ERR_TOO_MANY_REDIRECTS: "Too many redirects",
  ERR_INVALID_RESPONSE: "The server answered with an invalid response",
  ERR_HTTP2_PROTOCOL_ERROR: "HTTP/2 protocol error"
}

const closedPatterns = [
  "Target page, context or browser has been closed",
  "Browser has been closed",
  "browser has disconnected",
  "Target closed",
  "Page crashed",
  "page crashed",
  "Browser closed"
]

/** True when Playwright says the page, its context or the browser is gone. */
export const isClosedError = (error: unknown): boolean => {
  const message = firstLineOf(error)
  return closedPatterns.some((p) => message.includes(p))
}

/**
 * The catalogued error for a failed navigation to `url`. Refusals and tunnel failures are
 * resolved by the caller (they need the guard's verdict); this maps everything else.
 */
export const navigationError = (error: unknown, url: URL): GleanerError => {
  if (error instanceof errors.TimeoutError) return new ScrapeTimeoutError({ message: `Loading ${url.href} timed out` })
  if (isClosedError(error)) return crashError(url.href)
  const message = firstLineOf(error)
  if (message.includes("Download is starting")) {
    return new ScrapeUnsupportedFileError({ message: `${url.href} is a file download, not a page; scrape it without the browser engine` })
  }
  const code = netErrorOf(error)
  if (code === undefined) return new ScrapeSiteError({ message: `Loading ${url.href} failed: ${message}` })
  if (code === "ERR_NAME_NOT_RESOLVED" || code === "ERR_NAME_RESOLUTION_FAILED") return dnsError(url.hostname, code)
  if (code.startsWith("ERR_CERT_") || code.startsWith("ERR_SSL_") || code === "ERR_BAD_SSL_CLIENT_AUTH_CERT") {
    return new ScrapeSslError({
      message: `TLS/SSL error connecting to ${url.host}: ${code}. If you trust the site, scrape it without the browser engine and skipTlsVerification: true.`,
      details: { code }
    })
  }
  if (code === "ERR_TIMED_OUT" || code === "ERR_CONNECTION_TIMED_OUT") {
    return new ScrapeTimeoutError({ message: `Connecting to ${url.host} timed out`, details: { code } })
  }
  const connection = connectionCodes[code]
  if (connection !== undefined) return new ScrapeSiteError({ message: `${connection}: ${url.host} (${code})`, details: { code } })
  return new ScrapeSiteError({ message: `Loading ${url.href} failed (${code})`, details: { code } })
}
