/**
 * `POST /v2/map` (API.md §3.7): the core Mapper for the authenticated team; nothing else
 * happens here.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Mapper } from "@gleaner/core"
import { Effect } from "effect"
import { GleanerApi } from "../api.js"
import { CurrentAuth } from "../auth.js"

export const MapLive = HttpApiBuilder.group(GleanerApi, "map", (handlers) =>
  Effect.gen(function*() {
    const mapper = yield* Mapper
    return handlers.handle("map", ({ payload }) =>
      Effect.flatMap(CurrentAuth, (auth) => mapper.map(auth, payload)).pipe(
        Effect.map((result) => ({ success: true as const, ...result }))
      ))
  }))
