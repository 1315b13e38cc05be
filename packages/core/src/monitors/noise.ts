/**
 * Noise control for monitors: the form two versions of a page are compared in, so a page whose
 * content did not change is never reported `changed`. Deterministic and idempotent
 * (normalising twice gives the same text), applied to both sides alike, and the diff is made of
 * the normalised texts, so noise never shows in a diff either.
 *
 * Removed before comparing:
 * - formatting: what `normalizeForComparison` removes (line endings, repeated spaces, blank runs);
 * - in URLs: tracking parameters (`utm_*`, `fbclid`, `gclid`, …), cache-busting parameters
 *   (`cb`, `_`, `v`/`t`/`ts`/… holding a number or hash, any epoch timestamp), the order of the
 *   rest, and fingerprint hashes in asset names (`app.3f2a9c1b.js` → `app.js`);
 * - rotating tokens anywhere: UUIDs, JWTs, long hex strings, long random-looking strings mixing
 *   letters and digits, and the values of session, CSRF, nonce and token parameters — each becomes
 *   the placeholder `⟨token⟩`;
 * - lines matching one of the monitor's ignore patterns (tested against the line after formatting
 *   is normalised and before tokens are replaced, so a pattern can name what the page shows).
 *
 * What stays: words, prices, short numbers, dates in the text, ids in paths and ordinary query
 * parameters (`?id=12345`), link targets and link text. A token must be long and mix letters with
 * digits, so long words, CamelCase names and SKUs such as `ABC-123` are left alone.
 */
import { compareJsonFields, normalizeForComparison } from "../transform/formats/change-tracking.js"
import { type GitDiff, unifiedDiff } from "../transform/formats/unified-diff.js"

export interface NoiseRules {
  /** Lines matching any of these are left out of the comparison. */
  readonly excludePatterns: ReadonlyArray<RegExp>
}

export const noNoiseRules: NoiseRules = { excludePatterns: [] }

const maxPatterns = 50
const maxPatternLength = 500
/** A group with a quantifier inside, itself quantified: `(a+)+`, `(\w*)*`, `(x|y+){2,}`. */
const nestedQuantifier = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]/

/** Compiles the monitor's ignore patterns; the index and a message for the first that does not compile. */
export const compileNoiseRules = (input: { readonly excludePatterns?: ReadonlyArray<string> }):
  | { readonly ok: true; readonly rules: NoiseRules }
  | { readonly ok: false; readonly index: number; readonly message: string } => {
  const sources = input.excludePatterns ?? []
  if (sources.length > maxPatterns) return { ok: false, index: maxPatterns, message: `At most ${maxPatterns} ignore patterns` }
  const excludePatterns: Array<RegExp> = []
  for (const [index, source] of sources.entries()) {
    if (source.length > maxPatternLength) return { ok: false, index, message: `Ignore pattern ${index} is longer than ${maxPatternLength} characters` }
    if (nestedQuantifier.test(source)) {
      return { ok: false, index, message: `Ignore pattern "${source}" nests a quantifier inside a quantified group, which can take exponential time; simplify it` }
    }
    try {
      excludePatterns.push(new RegExp(source))
    } catch (error) {
      return { ok: false, index, message: `Ignore pattern "${source}" is not a regular expression: ${error instanceof Error ? error.message : String(error)}` }
    }
  }
  return { ok: true, rules: { excludePatterns } }
}

export const TOKEN = "⟨token⟩"

const trackingParams = new Set([
  "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid", "_ga", "_gl",
  "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsctatracking", "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id",
  "vero_conv", "rb_clickid", "s_cid", "ref_src", "spm", "scid", "_openstat", "twclid", "ttclid", "li_fat_id", "epik"
])
const cacheBusters = new Set(["_", "cb", "cachebust", "cache_bust", "cachebuster", "nocache", "rand", "random", "bust"])
const versionLike = new Set(["v", "ver", "version", "t", "ts", "timestamp", "time", "_t", "_ts", "rev", "hash", "h"])
const secretParams = /^(?:jsessionid|phpsessid|aspsessionid\w*|sid|sessionid|session_id|session|csrf\w*|xsrf\w*|_csrf\w*|authenticity_token|nonce|token|_token|state|sig|signature|expires|x-amz-[\w-]+|x-goog-[\w-]+)$/i

const epoch = /^\d{10}(?:\d{3})?$/
const hashy = /^(?=.*\d)[0-9a-z]{6,}$/i

/** True when a query parameter is tracking or cache-busting noise. */
const isNoiseParam = (name: string, value: string): boolean => {
  const key = name.toLowerCase()
  if (key.startsWith("utm_") || trackingParams.has(key) || cacheBusters.has(key)) return true
  if (epoch.test(value)) return true
  return versionLike.has(key) && (/^\d+$/.test(value) || hashy.test(value))
}

const assetExtensions = "js|mjs|css|png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|otf|eot|map|json|mp4|webm"
/** `name.<hash>.ext`, `name-<hash>.ext`, `name_<hash>.ext` with 8+ hex characters. */
const fingerprint = new RegExp(`([./_-])[0-9a-f]{8,}(?=\\.(?:${assetExtensions})(?:$|[?#]))`, "gi")

