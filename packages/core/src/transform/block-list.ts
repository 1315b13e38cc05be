/**
 * What `blockAds` removes, as data: class/id patterns of ad slots and sponsored widgets, the
 * attributes ad tags carry, and the host names of ad networks and trackers whose iframes,
 * images and click links are dropped. Extending the block list means editing these lists only.
 */

/** Words (between `-` or `_` in a class or id token) that name an ad slot or sponsored widget. */
export const adWords: ReadonlySet<string> = new Set([
  "ad", "ads", "advert", "adverts", "advertisement", "advertisements", "advertising", "advertorial",
  "adslot", "adunit", "adbox", "adbanner", "adsense", "dfp", "doubleclick", "sponsored", "sponsor", "promoted"
])

/** Token prefixes of ad tags and content-recommendation widgets. */
export const adTokenPrefixes: ReadonlyArray<string> = [
  "adsbygoogle", "gpt-ad", "div-gpt-ad", "google_ads_", "taboola", "outbrain", "teads", "mgid", "revcontent", "zergnet", "nativo"
]

/** Camel-case ad names ("adContainer", "ad300x250"); case-sensitive so "address" stays. */
const camelAdToken = /^ads?[A-Z0-9]/

const isAdToken = (token: string): boolean => {
  if (camelAdToken.test(token)) return true
  const lower = token.toLowerCase()
  return adTokenPrefixes.some((p) => lower.startsWith(p)) || lower.split(/[-_]/).some((word) => adWords.has(word))
}

/** Attributes that only ad tags carry. */
export const adAttributes: ReadonlyArray<string> = ["data-ad-slot", "data-ad-client", "data-ad-unit", "data-google-query-id", "data-ad"]

/** Ad-network and tracker hosts (a host matches itself and its subdomains). */
export const adHosts: ReadonlyArray<string> = [
  "doubleclick.net", "googlesyndication.com", "googleadservices.com", "adservice.google.com",
  "googletagservices.com", "googletagmanager.com", "google-analytics.com", "amazon-adsystem.com",
  "adnxs.com", "taboola.com", "outbrain.com", "criteo.com", "criteo.net", "pubmatic.com",
  "rubiconproject.com", "openx.net", "adsrvr.org", "moatads.com", "scorecardresearch.com",
  "quantserve.com", "casalemedia.com", "yieldmo.com", "sharethrough.com", "teads.tv", "mgid.com",
  "revcontent.com", "zergnet.com", "media.net", "adform.net", "smartadserver.com", "serving-sys.com",
  "33across.com", "indexww.com", "bidswitch.net", "lijit.com", "adroll.com", "hotjar.com",
  "connect.facebook.net", "bat.bing.com", "ads-twitter.com", "analytics.twitter.com",
  "adsafeprotected.com", "doubleverify.com", "adtech.com", "advertising.com", "yieldlab.net",
  "contextweb.com", "spotxchange.com", "springserve.com", "3lift.com", "gumgum.com", "kargo.com"
]

const adHostSet: ReadonlySet<string> = new Set(adHosts)

/** True when the host is an ad or tracker host or one of its subdomains. */
export const isAdHost = (host: string): boolean => {
  let rest = host.toLowerCase()
  for (;;) {
    if (adHostSet.has(rest)) return true
    const dot = rest.indexOf(".")
    if (dot === -1) return false
    rest = rest.slice(dot + 1)
  }
}

/** Cheap first test: a value without any of these letters has no ad token. */
const adHint = /ad|dfp|doubleclick|sponsor|promoted|taboola|outbrain|teads|mgid|revcontent|zergnet|nativo/i

/** True when a class or id value contains an ad token. */
export const hasAdToken = (value: string): boolean => adHint.test(value) && value.split(/\s+/).some(isAdToken)
