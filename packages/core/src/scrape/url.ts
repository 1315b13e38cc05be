/**
 * The URL a caller sends (API.md §2.1): `http://` is added when no scheme is given; it must parse,
 * be http(s), and have a host with a top-level domain or be an IP literal. The cache key adds the
 * options that change what a fetch returns, so a mobile page never answers a desktop request.
 */
import { Either } from "effect"
import { BadRequestError } from "../errors.js"

const TLD_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}[a-z0-9]\.?$|^(?:[a-z0-9-]+\.)+xn--[a-z0-9-]+\.?$/i
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/

const bad = (message: string) => Either.left(new BadRequestError({ message, details: [{ code: "custom", path: ["url"], message }] }))

/** The request URL as it will be fetched, or a 400 with upstream's wording. */
export const normalizeRequestUrl = (input: string): Either.Either<URL, BadRequestError> => {
  const trimmed = input.trim()
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `http://${trimmed}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return bad("Invalid URL")
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return bad("URL uses unsupported protocol")
  const host = url.hostname
  const isIp = IPV4.test(host) || host.startsWith("[")
  if (!isIp && !TLD_HOST.test(host)) return bad("URL must have a valid top-level domain or be an IP address")
  return Either.right(url)
}

/** The URL without its fragment, with a lower-case host: how pages are identified. */
export const pageIdentity = (url: URL): string => {
  const copy = new URL(url.href)
  copy.hash = ""
  return copy.href
}

/** The options that change what a fetch returns, in a stable order. */
export interface FetchVariant {
  readonly mobile: boolean
  readonly headers: Readonly<Record<string, string>>
  readonly languages: ReadonlyArray<string>
  readonly stealth: boolean
  /** Rendered in the browser with `waitFor` (a different page than a plain fetch gives). */
  readonly rendered: boolean
}

export const cacheKey = (url: URL, variant: FetchVariant): string => {
  const headers = Object.entries(variant.headers)
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify([pageIdentity(url), variant.mobile, headers, variant.languages, variant.stealth, ...(variant.rendered ? ["rendered"] : [])])
}
