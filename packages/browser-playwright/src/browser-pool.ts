/**
 * The browser pool: one Chromium at a time serving up to `maxContexts` pages at once, each in
 * a fresh BrowserContext that is closed when the page is done, whatever happened. Chromium is
 * launched on first use, in the pool's scope, so a render that gives up does not abandon a
 * half-started browser. The pool replaces a browser that is worn (`pagesPerBrowser` pages, or
 * its process tree over `maxRssBytes`) by retiring it — new pages go to a fresh browser, the old
 * one is closed when its last page ends — and one that crashed or hung: a context that does not
 * close within `killGraceMs` of its page ending gets the whole browser SIGKILLed. Closing the
 * pool's scope ends every browser and waits until its processes are gone.
 */
import { type Cidr, type GleanerError, ServiceUnavailableError } from "@gleaner/core"
import { Deferred, Effect, Exit, Option, type Scope } from "effect"
import type { BrowserContext, BrowserContextOptions } from "playwright-core"
import { type AddressGuard, makeAddressGuard } from "./address-guard.js"
import {
  type BrowserInstance,
  endBrowser,
  killBrowser,
  launchBrowser,
  type LaunchRecord,
  rssOf,
  settlesWithin
} from "./browser-instance.js"
import { crashError, firstLineOf } from "./failures.js"
import { startGuardProxy } from "./guard-proxy.js"
import type { UserAgents } from "./user-agent.js"

export interface BrowserPoolOptions {
  readonly executablePath: string
  /** Pages rendered at once. */
  readonly maxContexts: number
  /** A browser is replaced after this many pages. */
  readonly pagesPerBrowser: number
  /** A browser is replaced when its process tree's summed RSS exceeds this many bytes. */
  readonly maxRssBytes: number
  /** GLEANER_ALLOWED_NETWORKS, parsed. */
  readonly allowedNetworks: ReadonlyArray<Cidr>
  /** How long a context or browser may take to close before the browser is killed, in ms. */
  readonly killGraceMs: number
  readonly launchTimeoutMs: number
  readonly sandbox: boolean
}

export interface PoolStats {
  readonly launches: number
  /** Browsers SIGKILLed because a page hung them or they did not close. */
  readonly kills: number
  /** Browsers retired for their page count or memory. */
  readonly recycles: number
  /** The largest summed RSS of one browser's process tree seen after a page, in bytes. */
  readonly peakRssBytes: number
  /** Every browser launched, oldest first, with its process ids. */
  readonly launched: ReadonlyArray<LaunchRecord>
  /** Browsers not yet fully ended. */
  readonly live: number
}

