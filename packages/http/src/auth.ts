/**
 * Who a request acts for, and the per-minute limit it counts against. `Authentication` is the
 * bearer-token middleware of every authenticated group: it turns `Authorization: Bearer <key>`
 * into the team (core `Accounts.authenticate`), or, with `GLEANER_AUTH=off`, acts for the default
 * team without a key. It then consumes one request from the endpoint's rate-limit bucket and puts
 * the bucket's state into `X-RateLimit-*` headers of the response.
 *
 * Buckets are data: each endpoint declares its own with `.annotate(RateBucket, "account")`, and
 * the table built from the API by `endpointBuckets` is the only place they are looked up.
 */
import {
  HttpApi,
  HttpApiMiddleware,
  HttpApiSecurity,
  HttpApp,
  HttpRouter,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import type { HttpApiGroup } from "@effect/platform"
import {
  Accounts,
  type AuthContext,
  DEFAULT_TEAM,
  GleanerConfig,
  messages,
  RateLimiter,
  type RateLimitBucket,
  UnauthorizedError
} from "@gleaner/core"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { Errors } from "./envelope.js"
import { rateLimitHeaders } from "./errors.js"

/** The team (and key) the current request acts for; provided by `Authentication`. */
export class CurrentAuth extends Context.Tag("@gleaner/http/CurrentAuth")<CurrentAuth, AuthContext>() {}

/** Endpoint annotation: the per-minute rate-limit bucket the endpoint's requests count against. */
export class RateBucket extends Context.Tag("@gleaner/http/RateBucket")<RateBucket, RateLimitBucket>() {}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@gleaner/http/Authentication", {
  failure: Schema.Union(Errors.Unauthorized, Errors.RateLimit),
  provides: CurrentAuth,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

const routeKey = (method: string, path: string) => `${method} ${path}`

/**
 * `METHOD /path/template` → bucket for every endpoint behind `Authentication`, and the endpoints
 * that forgot to declare one.
 */
export const endpointBuckets = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): { readonly buckets: ReadonlyMap<string, RateLimitBucket>; readonly undeclared: ReadonlyArray<string> } => {
  const buckets = new Map<string, RateLimitBucket>()
  const undeclared: Array<string> = []
  const authenticates = (set: ReadonlySet<{ readonly key: string }>) =>
    [...set].some((m) => m.key === Authentication.key)
  const apiAuthenticated = authenticates(api.middlewares)
  HttpApi.reflect(api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, mergedAnnotations, middleware }) => {
      if (!apiAuthenticated && !authenticates(middleware)) return
      const key = routeKey(endpoint.method, endpoint.path)
      Option.match(Context.getOption(mergedAnnotations, RateBucket), {
        onNone: () => undeclared.push(key),
        onSome: (bucket) => buckets.set(key, bucket)
      })
    }
  })
  return { buckets, undeclared }
}

/** The token of `Authorization: Bearer <token>`: empty when absent, none when another scheme. */
const bearerToken = (header: string | undefined): Option.Option<string> => {
  if (header === undefined || header.trim() === "") return Option.some("")
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim())
  return match === null ? Option.none() : Option.some((match[1] ?? "").trim())
}

const byKey = (accounts: Accounts) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Option.match(bearerToken(request.headers.authorization), {
      onNone: () => Effect.fail(new UnauthorizedError({ message: messages.invalidToken })),
      onSome: (token) => accounts.authenticate(token)
    }))

// auth-off mode acts for the bootstrap team; its absence is a deployment bug, not the client's
const asDefaultTeam = (accounts: Accounts) =>
  accounts.findTeam(DEFAULT_TEAM).pipe(
    Effect.map((team): AuthContext => ({ team, apiKeyId: null })),
    Effect.catchTag("NotFoundError", () =>
      Effect.dieMessage(`GLEANER_AUTH=off acts for team "${DEFAULT_TEAM}", which does not exist (bootstrap first)`))
  )

/**
 * The `Authentication` implementation for an API: needs Accounts, RateLimiter and GleanerConfig.
 * Dies while building when an authenticated endpoint of `api` declares no `RateBucket`.
 */
export const authenticationLayer = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): Layer.Layer<Authentication, never, Accounts | RateLimiter | GleanerConfig> =>
  Layer.effect(
    Authentication,
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const limiter = yield* RateLimiter
      const config = yield* GleanerConfig
      const { buckets, undeclared } = endpointBuckets(api)
      if (undeclared.length > 0) {
        return yield* Effect.dieMessage(`Authenticated endpoints without a RateBucket: ${undeclared.join(", ")}`)
      }
      if (config.auth === "off") {
        yield* Effect.logWarning(`Authentication is off: every request acts for team "${DEFAULT_TEAM}"`)
      }
      const identify = config.auth === "off" ? asDefaultTeam(accounts) : byKey(accounts)
      const bucketOfRoute = Effect.flatMap(HttpRouter.RouteContext, ({ route }) => {
        const bucket = buckets.get(routeKey(route.method, route.path))
        return bucket === undefined
          ? Effect.dieMessage(`No rate-limit bucket for ${route.method} ${route.path}`)
          : Effect.succeed(bucket)
      })
      return Authentication.of({
        // the decoded token is not used: the platform neither reports a missing header nor checks
        // the "Bearer " prefix, so the raw header is read instead
        bearer: (_token) =>
          Effect.gen(function*() {
            const auth = yield* identify
            const state = yield* limiter.consume(auth.team, yield* bucketOfRoute)
            yield* HttpApp.appendPreResponseHandler((_request, response) =>
              Effect.succeed(HttpServerResponse.setHeaders(response, rateLimitHeaders(state)))
            )
            return auth
          })
      })
    })
  )
