/**
 * The SSRF address policy: which IP addresses Gleaner may connect to on a user's behalf. Every
 * hop (page, redirect, browser sub-request, webhook) is checked after DNS resolution against one
 * table of special-purpose ranges; loopback, private, link-local, metadata and other
 * non-global addresses are refused unless the operator exempts a range with
 * GLEANER_ALLOWED_NETWORKS. Pure: strings in, verdicts out; the adapters do the resolving.
 *
 * Addresses embedding an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) are judged by the IPv4 address inside, so `::ffff:127.0.0.1` is loopback.
 */

export type IpFamily = 4 | 6

export interface IpAddress {
  readonly family: IpFamily
  /** The address as an unsigned integer of 32 (IPv4) or 128 (IPv6) bits. */
  readonly value: bigint
}

export interface Cidr {
  readonly family: IpFamily
  /** The network address (host bits cleared). */
  readonly base: bigint
  readonly prefix: number
}

export type AddressClass =
  | "unspecified"
  | "loopback"
  | "private"
  | "shared"
  | "link-local"
  | "cloud-metadata"
  | "unique-local"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved"

export type AddressVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly addressClass: AddressClass | "invalid"; readonly reason: string }

export type UrlShapeVerdict =
  | { readonly allowed: true; readonly url: URL }
  | { readonly allowed: false; readonly reason: string }

// --- Parsing ------------------------------------------------------------------------------

const bits = (family: IpFamily): number => (family === 4 ? 32 : 128)

/** Strict dotted-quad IPv4: four decimal parts 0–255 without leading zeros (no octal, no hex). */
const parseIpv4 = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined
    value = (value << 8n) | BigInt(part)
  }
  return value
}

/** The 16-bit groups of one side of a `::`; a dotted IPv4 tail counts as two groups. */
const groupsOf = (side: string, mayEndInIpv4: boolean): Array<number> | undefined => {
  if (side === "") return []
  const pieces = side.split(":")
  const groups: Array<number> = []
  for (const [i, piece] of pieces.entries()) {
    if (piece.includes(".") && mayEndInIpv4 && i === pieces.length - 1) {
      const v4 = parseIpv4(piece)
      if (v4 === undefined) return undefined
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn))
    } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
      groups.push(parseInt(piece, 16))
    } else {
      return undefined
    }
  }
  return groups
}

/** IPv6 in any RFC 4291 text form; brackets and a zone id (`%eth0`) are accepted and dropped. */
const parseIpv6 = (input: string): bigint | undefined => {
  const unbracketed = input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input
  const text = unbracketed.split("%")[0] ?? ""
  const sides = text.split("::")
  if (sides.length > 2) return undefined
  const head = groupsOf(sides[0] ?? "", sides.length === 1)
  const tail = sides.length === 2 ? groupsOf(sides[1] ?? "", true) : []
  if (head === undefined || tail === undefined) return undefined
  const missing = 8 - head.length - tail.length
  if (sides.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array<number>(sides.length === 1 ? 0 : missing).fill(0), ...tail]
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(group), 0n)
}

/** Parses an IPv4 or IPv6 address in canonical text form; `undefined` for anything else. */
export const parseIp = (text: string): IpAddress | undefined => {
  const v4 = parseIpv4(text)
  if (v4 !== undefined) return { family: 4, value: v4 }
  const v6 = text.includes(":") ? parseIpv6(text) : undefined
  return v6 === undefined ? undefined : { family: 6, value: v6 }
}

/** True when the text is an IP address (a URL host written as an IP literal, brackets allowed). */
export const isIpLiteral = (text: string): boolean => parseIp(text) !== undefined

/** Parses `a.b.c.d/n` or `x::y/n`; a bare address is a single-host network. Host bits are cleared. */
export const parseCidr = (text: string): Cidr | undefined => {
  const [addressText = "", prefixText, ...rest] = text.trim().split("/")
  if (rest.length > 0) return undefined
  const ip = parseIp(addressText)
  if (ip === undefined) return undefined
  const width = bits(ip.family)
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined
  const prefix = prefixText === undefined ? width : Number(prefixText)
  if (prefix > width) return undefined
  return { family: ip.family, base: ip.value & maskOf(ip.family, prefix), prefix }
}

