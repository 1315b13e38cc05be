/**
 * The browser-session routes that are not JSON: the DevTools WebSocket proxy (`cdpUrl`) and
 * the live view (`liveViewUrl`), taken in a global middleware in front of the HttpApi routes.
 *
 * - `GET /v2/browser/:id/cdp` (WebSocket; also under `/v2/interact`): authorised by
 *   `Authorization: Bearer <key>` of the session's team, or by the session's `?token=`, then
 *   piped to the session's Chromium (browser-level DevTools endpoint on 127.0.0.1). Client
 *   commands pass core's CDP policy (checkCdpCommand) and count as activity. A refused
 *   upgrade is answered before the handshake with the usual JSON envelope (401, 404, 410 …).
 * - `GET …/:id/live?token=` a small page showing the session's page, refreshed a few times a
 *   second from `GET …/:id/live/frame?token=` (JPEG); with `interactive=true` clicks on the
 *   picture, keys and wheel scrolls are sent to `POST …/:id/live/input?token=&kind=click&x=&y=`
 *   (`kind=key&key=`, `kind=text&text=`, `kind=scroll&dy=`).
 */
import { Headers, HttpApiBuilder, HttpServerRequest, HttpServerResponse, Socket } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { NodeSocket } from "@effect/platform-node"
import {
  Accounts,
  BadRequestError,
  BrowserSessions,
  checkCdpCommand,
  DEFAULT_TEAM,
  GleanerConfig,
  messages,
  UnauthorizedError
} from "@gleaner/core"
import { Effect, Option, Schema } from "effect"
import { causeToResponse } from "./errors.js"

type Route = "cdp" | "live" | "frame" | "input"

const routePattern = /^\/v2\/(?:browser|interact)\/([^/]+)\/(cdp|live|live\/frame|live\/input)$/

const routeOf = (request: HttpServerRequest.HttpServerRequest): Option.Option<{ readonly id: string; readonly route: Route; readonly query: URLSearchParams }> => {
  const [path = "", search = ""] = request.url.split("?")
  const match = routePattern.exec(path)
  if (match?.[1] === undefined || match[2] === undefined) return Option.none()
  const route: Route = match[2] === "live/frame" ? "frame" : match[2] === "live/input" ? "input" : match[2] === "live" ? "live" : "cdp"
  return Option.some({ id: decodeURIComponent(match[1]), route, query: new URLSearchParams(search) })
}

const bearerOf = (headers: Headers.Headers): Option.Option<string> =>
  Option.flatMap(Option.filter(Headers.get(headers, "authorization"), (h) => h.trim() !== ""), (header) =>
    Option.fromNullable(/^Bearer\s+(.+)$/i.exec(header.trim())?.[1]?.trim()))

