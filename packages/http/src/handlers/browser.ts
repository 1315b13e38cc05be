/**
 * Browser session endpoints (API.md §3.11) under `/v2/browser` and `/v2/interact`: the core
 * BrowserSessions service for the authenticated team; this module only adds the session's public
 * URLs — the DevTools WebSocket and the live view on this server (session-proxy.ts), carrying
 * the session's token so clients that cannot send headers can use them.
 */
import { HttpApiBuilder } from "@effect/platform"
import { BrowserSessions, type SessionListing } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"
import { absoluteUrl } from "../url.js"

/** The session's public URLs; without a token (ended, or another process's) they name the session only. */
export const sessionUrls = (id: string, token: string | undefined) =>
  Effect.gen(function*() {
    const query = token === undefined ? "" : `?token=${encodeURIComponent(token)}`
    const base = yield* absoluteUrl(`/v2/browser/${encodeURIComponent(id)}`)
    const liveViewUrl = `${base}/live${query}`
    return {
      cdpUrl: `${base.replace(/^http/, "ws")}/cdp${query}`,
      liveViewUrl,
      interactiveLiveViewUrl: `${liveViewUrl}${query === "" ? "?" : "&"}interactive=true`
    }
  })

const view = ({ record, token }: SessionListing) =>
  Effect.map(sessionUrls(record.id, token), (urls) => ({
    id: record.id,
    status: record.status,
    ...urls,
    streamWebView: record.streamWebView,
    createdAt: new Date(record.createdAt).toISOString(),
    lastActivity: new Date(record.lastActivityAt).toISOString()
  }))

const handlersFor = (group: "browser" | "interact") =>
  HttpApiBuilder.group(GleanerApi, group, (handlers) =>
    Effect.gen(function*() {
      const sessions = yield* BrowserSessions
      return handlers
        .handle("create", ({ payload }) =>
          Effect.gen(function*() {
            const created = yield* sessions.create(yield* CurrentAuth, payload)
            const urls = yield* sessionUrls(created.id, created.token)
            return { success: true as const, id: created.id, ...urls, expiresAt: new Date(created.expiresAt).toISOString() }
          }))
        .handle("list", ({ urlParams }) =>
          Effect.gen(function*() {
            const auth = yield* CurrentAuth
            const listed = yield* sessions.list(auth.team.id, urlParams.status)
            return { success: true as const, sessions: yield* Effect.forEach(listed, view) }
          }))
        .handle("execute", ({ path, payload }) =>
          Effect.flatMap(CurrentAuth, (auth) => sessions.execute(auth.team.id, path.sessionId, payload)))
        .handle("delete", ({ path }) => Effect.flatMap(CurrentAuth, (auth) => sessions.delete(auth.team.id, path.sessionId)))
    }))

export const BrowserLive = handlersFor("browser")
export const InteractLive = handlersFor("interact")