/** Parses a list of CIDR ranges, returning the ranges and the entries that did not parse. */
export const parseCidrList = (
  list: ReadonlyArray<string>
): { readonly networks: ReadonlyArray<Cidr>; readonly invalid: ReadonlyArray<string> } => {
  const networks: Array<Cidr> = []
  const invalid: Array<string> = []
  for (const entry of list) {
    const cidr = parseCidr(entry)
    if (cidr === undefined) invalid.push(entry)
    else networks.push(cidr)
  }
  return { networks, invalid }
}

const maskOf = (family: IpFamily, prefix: number): bigint => {
  const width = BigInt(bits(family))
  const all = (1n << width) - 1n
  return (all >> BigInt(prefix)) ^ all
}

export const cidrContains = (cidr: Cidr, ip: IpAddress): boolean =>
  cidr.family === ip.family && (ip.value & maskOf(ip.family, cidr.prefix)) === cidr.base

// --- Classification -----------------------------------------------------------------------

interface SpecialRange {
  readonly cidr: Cidr
  readonly addressClass: AddressClass
  readonly description: string
}

const builtin = (text: string): Cidr => {
  const cidr = parseCidr(text)
  if (cidr === undefined) throw new Error(`bad built-in range ${text}`)
  return cidr
}

const range = (text: string, addressClass: AddressClass, description: string): SpecialRange =>
  ({ cidr: builtin(text), addressClass, description })

/** Special-purpose ranges (IANA registries, RFC 6890 and successors); most specific first. */
const specialRanges: ReadonlyArray<SpecialRange> = [
  range("169.254.169.254/32", "cloud-metadata", "a cloud metadata address"),
  range("100.100.100.200/32", "cloud-metadata", "a cloud metadata address"),
  range("192.0.0.192/32", "cloud-metadata", "a cloud metadata address"),
  range("255.255.255.255/32", "broadcast", "the broadcast address"),
  range("0.0.0.0/8", "unspecified", "an unspecified (\"this network\") address"),
  range("10.0.0.0/8", "private", "a private (RFC 1918) address"),
  range("100.64.0.0/10", "shared", "a carrier-grade NAT (shared, RFC 6598) address"),
  range("127.0.0.0/8", "loopback", "a loopback address"),
  range("169.254.0.0/16", "link-local", "a link-local address"),
  range("172.16.0.0/12", "private", "a private (RFC 1918) address"),
  range("192.0.0.0/24", "reserved", "an IETF protocol assignment address"),
  range("192.0.2.0/24", "documentation", "a documentation address"),
  range("192.88.99.0/24", "reserved", "a 6to4 relay anycast address"),
  range("192.168.0.0/16", "private", "a private (RFC 1918) address"),
  range("198.18.0.0/15", "benchmarking", "a benchmarking address"),
  range("198.51.100.0/24", "documentation", "a documentation address"),
  range("203.0.113.0/24", "documentation", "a documentation address"),
  range("224.0.0.0/4", "multicast", "a multicast address"),
  range("240.0.0.0/4", "reserved", "a reserved (future use) address"),
  range("::/128", "unspecified", "the unspecified address"),
  range("::1/128", "loopback", "a loopback address"),
  range("::/96", "reserved", "a deprecated IPv4-compatible address"),
  range("64:ff9b:1::/48", "private", "a local-use NAT64 address"),
  range("100::/64", "reserved", "a discard-only address"),
  range("2001::/32", "reserved", "a Teredo tunnelling address"),
  range("2001:2::/48", "benchmarking", "a benchmarking address"),
  range("2001:db8::/32", "documentation", "a documentation address"),
  range("3fff::/20", "documentation", "a documentation address"),
  range("fd00:ec2::254/128", "cloud-metadata", "a cloud metadata address"),
  range("fc00::/7", "unique-local", "a unique-local (private) address"),
  range("fe80::/10", "link-local", "a link-local address"),
  range("fec0::/10", "private", "a deprecated site-local address"),
  range("ff00::/8", "multicast", "a multicast address")
]

