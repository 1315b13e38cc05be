/**
 * robots.txt as RFC 9309 reads it: `parseRobots` turns the text into groups of rules once per
 * crawl, `robotsRules` picks (and compiles) the group that speaks to our user agent, and
 * `isAllowed` answers for each URL with the longest matching pattern, Allow winning a tie.
 * Parsing is tolerant, as the RFC asks: a BOM, CRLF, comments, unknown lines and a few common
 * spellings (`useragent`, `crawl delay`) are accepted; only the first 500 KiB are read.
 *
 * What the fetch of `/robots.txt` means is the caller's business, and RFC 9309 §2.3.1 says how:
 * - 2xx: parse the body (after following up to five redirects);
 * - 4xx ("unavailable", 401 and 403 included): crawl as if there were no robots.txt —
 *   `robotsAllowAll`;
 * - 5xx, or no answer at all ("unreachable"): crawl nothing — `robotsDisallowAll` (after 30 days
 *   of that a crawler may treat the file as unavailable or keep a cached copy);
 * - a parsed file may be cached for up to 24 hours.
 */

/** How much of a robots.txt is read (RFC 9309 §2.5 asks for at least 500 KiB); the rest is ignored. */
export const maxRobotsBytes = 500 * 1024

export interface RobotsRule {
  readonly allow: boolean
  /** The path pattern, percent-encoding normalised; may hold `*` and a trailing `$`. */
  readonly pattern: string
}

export interface RobotsGroup {
  /** Lower-case product tokens of the group's `User-agent` lines; `*` for the catch-all group. */
  readonly userAgents: ReadonlyArray<string>
  readonly rules: ReadonlyArray<RobotsRule>
  /** The group's `Crawl-delay`, in seconds (not in the RFC, but widely honoured). */
  readonly crawlDelaySeconds?: number
}

export interface Robots {
  readonly groups: ReadonlyArray<RobotsGroup>
  /** Absolute http(s) URLs of `Sitemap:` lines, wherever they stand, without duplicates. */
  readonly sitemaps: ReadonlyArray<string>
}

/** A rule compiled for matching: the pattern cut at its `*`s, and whether it ends in `$`. */
export interface RobotsMatcher {
  readonly allow: boolean
  /** Octets in the normalised pattern: the longest matching pattern decides. */
  readonly length: number
  readonly segments: ReadonlyArray<string>
  readonly anchored: boolean
}

/** The rules for one user agent, most specific first. */
export interface RobotsRules {
  readonly matchers: ReadonlyArray<RobotsMatcher>
  readonly crawlDelaySeconds?: number
}

/** What a crawler may do when robots.txt answered 4xx: everything. */
export const robotsAllowAll: RobotsRules = { matchers: [] }

/** What a crawler may do when robots.txt answered 5xx or not at all: nothing but robots.txt. */
export const robotsDisallowAll: RobotsRules = { matchers: [{ allow: false, length: 1, segments: ["/"], anchored: false }] }

const encoder = new TextEncoder()

const percentEncode = (char: string): string =>
  Array.from(encoder.encode(char), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("")

/**
 * One spelling for paths and patterns (RFC 9309 §2.2.2): escapes of unreserved characters are
 * decoded (`%7E` is `~`), other escapes get upper-case hex, and non-ASCII, spaces and controls
 * are percent-encoded as UTF-8, as a URL parser would have done to the path.
 */
const normalisePath = (raw: string): string =>
  raw.replace(/%([0-9A-Fa-f]{2})|[^\x21-\x7e]|["<>]/gu, (match, hex: string | undefined) => {
    if (hex === undefined) return percentEncode(match)
    const char = String.fromCharCode(Number.parseInt(hex, 16))
    return /^[A-Za-z0-9._~-]$/.test(char) ? char : `%${hex.toUpperCase()}`
  })

/** Field names as written in the wild, keyed by their lower-case letters alone. */
const fields: Readonly<Record<string, "user-agent" | "allow" | "disallow" | "sitemap" | "crawl-delay">> = {
  useragent: "user-agent",
  allow: "allow",
  disallow: "disallow",
  dissallow: "disallow",
  sitemap: "sitemap",
  crawldelay: "crawl-delay"
}

const fieldOf = (name: string) => {
  const key = name.toLowerCase().replace(/[\s_-]/g, "")
  return Object.hasOwn(fields, key) ? fields[key] : undefined
}

/** The text up to `maxRobotsBytes` of UTF-8, cut at the last whole line. */
const capped = (text: string): string => {
  if (text.length <= maxRobotsBytes / 3) return text
  const bytes = encoder.encode(text)
  if (bytes.length <= maxRobotsBytes) return text
  const head = new TextDecoder().decode(bytes.subarray(0, maxRobotsBytes))
  const next = bytes[maxRobotsBytes]
  if (next === 0x0a || next === 0x0d) return head
  const lastBreak = Math.max(head.lastIndexOf("\n"), head.lastIndexOf("\r"))
  return lastBreak === -1 ? "" : head.slice(0, lastBreak)
}

/** The product token of a `User-agent` value: `Googlebot/2.1` → `googlebot`. */
const groupToken = (value: string): string | undefined => {
  if (value.startsWith("*")) return "*"
  const token = /^[A-Za-z0-9_-]+/.exec(value)?.[0]
  return token === undefined ? undefined : token.toLowerCase()
}

const absoluteHttpUrl = (value: string): string | undefined => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined
  } catch {
    return undefined
  }
}

const crawlDelayOf = (value: string): number | undefined => {
  const seconds = Number.parseFloat(value)
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined
}

