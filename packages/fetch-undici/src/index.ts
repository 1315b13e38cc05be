/**
 * @gleaner/fetch-undici — the Fetcher port over undici: redirects followed hop by hop, every
 * connection through the SSRF guard, one deadline per fetch, capped streaming decompression.
 */
export { UndiciFetcher } from "./undici-fetcher.js"
export { defaultUserAgent } from "./headers.js"