const v4 = (value: bigint): IpAddress => ({ family: 4, value: value & 0xffffffffn })
const ipv4Mapped = builtin("::ffff:0:0/96")
const embeddings: ReadonlyArray<{ readonly cidr: Cidr; readonly extract: (value: bigint) => IpAddress }> = [
  { cidr: ipv4Mapped, extract: v4 },
  { cidr: builtin("64:ff9b::/96"), extract: v4 },
  { cidr: builtin("2002::/16"), extract: (value) => v4(value >> 80n) }
]

/** The IPv4 address an IPv6 address stands for (IPv4-mapped, NAT64, 6to4), if any. */
export const embeddedIpv4 = (ip: IpAddress): IpAddress | undefined => {
  if (ip.family === 4) return undefined
  const found = embeddings.find((e) => cidrContains(e.cidr, ip))
  return found === undefined ? undefined : found.extract(ip.value)
}

const specialRangeOf = (ip: IpAddress): SpecialRange | undefined => {
  const inner = embeddedIpv4(ip)
  return specialRanges.find((r) => cidrContains(r.cidr, inner ?? ip))
}

/** The class of a non-global address, or `undefined` for a globally routable one. */
export const classifyAddress = (ip: IpAddress): AddressClass | undefined => specialRangeOf(ip)?.addressClass

// --- Decisions ----------------------------------------------------------------------------

const isExempt = (ip: IpAddress, allowed: ReadonlyArray<Cidr>): boolean => {
  const mapped = cidrContains(ipv4Mapped, ip) ? v4(ip.value) : undefined
  return allowed.some((cidr) => cidrContains(cidr, ip) || (mapped !== undefined && cidrContains(cidr, mapped)))
}

/**
 * May Gleaner connect to this address? `allowedNetworks` (GLEANER_ALLOWED_NETWORKS) exempts
 * every address it covers, of any class; entries that do not parse exempt nothing. An IPv4
 * range also exempts the IPv4-mapped IPv6 form of its addresses.
 */
export const checkAddress = (address: string, allowedNetworks: ReadonlyArray<string | Cidr>): AddressVerdict => {
  const ip = parseIp(address)
  if (ip === undefined) return { allowed: false, addressClass: "invalid", reason: `${address} is not an IP address` }
  const special = specialRangeOf(ip)
  if (special === undefined) return { allowed: true }
  const networks = allowedNetworks.flatMap((n) => {
    const cidr = typeof n === "string" ? parseCidr(n) : n
    return cidr === undefined ? [] : [cidr]
  })
  if (isExempt(ip, networks)) return { allowed: true }
  return { allowed: false, addressClass: special.addressClass, reason: `${address} is ${special.description}` }
}

/**
 * The URL checks that need no DNS: it parses, its scheme is http or https, and it carries no
 * credentials. URLs with `user:password@` are refused because the credentials would be copied
 * into job records, logs and cached documents; send an Authorization header instead.
 * Numeric host forms (`0x7f000001`, `2130706433`, `127.1`) are normalised to dotted IPv4 by the
 * WHATWG URL parser, so the address check sees `127.0.0.1`.
 */
export const checkUrlShape = (input: string | URL): UrlShapeVerdict => {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return { allowed: false, reason: "Invalid URL" }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { allowed: false, reason: `URL uses unsupported protocol (${url.protocol}); only http and https are allowed` }
  }
  if (url.username !== "" || url.password !== "") {
    return {
      allowed: false,
      reason: "URLs with embedded credentials (user:password@) are not accepted; send an Authorization header instead"
    }
  }
  if (url.hostname === "") return { allowed: false, reason: "Invalid URL: no host" }
  return { allowed: true, url }
}

/** The IP address a URL host names directly (`[::1]` → `::1`), or `undefined` for a DNS name. */
export const ipLiteralOfHost = (hostname: string): string | undefined => {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  return parseIp(bare) === undefined ? undefined : bare
}