const livePage = (frameUrl: string, inputUrl: string | undefined) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Gleaner live view</title>
<style>html,body{margin:0;height:100%;background:#111}img{display:block;max-width:100%;max-height:100%;margin:auto;${inputUrl === undefined ? "" : "cursor:pointer"}}</style></head>
<body><img id="v" alt="The browser session's page">
<script>
const img = document.getElementById("v"), frame = ${JSON.stringify(frameUrl)}, input = ${JSON.stringify(inputUrl ?? null)};
const send = (params) => fetch(input + "&" + new URLSearchParams(params), { method: "POST" });
let stopped = false;
const next = () => { if (stopped) return; const f = new Image(); f.onload = () => { img.src = f.src; setTimeout(next, 250) }; f.onerror = () => { stopped = true; document.body.insertAdjacentHTML("beforeend", "<p style=\\"color:#ccc;font:16px sans-serif;text-align:center\\">The session has ended.</p>") }; f.src = frame + "&t=" + Date.now() };
if (input) {
  img.addEventListener("click", (e) => { const r = img.getBoundingClientRect(); send({ kind: "click", x: Math.round((e.clientX - r.left) * img.naturalWidth / r.width), y: Math.round((e.clientY - r.top) * img.naturalHeight / r.height) }) });
  img.addEventListener("wheel", (e) => { e.preventDefault(); send({ kind: "scroll", dy: Math.round(e.deltaY) }) }, { passive: false });
  document.addEventListener("keydown", (e) => { if (e.metaKey || e.ctrlKey) return; e.preventDefault(); send(e.key.length === 1 ? { kind: "text", text: e.key } : { kind: "key", key: e.key }) });
}
next();
</script></body></html>`

const LiveInputQuery = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("click"), x: Schema.NumberFromString, y: Schema.NumberFromString }),
  Schema.Struct({ kind: Schema.Literal("key"), key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(32)) }),
  Schema.Struct({ kind: Schema.Literal("text"), text: Schema.String.pipe(Schema.maxLength(1000)) }),
  Schema.Struct({ kind: Schema.Literal("scroll"), dy: Schema.NumberFromString })
)

/** The live view's input from its query; anything else is a 400. */
const liveInputOf = (query: URLSearchParams) =>
  Schema.decodeUnknown(LiveInputQuery)(Object.fromEntries(query)).pipe(
    Effect.mapError(() => new BadRequestError({ message: "Live view input: kind=click&x=&y=, kind=key&key=, kind=text&text= or kind=scroll&dy=" }))
  )

const makeProxy = Effect.gen(function*() {
  const sessions = yield* BrowserSessions
  const accounts = yield* Accounts
  const config = yield* GleanerConfig

  /** The session's DevTools endpoint for this request: a team key (or auth off), else the URL token. */
  const devtools = (request: HttpServerRequest.HttpServerRequest, id: string, token: string | null) =>
    Option.match(bearerOf(request.headers), {
      onSome: (key) => Effect.flatMap(accounts.authenticate(key), (auth) => sessions.devtoolsForTeam(auth.team.id, id)),
      onNone: () =>
        token !== null
          ? sessions.devtoolsForToken(id, token)
          : config.auth === "off"
          ? Effect.flatMap(accounts.findTeam(DEFAULT_TEAM), (team) => sessions.devtoolsForTeam(team.id, id))
          : Effect.fail(new UnauthorizedError({ message: messages.tokenMissing }))
    })

  /** Pipes frames both ways until either side closes; client commands pass the CDP policy. */
  const pipe = (client: Socket.Socket, endpoint: string, activity: Effect.Effect<void>) =>
    Effect.gen(function*() {
      const browser = yield* Socket.makeWebSocket(endpoint, { openTimeout: 10_000 })
      const toClient = yield* client.writer
      const toBrowser = yield* browser.writer
      const fromBrowser = browser.runRaw((data) => toClient(data))
      const fromClient = client.runRaw((data) => {
        if (typeof data !== "string") return toBrowser(data)
        const verdict = checkCdpCommand(data)
        return Effect.zipRight(activity, verdict._tag === "Forward" ? toBrowser(verdict.message) : toClient(verdict.reply))
      })
      yield* Effect.raceFirst(fromBrowser, fromClient).pipe(Effect.catchAll((error) => Effect.logDebug("DevTools proxy closed", error)))
      yield* toClient(new Socket.CloseEvent(1000)).pipe(Effect.ignore)
    }).pipe(Effect.scoped, Effect.provide(NodeSocket.layerWebSocketConstructor))

  const cdp = (request: HttpServerRequest.HttpServerRequest, id: string, query: URLSearchParams) =>
    Effect.gen(function*() {
      const { activity, endpoint } = yield* devtools(request, id, query.get("token"))
      const socket = yield* request.upgrade
      yield* pipe(socket, endpoint, activity)
      return HttpServerResponse.empty()
    })

  const live = (id: string, query: URLSearchParams, route: Exclude<Route, "cdp">) =>
    Effect.gen(function*() {
      const token = query.get("token") ?? ""
      if (route === "frame") {
        const jpeg = yield* sessions.frame(id, token)
        return HttpServerResponse.uint8Array(jpeg, { contentType: "image/jpeg", headers: { "cache-control": "no-store" } })
      }
      if (route === "input") {
        yield* sessions.input(id, token, yield* liveInputOf(query))
        return HttpServerResponse.empty({ status: 204 })
      }
      // checks the token before serving the page
      yield* sessions.devtoolsForToken(id, token)
      const base = `/v2/browser/${encodeURIComponent(id)}/live`
      const tokenQuery = `?token=${encodeURIComponent(token)}`
      const interactive = query.get("interactive") === "true"
      return HttpServerResponse.html(livePage(`${base}/frame${tokenQuery}`, interactive ? `${base}/input${tokenQuery}` : undefined))
    })

  return (request: HttpServerRequest.HttpServerRequest, app: HttpApp.Default): HttpApp.Default =>
    Option.match(routeOf(request), {
      onNone: () => app,
      onSome: ({ id, query, route }) => {
        const upgrade = Option.getOrUndefined(Headers.get(request.headers, "upgrade"))?.toLowerCase() === "websocket"
        const handled = route === "cdp"
          ? (request.method === "GET" && upgrade ? cdp(request, id, query) : app)
          : (request.method === (route === "input" ? "POST" : "GET") ? live(id, query, route) : app)
        return Effect.catchAllCause(handled, causeToResponse).pipe(Effect.interruptible)
      }
    })
})

/** The session proxy and live view as an HttpApi global middleware layer (see `HttpAppLive`). */
export const SessionProxyLive = HttpApiBuilder.middleware(
  Effect.map(makeProxy, (handle) => (app: HttpApp.Default): HttpApp.Default =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => handle(request, app)))
)
