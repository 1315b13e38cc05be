/**
 * The SSRF address check for the browser: a host name is resolved (every address, both
 * families) and refused when any address fails core's address policy; IP literals are judged
 * as written. Verdicts are shared for a few seconds by the page's request router and the
 * guard proxy, which ask about the same host within milliseconds of each other. The proxy
 * connects to exactly the addresses checked here; the router only decides whether Chromium may
 * send the request, so Chromium resolves again there (see the README on DNS rebinding).
 */
import { lookup as dnsLookup } from "node:dns"
import { type Cidr, checkAddress, ipLiteralOfHost } from "@gleaner/core"

export interface CheckedAddress {
  readonly address: string
  readonly family: 4 | 6
}

export type HostVerdict =
  | { readonly _tag: "Allowed"; readonly addresses: ReadonlyArray<CheckedAddress> }
  | { readonly _tag: "Refused"; readonly hostname: string; readonly address: string; readonly reason: string }
  | { readonly _tag: "Unresolved"; readonly hostname: string; readonly code: string }

export interface AddressGuard {
  readonly check: (hostname: string) => Promise<HostVerdict>
}

/** How long a verdict is reused; short, so that a changed DNS answer is seen soon. */
const ttlMs = 5_000
const maxEntries = 2_000

const familyOf = (address: string): 4 | 6 => (address.includes(":") ? 6 : 4)

const judge = (hostname: string, addresses: ReadonlyArray<CheckedAddress>, networks: ReadonlyArray<Cidr>): HostVerdict => {
  for (const { address } of addresses) {
    const verdict = checkAddress(address, networks)
    if (!verdict.allowed) return { _tag: "Refused", hostname, address, reason: verdict.reason }
  }
  return { _tag: "Allowed", addresses }
}

const resolve = (hostname: string, networks: ReadonlyArray<Cidr>): Promise<HostVerdict> => {
  const literal = ipLiteralOfHost(hostname)
  if (literal !== undefined) return Promise.resolve(judge(hostname, [{ address: literal, family: familyOf(literal) }], networks))
  return new Promise((done) =>
    dnsLookup(hostname, { all: true }, (error, found) => {
      if (error !== null) return done({ _tag: "Unresolved", hostname, code: error.code ?? "ENOTFOUND" })
      const addresses = found.map(({ address }) => ({ address, family: familyOf(address) }))
      if (addresses.length === 0) return done({ _tag: "Unresolved", hostname, code: "ENODATA" })
      done(judge(hostname, addresses, networks))
    }))
}

/** An address guard over `networks` (GLEANER_ALLOWED_NETWORKS) with a short verdict cache. */
export const makeAddressGuard = (networks: ReadonlyArray<Cidr>): AddressGuard => {
  const cache = new Map<string, { readonly expiresAt: number; readonly verdict: Promise<HostVerdict> }>()
  return {
    check: (input) => {
      const hostname = input.toLowerCase()
      const now = Date.now()
      const hit = cache.get(hostname)
      if (hit !== undefined && hit.expiresAt > now) return hit.verdict
      if (cache.size >= maxEntries) cache.clear()
      const verdict = resolve(hostname, networks)
      cache.set(hostname, { expiresAt: now + ttlMs, verdict })
      // a failed lookup is not remembered: the next request asks DNS again
      void verdict.then((v) => {
        if (v._tag === "Unresolved") cache.delete(hostname)
      })
      return verdict
    }
  }
}

/** Schemes a page may use without touching the network. */
const localSchemes = new Set(["data:", "blob:", "about:"])

export type UrlVerdict =
  | { readonly _tag: "Allowed" }
  | { readonly _tag: "Refused"; readonly reason: string }
  | { readonly _tag: "Unresolved"; readonly code: string }

/** May the page request this URL? http(s) to allowed addresses, and the local schemes. */
export const checkRequestUrl = async (guard: AddressGuard, input: string): Promise<UrlVerdict> => {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return { _tag: "Refused", reason: "invalid URL" }
  }
  if (localSchemes.has(url.protocol)) return { _tag: "Allowed" }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { _tag: "Refused", reason: `the ${url.protocol} scheme is not allowed` }
  const verdict = await guard.check(url.hostname)
  if (verdict._tag === "Allowed") return { _tag: "Allowed" }
  if (verdict._tag === "Unresolved") return { _tag: "Unresolved", code: verdict.code }
  return { _tag: "Refused", reason: verdict.reason }
}