export interface BrowserPool {
  readonly guard: AddressGuard
  /**
   * Runs `use` with a fresh context on a healthy browser, waiting for a free slot first; the
   * context is closed afterwards (on success, failure or interruption).
   */
  readonly withContext: <A, E, R>(
    options: (agents: UserAgents) => BrowserContextOptions,
    use: (context: BrowserContext) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | GleanerError, R>
  readonly stats: Effect.Effect<PoolStats>
  /** The browser new pages go to, if one is running. */
  readonly current: Effect.Effect<Option.Option<LaunchRecord>>
}

/** RSS is read at most this often per browser. */
const rssCheckIntervalMs = 1_000

export const makeBrowserPool = (options: BrowserPoolOptions): Effect.Effect<BrowserPool, never, Scope.Scope> =>
  Effect.gen(function*() {
    const guard = makeAddressGuard(options.allowedNetworks)
    const proxy = yield* Effect.acquireRelease(Effect.promise(() => startGuardProxy(guard)), (p) => Effect.promise(() => p.close()))
    const scope = yield* Effect.scope
    const slots = yield* Effect.makeSemaphore(options.maxContexts)
    const launchLock = yield* Effect.makeSemaphore(1)

    const all = new Set<BrowserInstance>()
    const launched: Array<LaunchRecord> = []
    const counters = { kills: 0, recycles: 0, peakRssBytes: 0 }
    let current: Deferred.Deferred<BrowserInstance, GleanerError> | undefined
    let currentInstance: BrowserInstance | undefined
    let closed = false

    /** Stops sending new pages to `instance`; ends it now if it is idle. */
    const retire = (instance: BrowserInstance): void => {
      instance.retiring = true
      if (currentInstance === instance) {
        current = undefined
        currentInstance = undefined
      }
      if (instance.active === 0) end(instance)
    }

    const end = (instance: BrowserInstance): void => {
      void endBrowser(instance, options.killGraceMs).finally(() => all.delete(instance))
    }

    const launch = Effect.tryPromise({
      try: () => launchBrowser({ ...options, proxyUrl: proxy.url }, retire),
      catch: (cause) =>
        new ServiceUnavailableError({ message: `Chromium (${options.executablePath}) did not start: ${firstLineOf(cause)}` })
    }).pipe(
      Effect.tap((instance) =>
        Effect.sync(() => {
          all.add(instance)
          launched.push(instance.record)
          if (closed) retire(instance)
        })
      ),
      Effect.withSpan("BrowserPool.launch")
    )

    /** The browser new pages go to, launching one (in the pool's scope) if there is none. */
    const currentSlot = launchLock.withPermits(1)(Effect.gen(function*() {
      if (current !== undefined) return current
      if (closed) return yield* new ServiceUnavailableError({ message: "The browser pool is shut down" })
      const slot = yield* Deferred.make<BrowserInstance, GleanerError>()
      current = slot
      yield* launch.pipe(
        Effect.exit,
        Effect.flatMap((exit) =>
          Effect.sync(() => {
            if (Exit.isSuccess(exit) && current === slot) currentInstance = exit.value
            if (Exit.isFailure(exit) && current === slot) current = undefined
            return exit
          })
        ),
        Effect.flatMap((exit) => Deferred.done(slot, exit)),
        Effect.uninterruptible,
        Effect.forkIn(scope)
      )
      return slot
    }))

    /** Takes a page on a usable browser: counts it in, atomically with the health check. */
    const lease: Effect.Effect<BrowserInstance, GleanerError> = Effect.gen(function*() {
      for (;;) {
        const slot = yield* currentSlot
        const instance = yield* Deferred.await(slot)
        const taken = yield* Effect.sync(() => {
          if (instance.retiring || instance.exited) {
            if (current === slot) current = undefined
            return undefined
          }
          instance.active += 1
          instance.pages += 1
          return instance
        })
        if (taken !== undefined) return taken
      }
    })

    /** Counts the page out and decides whether the browser is worn. */
    const release = (instance: BrowserInstance) =>
      Effect.sync(() => {
        instance.active -= 1
        const now = Date.now()
        if (!instance.exited && now - instance.lastRssCheckAt >= rssCheckIntervalMs) {
          instance.lastRssCheckAt = now
          const rss = rssOf(instance) ?? 0
          counters.peakRssBytes = Math.max(counters.peakRssBytes, rss)
          if (rss > options.maxRssBytes && !instance.retiring) {
            counters.recycles += 1
            instance.retiring = true
          }
        }
        if (instance.pages >= options.pagesPerBrowser && !instance.retiring) {
          counters.recycles += 1
          instance.retiring = true
        }
        if (instance.retiring || instance.exited) retire(instance)
      })

    /** Closes the context; a browser that cannot close one within the grace period is killed. */
    const closeContext = (instance: BrowserInstance, pending: Promise<BrowserContext>) =>
      // a dead browser's contexts are gone with it (and Playwright may never answer for them)
      Effect.promise(() => settlesWithin(Promise.race([pending.then((context) => context.close()), instance.gone]), options.killGraceMs)).pipe(
        Effect.flatMap((closedInTime) =>
          closedInTime || instance.exited
            ? Effect.void
            : Effect.sync(() => {
              counters.kills += 1
              killBrowser(instance)
              retire(instance)
            })
        )
      )

    const withContext: BrowserPool["withContext"] = (contextOptions, use) =>
      slots.withPermits(1)(
        Effect.acquireUseRelease(
          Effect.interruptible(lease),
          (instance) =>
            Effect.acquireUseRelease(
              // starting the promise cannot hang; awaiting it happens in `use`, interruptibly
              Effect.sync(() => instance.browser.newContext(contextOptions(instance.agents))),
              (pending) =>
                Effect.tryPromise({
                  try: () => pending,
                  catch: (cause) => (instance.exited ? crashError() : new ServiceUnavailableError({ message: `The browser could not open a page: ${firstLineOf(cause)}` }))
                }).pipe(
                  Effect.flatMap(use),
                  // Playwright leaves some calls pending forever when the browser dies under them
                  Effect.raceFirst(Effect.flatMap(Effect.promise(() => instance.gone), () => Effect.fail(crashError())))
                ),
              (pending) => closeContext(instance, pending)
            ),
          release
        )
      )

    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        closed = true
        current = undefined
        currentInstance = undefined
        await Promise.all([...all].map((instance) => endBrowser(instance, options.killGraceMs)))
        all.clear()
      })
    )

    return {
      guard,
      withContext,
      stats: Effect.sync(() => ({ ...counters, launches: launched.length, launched: [...launched], live: all.size })),
      current: Effect.sync(() => Option.fromNullable(currentInstance?.record))
    }
  })
