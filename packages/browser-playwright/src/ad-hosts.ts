/**
 * `blockAds`: requests to well-known advertising, tracking and analytics hosts are refused
 * before they leave the browser. A short list of the networks that carry most third-party ad
 * and tracker traffic, matched on the host and its parent domains; it is not a full filter
 * list (no element hiding, no path rules), so some ads on first-party hosts stay.
 */
const adDomains: ReadonlySet<string> = new Set([
  "doubleclick.net", "googlesyndication.com", "googleadservices.com", "google-analytics.com", "googletagmanager.com",
  "googletagservices.com", "adservice.google.com", "pagead2.googlesyndication.com", "analytics.google.com",
  "amazon-adsystem.com", "adnxs.com", "adsrvr.org", "criteo.com", "criteo.net", "taboola.com", "outbrain.com",
  "pubmatic.com", "rubiconproject.com", "openx.net", "casalemedia.com", "smartadserver.com", "advertising.com",
  "moatads.com", "scorecardresearch.com", "quantserve.com", "quantcount.com", "chartbeat.com", "chartbeat.net",
  "hotjar.com", "hotjar.io", "mouseflow.com", "fullstory.com", "crazyegg.com", "clarity.ms", "bat.bing.com",
  "connect.facebook.net", "ads.linkedin.com", "ads-twitter.com", "analytics.twitter.com", "static.ads-twitter.com",
  "analytics.tiktok.com", "ads.yahoo.com", "yieldmo.com", "media.net", "sharethrough.com", "teads.tv", "33across.com",
  "bidswitch.net", "mathtag.com", "adform.net", "serving-sys.com", "zedo.com", "revcontent.com", "mgid.com",
  "segment.io", "segment.com", "mixpanel.com", "amplitude.com", "newrelic.com", "nr-data.net", "optimizely.com",
  "branch.io", "app-measurement.com", "omtrdc.net", "demdex.net", "everesttech.net", "krxd.net", "bluekai.com",
  "exelator.com", "agkn.com", "rlcdn.com", "tapad.com", "adsafeprotected.com", "doubleverify.com", "imrworldwide.com"
])

/** True when the host is, or is under, a listed ad or tracker domain. */
export const isAdHost = (hostname: string): boolean => {
  const labels = hostname.toLowerCase().replace(/\.$/, "").split(".")
  for (let i = 0; i < labels.length - 1; i++) {
    if (adDomains.has(labels.slice(i).join("."))) return true
  }
  return false
}
