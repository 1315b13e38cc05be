/**
 * Crawl options from a plain-English request, without an LLM: the honest fallback for a crawl's
 * `prompt` and for `POST /v2/crawl/params-preview` when no model is configured (API.md Part A §1,
 * §3.6). It recognises a small, predictable set of phrasings — page counts, depth, paths to keep
 * or skip, subdomains, external links, the whole domain, sitemap use, query strings and a delay —
 * and reports each thing it understood so the caller can say so in a `warning`. Anything else is
 * ignored: unknown text gives no options rather than a guess.
 *
 * A bare path with no cue ("crawl /docs") is kept; a full URL needs one ("only https://…/docs"),
 * since a prompt often restates the start URL. Each rule blanks out the text it consumed, so
 * "wait 2 seconds between pages" is a delay and not a page count, and "/v2 pages" is a path and
 * not a limit of 2.
 */

/** The crawl options a prompt can set; absent keys were not mentioned. */
export interface PromptCrawlOptions {
  /** Regexes over the pathname, one per path the prompt asked to keep. */
  readonly includePaths?: ReadonlyArray<string>
  /** Regexes over the pathname, one per path the prompt asked to skip. */
  readonly excludePaths?: ReadonlyArray<string>
  /** Most pages to crawl. */
  readonly limit?: number
  /** Most link hops from the start URL. */
  readonly maxDiscoveryDepth?: number
  readonly crawlEntireDomain?: boolean
  readonly allowSubdomains?: boolean
  readonly allowExternalLinks?: boolean
  readonly ignoreQueryParameters?: boolean
  readonly sitemap?: "skip" | "include" | "only"
  /** Seconds between requests (0 < delay ≤ 60, as the API allows). */
  readonly delay?: number
}

export interface PromptParams {
  readonly options: PromptCrawlOptions
  /** What was recognised, in words, in a fixed order. */
  readonly understood: ReadonlyArray<string>
}

type Draft = { -readonly [K in keyof PromptCrawlOptions]: PromptCrawlOptions[K] }

const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
  "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

/** Number words up to ninety-nine, and "a/one hundred|thousand", as digits. */
const wordsToDigits = (text: string): string =>
  text
    .replace(/\b(?:a|one)\s+(hundred|thousand)\b/gi, (_, scale: string) => (scale.toLowerCase() === "hundred" ? "100" : "1000"))
    .replace(new RegExp(`\\b(${TENS.slice(2).join("|")})(?:[- ](${UNITS.slice(1, 10).join("|")}))?\\b`, "gi"), (_, tens: string, unit?: string) =>
      String(TENS.indexOf(tens.toLowerCase()) * 10 + (unit === undefined ? 0 : UNITS.indexOf(unit.toLowerCase()))))
    .replace(new RegExp(`\\b(${UNITS.join("|")})\\b`, "gi"), (word: string) => String(UNITS.indexOf(word.toLowerCase())))

/** A prompt being read: rules consume what they recognise by blanking it (indexes stay put). */
class Reading {
  constructor(public text: string) {}

  /** The first match of `re`, consumed; or undefined. */
  take(re: RegExp): RegExpExecArray | undefined {
    const match = new RegExp(re.source, re.flags.includes("i") ? "i" : "").exec(this.text)
    if (match === null) return undefined
    this.text = this.text.slice(0, match.index) + " ".repeat(match[0].length) + this.text.slice(match.index + match[0].length)
    return match
  }
}

const NEGATION = /\b(?:no|not|don't|dont|do not|never|without|exclude|excluding|skip|skipping|avoid|ignore|ignoring|disallow)\b(?:\s+(?!and\b|but\b|then\b|also\b)[\w']+){0,3}\s*$/i

/** Whether the words just before `index` (in the same clause) negate what follows. */
const negatedAt = (text: string, index: number): boolean => {
  const before = text.slice(0, index).split(/[.;,!?\n]/).pop() ?? ""
  return NEGATION.test(before)
}

/** A yes/no flag the prompt mentions: true, false when negated, undefined when absent. */
const flag = (reading: Reading, re: RegExp): boolean | undefined => {
  const match = reading.take(re)
  return match === undefined ? undefined : !negatedAt(reading.text, match.index)
}

