/**
 * The list part of `threatProtection` (API.md §2.2): decides from a URL alone whether a request's
 * policy lets Gleaner fetch it. Hosts are normalised the way the URL parser does it (lower case,
 * punycode, integer and hex IPv4 forms, trailing dot) for both the URL and the list entries, so
 * another spelling of an address cannot slip past a list. Upstream's classifier (Google Web Risk,
 * `riskScoreThreshold`, `failurePolicy`) has no local equivalent; `mode: "normal"` here means
 * "apply the lists", and the caller says in a warning that no reputation scan ran.
 *
 * Matching rules, as upstream documents them for its policy:
 * - `mode: "off"` performs no check at all; `"normal"` or no mode applies the lists.
 * - The whitelist wins over every other rule.
 * - A plain entry `example.com` matches that host and every subdomain of it; a glob matches by
 *   pattern, `*` standing for one or more characters (`*.example.com` matches `a.example.com` and
 *   `a.b.example.com`, not `example.com`). Entries may be written as URLs; only the host counts.
 * - A blocked TLD (`zip`, `.zip`, `co.uk`) matches at label boundaries: `x.zip` but not `xzip.com`.
 */

/** The list options of `threatProtection`; other upstream fields are the caller's concern. */
export interface ThreatProtectionOptions {
  /** `"off"` skips every check. Default: the lists apply. */
  readonly mode?: "off" | "normal"
  /** Hosts or globs that are always refused (unless whitelisted). */
  readonly blacklist?: ReadonlyArray<string>
  /** Hosts or globs that are always allowed; wins over the blacklist and blocked TLDs. */
  readonly whitelist?: ReadonlyArray<string>
  /** Top-level (or multi-label public) suffixes refused outright, e.g. `zip`, `co.uk`. */
  readonly blockedTlds?: ReadonlyArray<string>
}

export type ThreatProtectionVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string }

type HostMatcher = (host: string) => boolean

/** The normalised host of a URL or bare host, or undefined when it does not parse. */
export const normalizeHost = (input: string): string | undefined => {
  const trimmed = input.trim()
  if (trimmed === "") return undefined
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`
  try {
    const host = new URL(withScheme).hostname.toLowerCase()
    return host.endsWith(".") ? host.slice(0, -1) : host
  } catch {
    return undefined
  }
}

const escapeRegExp = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&")

const WILDCARD = "gleanerwildcard"

const globMatcher = (pattern: string): HostMatcher | undefined => {
  // `*` is not a host character, so it stands in as a plain label while the host is normalised.
  const normalized = normalizeHost(pattern.replaceAll("*", WILDCARD))
  if (normalized === undefined) return undefined
  const regex = new RegExp(`^${normalized.split(WILDCARD).map(escapeRegExp).join(".+")}$`)
  return (host) => regex.test(host)
}

const domainMatcher = (entry: string): HostMatcher | undefined => {
  if (entry.includes("*")) return globMatcher(entry)
  const domain = normalizeHost(entry)
  if (domain === undefined) return undefined
  return (host) => host === domain || host.endsWith(`.${domain}`)
}

const firstMatch = (entries: ReadonlyArray<string> | undefined, host: string): string | undefined =>
  (entries ?? []).find((entry) => domainMatcher(entry)?.(host) === true)

const blockedSuffix = (tlds: ReadonlyArray<string> | undefined, host: string): string | undefined =>
  (tlds ?? [])
    .map((tld) => tld.trim().toLowerCase().replace(/^\.+|\.+$/g, ""))
    .find((tld) => tld !== "" && (host === tld || host.endsWith(`.${tld}`)))

/** Checks a URL against the request's threat-protection lists; pure, no network. */
export const checkThreatProtection = (url: string, options: ThreatProtectionOptions): ThreatProtectionVerdict => {
  if (options.mode === "off") return { allowed: true }
  const host = normalizeHost(url)
  if (host === undefined) return { allowed: false, reason: `Threat protection could not read a host from the URL ${url}` }
  if (firstMatch(options.whitelist, host) !== undefined) return { allowed: true }
  const listed = firstMatch(options.blacklist, host)
  if (listed !== undefined) {
    return { allowed: false, reason: `The domain ${host} is blocked by the threat protection blacklist (entry "${listed}")` }
  }
  const tld = blockedSuffix(options.blockedTlds, host)
  if (tld !== undefined) {
    return { allowed: false, reason: `The top-level domain .${tld} of ${host} is blocked by threat protection` }
  }
  return { allowed: true }
}
