/**
 * Shared test wiring: the fixture site as a scoped layer, the undici Fetcher over a given
 * GLEANER_ALLOWED_NETWORKS, and small helpers to run a fetch and look at its result or error.
 */
import { type FetchRequest, Fetcher, GleanerConfig } from "@gleaner/core"
import { Context, Effect, Layer } from "effect"
import { type FixtureSite, startFixtureSite } from "@gleaner/fixture-site"
import { UndiciFetcher } from "../src/index.js"

export class Site extends Context.Tag("test/Site")<Site, FixtureSite>() {}

export const SiteLive = Layer.scoped(
  Site,
  Effect.acquireRelease(
    Effect.promise(() => startFixtureSite({ sitePages: 20, bombMegabytes: 64 })),
    (site) => Effect.promise(() => site.close())
  )
)

export const fetcherWith = (allowedNetworks: ReadonlyArray<string>) =>
  UndiciFetcher.layer.pipe(Layer.provide(GleanerConfig.layer({ allowedNetworks })), Layer.orDie)

/** The site and a fetcher allowed to reach it (loopback). */
export const TestLive = Layer.merge(SiteLive, fetcherWith(["127.0.0.0/8"]))

export const defaults = { timeoutMs: 10_000, maxBodyBytes: 10 * 1024 * 1024 } as const

/** Fetches `path` on the fixture site (or an absolute URL) with test defaults. */
export const fetchPath = (path: string, options: Partial<FetchRequest> = {}) =>
  Effect.gen(function*() {
    const site = yield* Site
    const fetcher = yield* Fetcher
    const url = /^[a-z]+:/i.test(path) ? path : `${site.url}${path}`
    return yield* fetcher.fetch({ ...defaults, ...options, url })
  })

export const text = (body: Uint8Array): string => new TextDecoder().decode(body)
