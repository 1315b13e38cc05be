/**
 * The Fetcher port: one HTTP request to the outside world, through the SSRF guard, with caps on
 * time and size. The undici layer arrives with the scrape capability; until then no layer exists
 * and nothing in the engine asks for it.
 */
import { Context, type Effect } from "effect"
import type { GleanerError } from "../errors.js"

export interface FetchRequest {
  readonly url: string
  readonly method?: "GET" | "HEAD" | "POST"
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /** Whole request deadline, redirects included. */
  readonly timeoutMs: number
  /** Largest body accepted, in bytes: counted on the wire and again after decompression. */
  readonly maxBodyBytes: number
  /** Redirects followed at most (default 10); one more is a ScrapeSiteError. */
  readonly maxRedirects?: number
  readonly skipTlsVerification?: boolean
  /**
   * An operator-configured HTTP(S) proxy (e.g. the stealth proxy), as a URL. The proxy address
   * itself is not SSRF-checked; each target still is, before the request is sent.
   */
  readonly proxyUrl?: string
}

export interface FetchResponse {
  /** The URL after redirects. */
  readonly url: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
}

export class Fetcher extends Context.Tag("@gleaner/core/Fetcher")<Fetcher, {
  readonly fetch: (request: FetchRequest) => Effect.Effect<FetchResponse, GleanerError>
}>() {}
