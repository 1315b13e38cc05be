/**
 * The Fetcher port over undici. One `fetch` is a chain of hops: each hop is one undici request
 * through the SSRF-guarded dispatcher; a redirect answer becomes the next hop after its URL is
 * checked (scheme, credentials; the address is checked when the socket connects), up to
 * `maxRedirects`. The whole chain, body included, runs under one deadline (`timeoutMs`);
 * on timeout the fiber is interrupted, which aborts the undici request. Upstream 4xx/5xx are
 * ordinary responses; only transport failures are errors.
 */
import {
  BadRequestError,
  type Cidr,
  checkUrlShape,
  type FetchRequest,
  type FetchResponse,
  Fetcher,
  GleanerConfig,
  type GleanerError,
  parseCidrList,
  ScrapeSiteError,
  ScrapeTimeoutError
} from "@gleaner/core"
import { Effect, Layer } from "effect"
import { type Dispatcher, request as undiciRequest } from "undici"
import { BodyLimitExceeded, codingsOf, readBody } from "./body.js"
import { type Dispatchers, makeDispatchers } from "./dispatchers.js"
import { toGleanerError } from "./failures.js"
import { resolveChecked } from "./guard.js"
import { headersForRedirect, headerValues, requestHeaders, responseHeaders } from "./headers.js"
import { RedirectCookies } from "./redirect-cookies.js"

const defaultMaxRedirects = 10
const redirectStatuses = new Set([301, 302, 303, 307, 308])

interface Hop {
  readonly url: URL
  readonly method: "GET" | "HEAD" | "POST"
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

type Outcome =
  | { readonly _tag: "Final"; readonly response: FetchResponse }
  | { readonly _tag: "Redirect"; readonly status: number; readonly location: string }

const firstHop = (request: FetchRequest): Effect.Effect<Hop, BadRequestError> => {
  const verdict = checkUrlShape(request.url)
  if (!verdict.allowed) return Effect.fail(new BadRequestError({ message: verdict.reason }))
  return Effect.succeed({ url: verdict.url, method: request.method ?? "GET", headers: requestHeaders(request.headers), body: request.body })
}

/** The hop a redirect leads to: 303 (and 301/302 after POST) become GET without a body. */
const nextHop = (hop: Hop, status: number, location: string): Effect.Effect<Hop, ScrapeSiteError> => {
  let target: URL
  try {
    target = new URL(location, hop.url)
  } catch {
    return Effect.fail(new ScrapeSiteError({ message: `Redirect to an invalid URL: ${location}` }))
  }
  const verdict = checkUrlShape(target)
  if (!verdict.allowed) return Effect.fail(new ScrapeSiteError({ message: `Redirect to ${target.href} refused: ${verdict.reason}` }))
  const toGet = hop.method !== "HEAD" && (status === 303 || (hop.method === "POST" && (status === 301 || status === 302)))
  const method = toGet ? "GET" : hop.method
  const headers = headersForRedirect(hop.headers, hop.url, verdict.url, toGet)
  return Effect.succeed({ url: verdict.url, method, headers, body: toGet ? undefined : hop.body })
}

/** One request; a redirect's body is discarded, any other body read under the caps. */
const sendHop = async (dispatcher: Dispatcher, hop: Hop, maxBodyBytes: number, cookies: RedirectCookies, signal: AbortSignal): Promise<Outcome> => {
  const cookie = cookies.header(hop.url, hop.headers["cookie"])
  const headers = cookie === undefined ? hop.headers : { ...hop.headers, cookie }
  const response = await undiciRequest(hop.url, { dispatcher, method: hop.method, headers, body: hop.body ?? null, signal, headersTimeout: 0, bodyTimeout: 0 })
  const status = response.statusCode
  const location = headerValues(response.headers, "location")[0]
  if (redirectStatuses.has(status) && location !== undefined) {
    cookies.store(hop.url, headerValues(response.headers, "set-cookie"), Date.now())
    await response.body.dump()
    return { _tag: "Redirect", status, location }
  }
  try {
    const encoding = headerValues(response.headers, "content-encoding").join(",")
    const declaredLength = Number(headerValues(response.headers, "content-length")[0] ?? Number.NaN)
    if (declaredLength > maxBodyBytes) throw new BodyLimitExceeded("wire", maxBodyBytes)
    const body = await readBody(response.body, encoding, maxBodyBytes, signal)
    const decoded = codingsOf(encoding).length > 0
    return { _tag: "Final", response: { url: hop.url.href, status, headers: responseHeaders(response.headers, decoded), body } }
  } catch (error) {
    response.body.destroy()
    throw error
  }
}

const makeFetch = (dispatchers: Dispatchers, networks: ReadonlyArray<Cidr>) => (request: FetchRequest): Effect.Effect<FetchResponse, GleanerError> => {
  const maxRedirects = request.maxRedirects ?? defaultMaxRedirects
  const dispatcherOptions = { skipTlsVerification: request.skipTlsVerification ?? false, proxyUrl: request.proxyUrl }
  const send = (hop: Hop, cookies: RedirectCookies) =>
    Effect.tryPromise({
      try: async (signal) => {
        // through a proxy the socket goes to the proxy, so the target is checked here instead
        if (request.proxyUrl !== undefined) await resolveChecked(hop.url.hostname, networks)
        return sendHop(dispatchers.get(dispatcherOptions), hop, request.maxBodyBytes, cookies, signal)
      },
      catch: (error) => toGleanerError(error, hop.url)
    })
  return Effect.gen(function*() {
    // per run, so that a retried fetch starts without the cookies of the failed one
    const cookies = new RedirectCookies()
    let hop = yield* firstHop(request)
    for (let redirects = 0; ; redirects++) {
      const outcome = yield* send(hop, cookies)
      if (outcome._tag === "Final") return outcome.response
      if (redirects >= maxRedirects) return yield* new ScrapeSiteError({ message: `Too many redirects (more than ${maxRedirects})` })
      hop = yield* nextHop(hop, outcome.status, outcome.location)
    }
  }).pipe(
    Effect.timeoutFail({
      duration: request.timeoutMs,
      onTimeout: () => new ScrapeTimeoutError({ message: `Request timed out after ${request.timeoutMs} ms` })
    }),
    Effect.withSpan("UndiciFetcher.fetch", { attributes: { url: request.url } })
  )
}

const make = Effect.gen(function*() {
  const { allowedNetworks } = yield* GleanerConfig
  const { networks, invalid } = parseCidrList(allowedNetworks)
  if (invalid.length > 0) {
    yield* Effect.logWarning(`GLEANER_ALLOWED_NETWORKS: ignoring entries that are not CIDR ranges: ${invalid.join(", ")}`)
  }
  const dispatchers = yield* Effect.acquireRelease(
    Effect.sync(() => makeDispatchers(networks)),
    (d) => Effect.promise(() => d.close())
  )
  return Fetcher.of({ fetch: makeFetch(dispatchers, networks) })
})

/** The Fetcher over undici, with the SSRF guard configured by GLEANER_ALLOWED_NETWORKS. */
export const UndiciFetcher = {
  layer: Layer.scoped(Fetcher, make) satisfies Layer.Layer<Fetcher, never, GleanerConfig>
} as const