const readSitemap = (reading: Reading): Draft["sitemap"] => {
  if (reading.take(/\b(?:skip|skipping|ignore|ignoring|without|no|don't use|do not use|not use|avoid)\s+(?:the\s+|any\s+)?sitemaps?\b/i)) return "skip"
  if (reading.take(/\bsitemaps?\s+only\b|\b(?:only|just|solely|exclusively)\s+(?:\w+\s+){0,3}?(?:the\s+)?sitemaps?\b/i)) return "only"
  if (reading.take(/\b(?:use|using|include|including|with|from)\s+(?:the\s+)?sitemaps?\b/i)) return "include"
  return undefined
}

const readFlags = (reading: Reading, draft: Draft): void => {
  const sitemap = readSitemap(reading)
  if (sitemap !== undefined) draft.sitemap = sitemap
  const query = reading.take(/\b(?:ignore|ignoring|strip|stripping|drop|dropping|remove|without|disregard)\s+(?:the\s+|all\s+|any\s+)?(?:url\s+)?(?:query\s*(?:strings?|param(?:eter)?s?)|url\s+param(?:eter)?s?|search\s+params?)/i)
  if (query !== undefined) draft.ignoreQueryParameters = true
  const subdomains = flag(reading, /\bsub-?domains?\b/i)
  if (subdomains !== undefined) draft.allowSubdomains = subdomains
  const external = flag(reading, /\b(?:external|outside|outbound|off-site|offsite|third-party)\s+(?:links?|sites?|domains?|pages?)\b|\bother\s+(?:web)?(?:sites|domains)\b/i)
  if (external !== undefined) draft.allowExternalLinks = external
  else if (reading.take(/\bstay\s+on\s+(?:the\s+)?(?:same\s+)?(?:web)?(?:site|domain)\b|\bsame[- ]domain\s+only\b/i)) draft.allowExternalLinks = false
  if (reading.take(/\b(?:entire|whole|full|complete)\s+(?:web\s*)?(?:site|domain)\b|\bcrawl\s*entire\s*domain\b|\ball\s+(?:of\s+)?the\s+(?:web)?site\b|\beverything\s+on\s+the\s+(?:web)?site\b/i)) {
    draft.crawlEntireDomain = true
  }
}

const readNumbers = (reading: Reading, draft: Draft): void => {
  const delay = reading.take(/\b(?:delay|wait|pause)(?:\s+(?:of|for|is))?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)\b/i) ??
    reading.take(/\b(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)\s+(?:delay|between|apart|pause)\b/i)
  const seconds = Number(delay?.[1])
  if (seconds > 0 && seconds <= 60) draft.delay = seconds

  const depth = reading.take(/\b(?:max(?:imum)?\s+)?(?:crawl\s+|discovery\s+|link\s+)?depth(?:\s+(?:limit|of|to|is|at))*\s*[:=]?\s*(\d+)\b/i) ??
    reading.take(/\b(\d+)\s+(?:levels?|hops?|layers?)\b(?:\s+(?:deep|down))?/i) ??
    reading.take(/\b(\d+)\s+(?:clicks?|links?)?\s*(?:deep|away|down)\b/i)
  const hops = Number(depth?.[1])
  if (Number.isInteger(hops) && hops >= 0) draft.maxDiscoveryDepth = hops

  const count = reading.take(/\b(\d{1,3}(?:,\d{3})+|\d+)\s+(?:[a-z-]+\s+){0,2}?(?:pages?|urls?|documents?|docs|results?|links?)\b/i) ??
    reading.take(/\b(?:limit|max(?:imum)?|cap|at most|up to|no more than)(?:\s+(?:of|to|at|is))?\s*[:=]?\s*(\d{1,3}(?:,\d{3})+|\d+)\b/i)
  const pages = Number(count?.[1]?.replace(/,/g, ""))
  if (Number.isInteger(pages) && pages > 0) draft.limit = pages
}

const INCLUDE_CUE = String.raw`only|just|solely|exclusively|include|including|includes|restrict(?:ed)?(?:\s+it)?\s+to|limit(?:ed)?(?:\s+it)?\s+to|focus(?:ed)?\s+on|stay\s+(?:in|within|under)`
const EXCLUDE_CUE = String.raw`(?:don't|dont|do\s+not|never)(?:\s+(?:include|crawl|scrape|follow|visit|go|into|to|want|need|fetch|index|get|touch))*|exclude|excluding|except|skip|skipping|ignore|ignoring|avoid|avoiding|omit|omitting|without|not|no|leave\s+out`
const CUE = new RegExp(String.raw`\b(?:(${EXCLUDE_CUE})|(${INCLUDE_CUE}))\b`, "gi")
const PATH = /\bhttps?:\/\/[^\s/]+(\/[^\s,;]*)|(?<![\w./:-])(\/[\w.~%*+-]+(?:\/[\w.~%*+-]+)*\/?)/gi

/** `/blog`, `/blog/` or `/blog/*` → a regex for `/blog` and everything below it; `*` inside is one segment. */
export const pathPrefixRegex = (path: string): string => {
  const trimmed = path.replace(/\/\*$/, "").replace(/\/+$/, "")
  const escaped = trimmed.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")
  return `^${escaped}(/|$)`
}

/** Whether the last cue before `index` in its clause asks to skip (true), to keep (false), or none. */
const cueBefore = (text: string, index: number): boolean | undefined => {
  const clause = text.slice(0, index).split(/[.;!?](?=\s|$)|\n/).pop() ?? ""
  let skip: boolean | undefined
  for (const match of clause.matchAll(CUE)) skip = match[1] !== undefined
  return skip
}

const readPaths = (reading: Reading): { readonly include: ReadonlyArray<string>; readonly exclude: ReadonlyArray<string> } => {
  const include: Array<string> = []
  const exclude: Array<string> = []
  for (const match of [...reading.text.matchAll(PATH)]) {
    const raw = (match[1] ?? match[2] ?? "").replace(/[?#].*$/, "").replace(/[.,:)'"]+$/, "")
    const cue = cueBefore(reading.text, match.index)
    // A full URL with no cue is most likely the start URL restated, not a filter.
    const filter = raw !== "" && raw !== "/" && !/sitemap/i.test(raw) && (cue !== undefined || match[1] === undefined)
    const target = cue === true ? exclude : include
    if (filter && !target.includes(raw)) target.push(raw)
    reading.text = reading.text.slice(0, match.index) + " ".repeat(match[0].length) + reading.text.slice(match.index + match[0].length)
  }
  return { include, exclude }
}

const summarise = (options: Draft, include: ReadonlyArray<string>, exclude: ReadonlyArray<string>): Array<string> => {
  const said: Array<string> = []
  if (options.limit !== undefined) said.push(`at most ${options.limit} page${options.limit === 1 ? "" : "s"}`)
  if (options.maxDiscoveryDepth !== undefined) said.push(`at most ${options.maxDiscoveryDepth} link hop${options.maxDiscoveryDepth === 1 ? "" : "s"} from the start page`)
  if (include.length > 0) said.push(`only pages under ${include.join(", ")}`)
  if (exclude.length > 0) said.push(`skip pages under ${exclude.join(", ")}`)
  if (options.crawlEntireDomain === true) said.push("the entire domain, not only below the start path")
  if (options.allowSubdomains !== undefined) said.push(options.allowSubdomains ? "include subdomains" : "no subdomains")
  if (options.allowExternalLinks !== undefined) said.push(options.allowExternalLinks ? "follow external links" : "stay on the site")
  if (options.sitemap !== undefined) said.push({ only: "only URLs from the sitemap", skip: "skip the sitemap", include: "use the sitemap" }[options.sitemap])
  if (options.ignoreQueryParameters === true) said.push("ignore query parameters")
  if (options.delay !== undefined) said.push(`wait ${options.delay} second${options.delay === 1 ? "" : "s"} between requests`)
  return said
}

/** The crawl options a plain-English prompt asks for, and what was understood, in words. */
export const paramsFromPrompt = (prompt: string): PromptParams => {
  const reading = new Reading(wordsToDigits(prompt.replace(/[\u2018\u2019]/g, "'")))
  const draft: Draft = {}
  const paths = readPaths(reading)
  if (paths.include.length > 0) draft.includePaths = paths.include.map(pathPrefixRegex)
  if (paths.exclude.length > 0) draft.excludePaths = paths.exclude.map(pathPrefixRegex)
  readFlags(reading, draft)
  readNumbers(reading, draft)
  return { options: draft, understood: summarise(draft, paths.include, paths.exclude) }
}