/** A URL without its noise; text that is not an absolute or root-relative URL is returned as it is. */
const cleanUrl = (raw: string): string => {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw)
  if (!absolute && !raw.startsWith("/")) return raw
  let url: URL
  try {
    url = new URL(raw, "http://relative.invalid")
  } catch {
    return raw
  }
  const kept = [...url.searchParams.entries()]
    .filter(([name, value]) => !isNoiseParam(name, value))
    .map(([name, value]) => [name, secretParams.test(name) ? TOKEN : value] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
  const query = kept.map(([name, value]) => `${encodeURIComponent(name)}=${value === TOKEN ? TOKEN : encodeURIComponent(value)}`).join("&")
  // path parameters such as ;jsessionid=…
  const path = url.pathname.replace(/;(jsessionid|phpsessid|sid)=[^/;?#]*/gi, `;$1=${TOKEN}`).replace(fingerprint, "")
  const rest = `${path}${query === "" ? "" : `?${query}`}${url.hash}`
  return absolute ? `${url.protocol}//${url.host}${rest}` : rest
}

/** Markdown link and image targets, autolinks, and bare URLs. */
const linkTarget = /(\]\()(<?)([^)\s>]+)(>?)((?:\s+"[^"]*")?\))/g
const autolink = /<((?:https?|ftp):\/\/[^>\s]+)>/gi
const bareUrl = /(^|[\s("'=])((?:https?):\/\/[^\s)<>\]"']+)/gi

const cleanUrls = (line: string): string =>
  line
    .replace(linkTarget, (_m, open: string, lt: string, target: string, gt: string, close: string) => `${open}${lt}${cleanUrl(target)}${gt}${close}`)
    .replace(autolink, (_m, url: string) => `<${cleanUrl(url)}>`)
    .replace(bareUrl, (_m, lead: string, url: string) => `${lead}${cleanUrl(url)}`)

const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi
const jwt = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g
const longHex = /\b[0-9a-f]{16,}\b/gi
/** 20+ characters of base64/base64url alphabet: a token only when it mixes lower, upper and digits. */
const candidate = /[A-Za-z0-9_\-+/]{20,}={0,2}/g
const secretValue = /\b(jsessionid|phpsessid|sid|session_?id|csrf[_-]?token|xsrf[_-]?token|authenticity_token|nonce|token)=([^\s&;"'<>)]+)/gi

const looksRandom = (s: string): boolean => /[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s) && !/^[A-Za-z]+\d*$/.test(s)

/** Replaces rotating tokens in a line with the placeholder. */
const maskTokens = (line: string): string =>
  line
    .replace(jwt, TOKEN)
    .replace(uuid, TOKEN)
    .replace(secretValue, (_m, name: string) => `${name}=${TOKEN}`)
    .replace(longHex, (hex) => (/\d/.test(hex) && /[a-f]/i.test(hex) ? TOKEN : hex))
    .replace(candidate, (s) => (looksRandom(s) ? TOKEN : s))

/** The text two versions of a page are compared in (see the module comment). */
export const normalizeForMonitor = (markdown: string, rules: NoiseRules): string =>
  normalizeForComparison(
    normalizeForComparison(markdown)
      .split("\n")
      .filter((line) => !rules.excludePatterns.some((pattern) => pattern.test(line)))
      .map((line) => maskTokens(cleanUrls(line)))
      .join("\n")
  )

export interface MonitorComparison {
  readonly status: "new" | "same" | "changed"
  /** The unified diff of the normalised markdown, when it differs. */
  readonly diff?: GitDiff
  /** Changed fields of the extracted JSON (json mode), when any. */
  readonly jsonDiff?: Record<string, { previous: unknown; current: unknown }>
  /** Lines only in the current version and only in the previous one (all lines of a new page). */
  readonly changedLines: { readonly added: ReadonlyArray<string>; readonly removed: ReadonlyArray<string> }
}

const lineSet = (text: string) => new Set(text.split("\n").filter((l) => l.trim() !== ""))

/** Compares a page with its previous version after noise control; `same` whenever only noise differs. */
export const compareForMonitor = (
  previous: { readonly markdown: string; readonly json?: unknown } | undefined,
  current: { readonly markdown: string; readonly json?: unknown },
  options: { readonly rules: NoiseRules; readonly jsonMode: boolean }
): MonitorComparison => {
  const after = normalizeForMonitor(current.markdown, options.rules)
  if (previous === undefined) {
    return { status: "new", changedLines: { added: after.split("\n").filter((l) => l.trim() !== ""), removed: [] } }
  }
  const before = normalizeForMonitor(previous.markdown, options.rules)
  const jsonDiff = options.jsonMode ? compareJsonFields(previous.json, current.json) : {}
  const jsonChanged = Object.keys(jsonDiff).length > 0
  if (before === after && !jsonChanged) return { status: "same", changedLines: { added: [], removed: [] } }
  const beforeLines = lineSet(before)
  const afterLines = lineSet(after)
  const diff = before === after ? undefined : unifiedDiff(before, after)
  return {
    status: "changed",
    ...(diff === undefined ? {} : { diff }),
    ...(jsonChanged ? { jsonDiff } : {}),
    changedLines: {
      added: [...afterLines].filter((l) => !beforeLines.has(l)),
      removed: [...beforeLines].filter((l) => !afterLines.has(l))
    }
  }
}
