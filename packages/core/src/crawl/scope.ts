/**
 * Which discovered URLs a crawl follows, and under which key the frontier remembers them
 * (API.md §3.6). `compileScope` checks the caller's include/exclude regexes once, at kickoff, so a
 * bad pattern becomes a 400 naming it instead of a failure halfway through the crawl; the
 * compiled `CrawlScope` then answers per URL with plain functions and no I/O.
 *
 * The rules, in the order a refusal is reported:
 * - `scheme`: only http(s) is fetched;
 * - `external` / `subdomain`: the start's host (with or without `www.`) is always in; its
 *   subdomains need `allowSubdomains`; anything else needs `allowExternalLinks`;
 * - `outside-path`: without `crawlEntireDomain`, pages on the start's host must sit at or below
 *   the start's path (`/blog` and `/blog/` both mean `/blog/…`; `/` means everything). Other
 *   hosts let in by the flags above are not held to the start's path, which means nothing there;
 * - `file-type`: images, media, archives, fonts, stylesheets and scripts are not pages
 *   (PDF and office documents are: they are scraped);
 * - `exclude` / `include`: the regexes, tested against the pathname (or the whole URL without its
 *   fragment when `regexOnFullURL`); an exclude wins over an include;
 * - `depth`: more link hops from the start (depth 0) than `maxDiscoveryDepth`.
 */
import { pageIdentity } from "../scrape/url.js"

/** The crawl options that decide what is followed; names and defaults as upstream's v2 crawl. */
export interface CrawlScopeOptions {
  /** Regexes; when any is given, a URL must match at least one. Default `[]`. */
  readonly includePaths: ReadonlyArray<string>
  /** Regexes; a URL matching any is skipped, even when an include matches. Default `[]`. */
  readonly excludePaths: ReadonlyArray<string>
  /** Test the regexes against the whole URL instead of its pathname. Default `false`. */
  readonly regexOnFullURL: boolean
  /** Link hops allowed from the start URL (which is depth 0, as are sitemap URLs). Default: none. */
  readonly maxDiscoveryDepth?: number
  /** Follow siblings and parents of the start path, not only its children. Default `false`. */
  readonly crawlEntireDomain: boolean
  /** Follow subdomains of the start's host. Default `false`. */
  readonly allowSubdomains: boolean
  /** Follow links to any other host. Default `false`. */
  readonly allowExternalLinks: boolean
  /** Fetch and key URLs without their query string. Default `false`. */
  readonly ignoreQueryParameters: boolean
  /** Count www/non-www, http/https, trailing-slash and `index.*` variants as one URL. Default `true`. */
  readonly deduplicateSimilarURLs: boolean
}

/** Upstream's defaults for the scope options. */
export const defaultScopeOptions: CrawlScopeOptions = {
  includePaths: [],
  excludePaths: [],
  regexOnFullURL: false,
  crawlEntireDomain: false,
  allowSubdomains: false,
  allowExternalLinks: false,
  ignoreQueryParameters: false,
  deduplicateSimilarURLs: true
}

/** The options a caller gave, completed with the defaults. */
export const scopeOptions = (given: Partial<CrawlScopeOptions>): CrawlScopeOptions => ({ ...defaultScopeOptions, ...given })

/** Why a URL is not followed. */
export type ScopeDenial = "external" | "subdomain" | "outside-path" | "include" | "exclude" | "depth" | "scheme" | "file-type"

export type ScopeDecision = { readonly follow: true } | { readonly follow: false; readonly reason: ScopeDenial }

export interface CrawlScope {
  /** The frontier's dedupe key: two URLs with the same key are fetched once. */
  readonly key: (url: URL) => string
  /** The URL actually fetched: no fragment, and no query when `ignoreQueryParameters`. */
  readonly fetchUrl: (url: URL) => URL
  /** Whether a URL found `depth` link hops from the start is followed, and if not, why. */
  readonly decide: (url: URL, depth: number) => ScopeDecision
  /** The CRAWL_DENIAL message when the caller's include/exclude rules shut out the start URL itself. */
  readonly startDenial: () => string | undefined
}

/** A scope, or the message of the 400 that a bad regex earns (`field[index]` locates it). */
export type CompiledScope =
  | { readonly ok: true; readonly scope: CrawlScope }
  | { readonly ok: false; readonly message: string; readonly field: "includePaths" | "excludePaths"; readonly index: number }

interface Pattern {
  readonly source: string
  readonly regex: RegExp
}

const FOLLOW: ScopeDecision = { follow: true }
const deny = (reason: ScopeDenial): ScopeDecision => ({ follow: false, reason })

/** Extensions of files that are never pages; PDF, office and text documents are deliberately absent. */
const NON_PAGE_EXTENSIONS = new Set([
  "png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "ico", "bmp", "tif", "tiff", "heic",
  "mp3", "mp4", "m4a", "m4v", "wav", "ogg", "oga", "ogv", "webm", "avi", "mov", "mkv", "flac", "aac", "wmv", "flv", "mpg", "mpeg",
  "zip", "tar", "gz", "tgz", "bz2", "xz", "7z", "rar", "exe", "dmg", "msi", "apk", "iso", "deb", "rpm", "jar",
  "woff", "woff2", "ttf", "otf", "eot",
  "css", "js", "mjs", "map"
])

