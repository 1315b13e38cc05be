/**
 * The SSRF guard at the socket: the only place where a host name becomes an address. Names are
 * resolved here (every address, both families) and refused if any address is not allowed by
 * core's address policy; the socket then connects to exactly the addresses that were checked,
 * so a DNS answer cannot change between the check and the connect (no rebinding gap). Hosts
 * written as IP literals never reach a lookup function, so the connector checks them itself.
 * Because the check sits in the connector, every connection — first hop, redirect hop, new
 * pooled socket — is checked, and TLS still verifies the certificate against the host name.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import type { LookupFunction } from "node:net"
import { type Cidr, checkAddress, ipLiteralOfHost } from "@gleaner/core"
import type { buildConnector } from "undici"

/** Thrown inside undici when the policy refuses an address; mapped to UnsafeAddressError. */
export class AddressRefusal extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly reason: string
  ) {
    super(`${hostname}: ${reason}`)
    this.name = "AddressRefusal"
  }
}

/** The first address the policy refuses, as an AddressRefusal, or `undefined` if all pass. */
const refusalOf = (hostname: string, addresses: ReadonlyArray<LookupAddress>, networks: ReadonlyArray<Cidr>) => {
  for (const { address } of addresses) {
    const verdict = checkAddress(address, networks)
    if (!verdict.allowed) return new AddressRefusal(hostname, address, verdict.reason)
  }
  return undefined
}

/** Resolves every address of a name and checks them all; an IP literal is checked as it is. */
export const resolveChecked = (hostname: string, networks: ReadonlyArray<Cidr>): Promise<ReadonlyArray<LookupAddress>> => {
  const literal = ipLiteralOfHost(hostname)
  if (literal !== undefined) {
    const addresses = [{ address: literal, family: literal.includes(":") ? 6 : 4 }]
    const refusal = refusalOf(hostname, addresses, networks)
    return refusal === undefined ? Promise.resolve(addresses) : Promise.reject(refusal)
  }
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error !== null) return reject(error)
      const refusal = refusalOf(hostname, addresses, networks)
      if (refusal !== undefined) return reject(refusal)
      resolve(addresses)
    }))
}

/**
 * A `net.connect` lookup that answers only with checked addresses. Node asks for all addresses
 * when it races IPv4 and IPv6 (autoSelectFamily), for one otherwise.
 */
export const guardedLookup = (networks: ReadonlyArray<Cidr>): LookupFunction => (hostname, options, callback) => {
  resolveChecked(hostname, networks).then(
    (addresses) => {
      const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family
      const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses
      const first = wanted[0]
      if (options.all === true) return callback(null, [...wanted])
      if (first === undefined) return callback(Object.assign(new Error(`No IPv${family} address for ${hostname}`), { code: "ENOTFOUND" }), "")
      callback(null, first.address, first.family)
    },
    (error: NodeJS.ErrnoException) => callback(error, "")
  )
}

/** Wraps undici's connector so that IP-literal hosts, which skip the lookup, are checked too. */
export const guardedConnector = (base: buildConnector.connector, networks: ReadonlyArray<Cidr>): buildConnector.connector =>
  (options, callback) => {
    const literal = ipLiteralOfHost(options.hostname)
    const verdict = literal === undefined ? { allowed: true as const } : checkAddress(literal, networks)
    if (!verdict.allowed) return callback(new AddressRefusal(options.hostname, literal ?? options.hostname, verdict.reason), null)
    base(options, callback)
  }