interface GroupBuilder {
  userAgents: Array<string>
  rules: Array<RobotsRule>
  crawlDelaySeconds?: number
}

/**
 * Parses a robots.txt. A group is one or more `User-agent` lines and the rules after them; rules
 * before any `User-agent` are ignored, as is an empty `Disallow` (which allows everything).
 */
export const parseRobots = (text: string): Robots => {
  const groups: Array<GroupBuilder> = []
  const sitemaps = new Set<string>()
  let current: GroupBuilder | undefined
  let readingAgents = false
  for (const line of capped(text).replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const hash = line.indexOf("#")
    const match = /^\s*([A-Za-z][A-Za-z _-]*?)\s*:\s*(.*?)\s*$/.exec(hash === -1 ? line : line.slice(0, hash))
    const field = match?.[1] === undefined ? undefined : fieldOf(match[1])
    const value = match?.[2] ?? ""
    if (field === "sitemap") {
      const url = absoluteHttpUrl(value)
      if (url !== undefined) sitemaps.add(url)
    } else if (field === "user-agent") {
      if (current === undefined || !readingAgents) {
        current = { userAgents: [], rules: [] }
        groups.push(current)
      }
      readingAgents = true
      const token = groupToken(value)
      if (token !== undefined && !current.userAgents.includes(token)) current.userAgents.push(token)
    } else if (field !== undefined && current !== undefined) {
      readingAgents = false
      if (field === "crawl-delay") {
        const seconds = crawlDelayOf(value)
        if (seconds !== undefined && current.crawlDelaySeconds === undefined) current.crawlDelaySeconds = seconds
      } else if (value !== "") {
        const pattern = normalisePath(value)
        current.rules.push({ allow: field === "allow", pattern: pattern.startsWith("/") || pattern.startsWith("*") ? pattern : `/${pattern}` })
      }
    }
  }
  return { groups, sitemaps: [...sitemaps] }
}

/** The sitemap URLs a robots.txt names. */
export const robotsSitemaps = (robots: Robots): ReadonlyArray<string> => robots.sitemaps

const compile = (rule: RobotsRule): RobotsMatcher => {
  const anchored = rule.pattern.endsWith("$")
  const body = anchored ? rule.pattern.slice(0, -1) : rule.pattern
  return { allow: rule.allow, length: rule.pattern.length, segments: body.split(/\*+/), anchored }
}

/**
 * The token of the group that speaks to `userAgent`: one equal to its product token (the part
 * before `/`) wins, else the longest token the agent string contains; `*` is the fallback.
 */
const chosenToken = (groups: ReadonlyArray<RobotsGroup>, userAgent: string): string | undefined => {
  const agent = userAgent.trim().toLowerCase()
  const product = /^[^/\s]*/.exec(agent)?.[0] ?? ""
  let best: string | undefined
  let bestScore = 0
  let hasCatchAll = false
  for (const token of groups.flatMap((group) => group.userAgents)) {
    if (token === "*") hasCatchAll = true
    else {
      const score = token === product ? Number.POSITIVE_INFINITY : agent.includes(token) ? token.length : 0
      if (score > bestScore) [best, bestScore] = [token, score]
    }
  }
  return best ?? (hasCatchAll ? "*" : undefined)
}

/**
 * The rules for `userAgent`, compiled once: every group under the chosen token merged (the largest
 * crawl delay among them kept), or no rules at all when no group applies.
 */
export const robotsRules = (robots: Robots, userAgent: string): RobotsRules => {
  const token = chosenToken(robots.groups, userAgent)
  if (token === undefined) return robotsAllowAll
  const groups = robots.groups.filter((group) => group.userAgents.includes(token))
  const matchers = groups
    .flatMap((group) => group.rules.map(compile))
    .sort((a, b) => b.length - a.length || Number(b.allow) - Number(a.allow))
  const delays = groups.flatMap((group) => (group.crawlDelaySeconds === undefined ? [] : [group.crawlDelaySeconds]))
  return delays.length === 0 ? { matchers } : { matchers, crawlDelaySeconds: Math.max(...delays) }
}

/** The crawl delay the chosen group asks for, in seconds, if any. */
export const crawlDelaySeconds = (rules: RobotsRules): number | undefined => rules.crawlDelaySeconds

/** Whether `path` matches: segments in order (leftmost is enough), the last at the end if anchored. */
const matchesPath = (matcher: RobotsMatcher, path: string): boolean => {
  const { segments, anchored } = matcher
  const first = segments[0] ?? ""
  if (!path.startsWith(first)) return false
  if (segments.length === 1) return !anchored || path.length === first.length
  let position = first.length
  const lastIndex = segments.length - 1
  for (let i = 1; i < lastIndex; i++) {
    const segment = segments[i] ?? ""
    const at = path.indexOf(segment, position)
    if (at === -1) return false
    position = at + segment.length
  }
  const last = segments[lastIndex] ?? ""
  return anchored ? path.length - last.length >= position && path.endsWith(last) : path.includes(last, position)
}

/**
 * Whether a URL may be fetched: its path and query (a string may be a whole URL or a path) against
 * the most specific matching rule; no match allows, and `/robots.txt` is always allowed. An
 * unparseable URL is refused.
 */
export const isAllowed = (rules: RobotsRules, url: URL | string): boolean => {
  let parsed: URL
  try {
    parsed = typeof url === "string" ? new URL(url, "http://robots.invalid/") : url
  } catch {
    return false
  }
  if (parsed.pathname === "/robots.txt") return true
  const path = normalisePath(parsed.pathname + parsed.search)
  for (const matcher of rules.matchers) if (matchesPath(matcher, path)) return matcher.allow
  return true
}