const INDEX_FILE = /\/index\.(?:html?|php)$/i

const bareHost = (hostname: string): string => hostname.toLowerCase().replace(/\.$/, "").replace(/^www\./, "")

/** The path without a trailing `index.*` file or trailing slashes; `""` for the root. */
const directoryOf = (pathname: string): string => pathname.replace(INDEX_FILE, "/").replace(/\/+$/, "")

const extensionOf = (pathname: string): string | undefined => {
  const last = pathname.slice(pathname.lastIndexOf("/") + 1)
  const dot = last.lastIndexOf(".")
  return dot <= 0 ? undefined : last.slice(dot + 1).toLowerCase()
}

const compilePatterns = (
  field: "includePaths" | "excludePaths",
  sources: ReadonlyArray<string>
): { readonly ok: true; readonly patterns: ReadonlyArray<Pattern> } | Extract<CompiledScope, { ok: false }> => {
  const patterns: Array<Pattern> = []
  for (const [index, source] of sources.entries()) {
    try {
      patterns.push({ source, regex: new RegExp(source) })
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return { ok: false, field, index, message: `Invalid regular expression in ${field}[${index}] "${source}": ${reason}` }
    }
  }
  return { ok: true, patterns }
}

/** The dedupe key of a URL under the given options (see `CrawlScope.key`). */
export const scopeKey = (url: URL, options: Pick<CrawlScopeOptions, "ignoreQueryParameters" | "deduplicateSimilarURLs">): string => {
  const copy = new URL(pageIdentity(url))
  if (options.ignoreQueryParameters) copy.search = ""
  else copy.searchParams.sort()
  // A bare `?` says nothing: drop it so `/a?` and `/a` are one page.
  const search = copy.searchParams.size === 0 ? "" : copy.search
  if (!options.deduplicateSimilarURLs) return `${copy.protocol}//${copy.host}${copy.pathname}${search}`
  const path = directoryOf(copy.pathname) || "/"
  const host = copy.host.replace(/^www\./, "")
  return `//${host}${path}${search}`
}

/** Compiles the scope of a crawl starting at `startUrl`, or says which regex is invalid. */
export const compileScope = (startUrl: URL, options: CrawlScopeOptions): CompiledScope => {
  const includes = compilePatterns("includePaths", options.includePaths)
  if (!includes.ok) return includes
  const excludes = compilePatterns("excludePaths", options.excludePaths)
  if (!excludes.ok) return excludes

  const startHost = bareHost(startUrl.hostname)
  const startDirectory = directoryOf(startUrl.pathname)
  const subjectOf = (url: URL): string => (options.regexOnFullURL ? pageIdentity(url) : url.pathname)
  const excludedBy = (url: URL) => excludes.patterns.find((p) => p.regex.test(subjectOf(url)))
  const included = (url: URL) => includes.patterns.length === 0 || includes.patterns.some((p) => p.regex.test(subjectOf(url)))

  const hostDenial = (url: URL): ScopeDenial | undefined => {
    if (options.allowExternalLinks) return undefined
    const host = bareHost(url.hostname)
    if (host === startHost) return undefined
    if (host.endsWith(`.${startHost}`)) return options.allowSubdomains ? undefined : "subdomain"
    return "external"
  }

  const underStart = (url: URL): boolean => {
    if (options.crawlEntireDomain || startDirectory === "" || bareHost(url.hostname) !== startHost) return true
    return url.pathname === startDirectory || url.pathname.startsWith(`${startDirectory}/`)
  }

  const decide = (url: URL, depth: number): ScopeDecision => {
    if (url.protocol !== "http:" && url.protocol !== "https:") return deny("scheme")
    const host = hostDenial(url)
    if (host !== undefined) return deny(host)
    if (!underStart(url)) return deny("outside-path")
    const extension = extensionOf(url.pathname)
    if (extension !== undefined && NON_PAGE_EXTENSIONS.has(extension)) return deny("file-type")
    if (excludedBy(url) !== undefined) return deny("exclude")
    if (!included(url)) return deny("include")
    if (options.maxDiscoveryDepth !== undefined && depth > options.maxDiscoveryDepth) return deny("depth")
    return FOLLOW
  }

  const startDenial = (): string | undefined => {
    const tested = options.regexOnFullURL ? "URL" : "path"
    const subject = subjectOf(startUrl)
    const exclude = excludedBy(startUrl)
    if (exclude !== undefined) {
      return `The start URL ${pageIdentity(startUrl)} is excluded by the excludePaths pattern "${exclude.source}" ` +
        `(tested against the ${tested} "${subject}"), so it was not scraped. Loosen the pattern or start the crawl elsewhere.`
    }
    if (!included(startUrl)) {
      const list = includes.patterns.map((p) => `"${p.source}"`).join(", ")
      return `The start URL ${pageIdentity(startUrl)} matches none of the includePaths patterns (${list}; ` +
        `tested against the ${tested} "${subject}"), so it was not scraped. Add a pattern for it or start the crawl elsewhere.`
    }
    return undefined
  }

  return {
    ok: true,
    scope: {
      key: (url) => scopeKey(url, options),
      fetchUrl: (url) => {
        const copy = new URL(pageIdentity(url))
        if (options.ignoreQueryParameters) copy.search = ""
        return copy
      },
      decide,
      startDenial
    }
  }
}
