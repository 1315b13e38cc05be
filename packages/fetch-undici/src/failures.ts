/**
 * Turns whatever undici, node:net, node:tls, node:dns or zlib threw into one of Gleaner's
 * catalogued errors with a message a user can act on. Errors arrive wrapped (undici's `cause`,
 * Node's AggregateError when several addresses were tried), so the whole chain is searched.
 */
import {
  type GleanerError,
  ScrapeDnsError,
  ScrapeSiteError,
  ScrapeSslError,
  ScrapeTimeoutError,
  UnsafeAddressError
} from "@gleaner/core"
import { BodyLimitExceeded, UnsupportedEncoding } from "./body.js"
import { AddressRefusal } from "./guard.js"

const dnsCodes = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_NODATA", "EAI_FAIL", "ENODATA"])
const connectionCodes: Readonly<Record<string, string>> = {
  ECONNREFUSED: "Connection refused",
  ECONNRESET: "Connection reset",
  EPIPE: "Connection closed while sending",
  ETIMEDOUT: "Connection timed out",
  EHOSTUNREACH: "Host unreachable",
  ENETUNREACH: "Network unreachable",
  UND_ERR_SOCKET: "Connection closed by the server",
  UND_ERR_CLOSED: "Connection closed"
}
const timeoutCodes = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"])
const tlsCodes = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "CERT_REVOKED", "CERT_UNTRUSTED",
  "CERT_REJECTED", "ERR_TLS_CERT_ALTNAME_INVALID", "EPROTO"
])

/** The error, its causes and, for AggregateErrors, the errors inside; breadth first. */
const chainOf = (error: unknown): ReadonlyArray<unknown> => {
  const seen: Array<unknown> = []
  const queue: Array<unknown> = [error]
  while (queue.length > 0 && seen.length < 16) {
    const next = queue.shift()
    if (next === undefined || next === null || seen.includes(next)) continue
    seen.push(next)
    if (next instanceof AggregateError) queue.push(...next.errors)
    if (next instanceof Error) queue.push(next.cause)
  }
  return seen
}

const codeOf = (error: unknown): string | undefined => {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined
  return typeof error.code === "string" ? error.code : undefined
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const find = <A>(chain: ReadonlyArray<unknown>, guard: (e: unknown) => e is A): A | undefined => chain.find(guard)

/** zlib (`Z_DATA_ERROR` …) and brotli (`ERR_BROTLI_…`, `ERR__ERROR_FORMAT_…`) decoding failures. */
const isDecoding = (code: string): boolean => code.startsWith("Z_") || code.includes("BROTLI") || code.startsWith("ERR__ERROR")

const isTls = (code: string): boolean => tlsCodes.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_") || code.startsWith("CERT_")

export const unsafeAddressError = (refusal: AddressRefusal): UnsafeAddressError =>
  new UnsafeAddressError({
    message:
      `${refusal.hostname === refusal.address ? "Blocked" : `Blocked ${refusal.hostname}`}: ${refusal.reason}. ` +
      "Private, loopback, link-local and cloud-metadata addresses are refused; an operator can exempt ranges with GLEANER_ALLOWED_NETWORKS.",
    details: { hostname: refusal.hostname, address: refusal.address }
  })

const bodyLimitError = (e: BodyLimitExceeded): ScrapeSiteError =>
  new ScrapeSiteError({
    message: e.stage === "wire"
      ? `Response body is larger than the limit of ${e.maxBytes} bytes (maxBodyBytes)`
      : `Response body is larger than the limit of ${e.maxBytes} bytes once decompressed (maxBodyBytes)`
  })

/** The catalogued error for a failed request to `url`. */
export const toGleanerError = (error: unknown, url: URL): GleanerError => {
  const chain = chainOf(error)
  const refusal = find(chain, (e): e is AddressRefusal => e instanceof AddressRefusal)
  if (refusal !== undefined) return unsafeAddressError(refusal)
  const limit = find(chain, (e): e is BodyLimitExceeded => e instanceof BodyLimitExceeded)
  if (limit !== undefined) return bodyLimitError(limit)
  const unsupported = find(chain, (e): e is UnsupportedEncoding => e instanceof UnsupportedEncoding)
  if (unsupported !== undefined) return new ScrapeSiteError({ message: `The server answered with an unsupported Content-Encoding: ${unsupported.encoding}` })
  const host = url.host
  for (const e of chain) {
    const code = codeOf(e)
    if (code === undefined) continue
    if (dnsCodes.has(code)) return new ScrapeDnsError({ message: `DNS resolution failed for hostname ${url.hostname}`, details: { code } })
    if (isTls(code)) {
      return new ScrapeSslError({
        message: `TLS/SSL error connecting to ${host}: ${messageOf(e)} (${code}). If you trust the site, retry with skipTlsVerification: true.`,
        details: { code }
      })
    }
    if (timeoutCodes.has(code)) return new ScrapeTimeoutError({ message: `${code === "UND_ERR_CONNECT_TIMEOUT" ? "Connecting to" : "Waiting for"} ${host} timed out`, details: { code } })
    const connection = connectionCodes[code]
    if (connection !== undefined) return new ScrapeSiteError({ message: `${connection}: ${host} (${code})`, details: { code } })
    if (isDecoding(code)) return new ScrapeSiteError({ message: `Could not decompress the response from ${host}: ${messageOf(e)}`, details: { code } })
  }
  const code = chain.map(codeOf).find((c) => c !== undefined)
  return new ScrapeSiteError({ message: `Request to ${url.href} failed: ${messageOf(error)}${code === undefined ? "" : ` (${code})`}` })
}
