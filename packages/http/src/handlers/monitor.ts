/**
 * Monitor endpoints (API.md §3.12): the core Monitors service for the authenticated team; this
 * module only adds the wire envelope and the check detail's absolute `next` link (top level and
 * inside `data`, where the SDKs look for it).
 */
import { HttpApiBuilder } from "@effect/platform"
import { Monitors } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"
import { absoluteUrl } from "../url.js"

export const MonitorLive = HttpApiBuilder.group(GleanerApi, "monitor", (handlers) =>
  Effect.gen(function*() {
    const monitors = yield* Monitors
    const data = <A>(value: A) => ({ success: true as const, data: value })
    return handlers
      .handle("create", ({ payload }) => Effect.map(Effect.flatMap(CurrentAuth, (auth) => monitors.create(auth, payload)), data))
      .handle("list", ({ urlParams }) => Effect.map(Effect.flatMap(CurrentAuth, (auth) => monitors.list(auth.team.id, urlParams)), data))
      .handle("get", ({ path }) => Effect.map(Effect.flatMap(CurrentAuth, (auth) => monitors.get(auth.team.id, path.monitorId)), data))
      .handle("update", ({ path, payload }) =>
        Effect.map(Effect.flatMap(CurrentAuth, (auth) => monitors.update(auth, path.monitorId, payload)), data))
      .handle("delete", ({ path }) =>
        Effect.as(Effect.flatMap(CurrentAuth, (auth) => monitors.remove(auth.team.id, path.monitorId)), { success: true as const }))
      .handle("run", ({ path }) =>
        Effect.map(Effect.flatMap(CurrentAuth, (auth) => monitors.run(auth, path.monitorId)), (check) => ({ success: true as const, id: check.id, data: check })))
      .handle("checks", ({ path, urlParams }) =>
        Effect.map(Effect.flatMap(CurrentAuth, (auth) => monitors.checks(auth.team.id, path.monitorId, urlParams)), data))
      .handle("check", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const auth = yield* CurrentAuth
          const { detail, nextSkip } = yield* monitors.check(auth.team.id, path.monitorId, path.checkId, urlParams)
          if (nextSkip === undefined) return data(detail)
          const query = new URLSearchParams({ skip: String(nextSkip) })
          if (urlParams.limit !== undefined) query.set("limit", String(urlParams.limit))
          if (urlParams.status !== undefined) query.set("status", urlParams.status)
          const next = yield* absoluteUrl(`/v2/monitor/${encodeURIComponent(path.monitorId)}/checks/${encodeURIComponent(path.checkId)}?${query}`)
          return { success: true as const, next, data: { ...detail, next } }
        }))
  }))
