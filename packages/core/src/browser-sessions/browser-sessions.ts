/**
 * Browser sessions (API.md §3.11): a browser of its own per session, driven by the client over
 * DevTools (through the server's authenticated proxy) and by the server for `execute`. The
 * browser lives in the process that created the session; the store keeps the record, so the
 * list shows ended sessions and another process can bill the sessions of one that died.
 *
 * A session ends once, whichever comes first: DELETE, its `ttl`, `activityTtl` without activity,
 * a crash of its browser, or the server shutting down. Ending flips the record to `destroyed` in
 * one conditional write (only the winner bills: 2 credits per started minute, at least 2, into
 * the ledger under an idempotency key), then kills the browser and waits until it is gone.
 *
 * A session may serve a stored scrape (scrape-interact, API.md §3.3): it is opened with the
 * scrape's page replayed in it, and the next interact call on that scrape reuses it while it
 * lives. Which scrape a session serves is kept here, in memory: only the process that holds the
 * browser can run code in it, so another process opens a session of its own for the scrape.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { Clock, Deferred, Effect, Exit, Option, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { Billing } from "../billing/billing.js"
import { browserSessionCredits } from "../billing/credits.js"
import { GleanerConfig } from "../config.js"
import {
  BadRequestError,
  ConflictError,
  type GleanerError,
  GoneError,
  InsufficientCreditsError,
  messages,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  UnauthorizedError
} from "../errors.js"
import { uuidv7 } from "../ids.js"
import { linkActionResults, makeFileLinker } from "../files/file-links.js"
import { BlobStore } from "../ports/blob-store.js"
import type { ActionResults } from "../ports/browser.js"
import type { Action } from "../schema/scrape-options.js"
import { type LiveInput, type LiveSessionBrowser, SessionBrowser, type SessionOpenRequest } from "../ports/browser-sessions.js"
import { type BrowserSessionRecord, Store } from "../ports/store.js"
import { BrowserCreateRequest, type BrowserExecuteRequest, type BrowserExecuteResponse } from "../schema/browser-session.js"

/** Upstream's wording, and ours for what upstream does not have. */
export const browserSessionMessages = {
  noChromium: "No Chromium found. Install one (apt-get install -y chromium-headless-shell) or set GLEANER_CHROMIUM_PATH.",
  notFound: "Browser session not found.",
  destroyed: "Browser session has been destroyed.",
  otherProcess: "This browser session is served by another Gleaner process; send the request to the server that created it.",
  noInteraction: (scrapeId: string) =>
    `No interactive browser session is live for scrape ${scrapeId}. POST /v2/scrape/${scrapeId}/interact opens one.`,
  noRunner: (language: string) =>
    `language "${language}" needs an isolated code runner, which this server does not have. ` +
    `Send JavaScript with language "node" instead: it runs in the session's current page (\`return x\` gives \`result\`).`
} as const

/** How often the owner tells the store it still serves a session. */
const heartbeatMs = 10_000
/** A session whose owner has not been heard from for this long belongs to a dead process. */
export const orphanAfterMs = 60_000
/** Activity is written to the store at most this often per session. */
const activityWriteMs = 5_000

export interface CreatedSession {
  readonly id: string
  /** Unguessable; authorises the session's DevTools and live-view URLs. */
  readonly token: string
  readonly expiresAt: number
  /** The browser's own DevTools endpoint on 127.0.0.1 (the in-process client hands it out). */
  readonly cdpEndpoint: string
}

export interface SessionListing {
  readonly record: BrowserSessionRecord
  /** Known while this process serves the session. */
  readonly token: string | undefined
}

export interface SessionEnding {
  readonly sessionDurationMs: number
  readonly creditsBilled: number
}

interface Live {
  record: BrowserSessionRecord
  readonly token: string
  /** `teamId/scrapeId` of the scrape the session serves (scrape-interact). */
  readonly scrapeKey: string | undefined
  /** The profile the session started from; with saveChanges its write lock is held until the end. */
  readonly profile: { readonly name: string; readonly saveChanges: boolean } | undefined
  readonly browser: LiveSessionBrowser
  lastActivityAt: number
  writtenActivityAt: number
  ending: boolean
  readonly done: Deferred.Deferred<SessionEnding>
}

const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex")

const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, "hex")
  const y = Buffer.from(b, "hex")
  return x.length === y.length && timingSafeEqual(x, y)
}

/** A live session a caller may use: its id and the token of its public URLs. */
export interface SessionAccess {
  readonly id: string
  readonly token: string
}

/** Why a session ended without having served its caller: not billed. */
const unbilledReasons: ReadonlySet<string> = new Set(["replay-failed"])

const scrapeKeyOf = (teamId: string, scrapeId: string): string => `${teamId}/${scrapeId}`

/** A scrape-interact session is an ordinary one with the defaults of `POST /v2/browser`. */
const defaultCreate = Schema.decodeSync(BrowserCreateRequest)({})

const durationOf = (record: BrowserSessionRecord, endedAt: number): number =>
  Math.max(0, Math.min(endedAt, record.expiresAt) - record.createdAt)

export class BrowserSessions extends Effect.Service<BrowserSessions>()("@gleaner/core/BrowserSessions", {
  scoped: Effect.gen(function*() {
    const store = yield* Store
    const billing = yield* Billing
    const config = yield* GleanerConfig
    const browser = Option.getOrUndefined(Option.filter(yield* Effect.serviceOption(SessionBrowser), (b) => b.available))
    const linkFile = makeFileLinker(Option.getOrUndefined(yield* Effect.serviceOption(BlobStore)), config.fileUrls)
    const linkActionFiles = (results: ActionResults, options: { readonly keep: boolean }) => linkActionResults(linkFile, results, options)
    const scope = yield* Effect.scope
    const ownerId = yield* uuidv7
    const live = new Map<string, Live>()
    /** The live session of each scrape being interacted with, and those still opening. */
    const byScrape = new Map<string, Live>()
    const opening = new Map<string, Deferred.Deferred<Live, GleanerError>>()
    let starting = 0

    /** Debits a session that ended now (the caller won the `end` write). */
    const bill = (record: BrowserSessionRecord, credits: number) =>
      billing.debit({
        teamId: record.teamId,
        apiKeyId: record.apiKeyId,
        operation: "browser",
        jobId: record.id,
        credits,
        idempotencyKey: `browser-session:${record.id}`
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("Could not bill a browser session", cause)))

    /** Ends a record in the store and bills it once; the figures as recorded. */
    const settle = (record: BrowserSessionRecord, endedAt: number, reason: string) =>
      Effect.gen(function*() {
        const sessionDurationMs = durationOf(record, endedAt)
        const creditsBilled = unbilledReasons.has(reason) ? 0 : browserSessionCredits(sessionDurationMs)
        const won = yield* store.browserSessions.end(record.id, { endedAt, creditsBilled, reason })
        if (won) {
          if (creditsBilled > 0) yield* bill(record, creditsBilled)
          yield* Effect.logInfo("Browser session ended").pipe(
            Effect.annotateLogs({ sessionId: record.id, teamId: record.teamId, reason, sessionDurationMs, creditsBilled })
          )
          return { sessionDurationMs, creditsBilled }
        }
        const stored = yield* store.browserSessions.get(record.teamId, record.id)
        return Option.match(stored, {
          onNone: () => ({ sessionDurationMs, creditsBilled }),
          onSome: (s) => ({
            sessionDurationMs: s.endedAt === null ? sessionDurationMs : durationOf(s, s.endedAt),
            creditsBilled: s.creditsBilled ?? 0
          })
        })
      })

    /** Saves what the session's browser holds into its profile (while it still runs) and releases the lock. */
    const saveProfile = (session: Live, reason: string) => {
      const profile = session.profile
      if (profile === undefined || !profile.saveChanges) return Effect.void
      const { id, teamId } = session.record
      const unlock = store.browserProfiles.unlock(teamId, profile.name, id)
      if (reason === "crashed") return unlock
      return session.browser.saveState.pipe(
        Effect.flatMap((state) => Effect.flatMap(Clock.currentTimeMillis, (now) => store.browserProfiles.save(teamId, profile.name, id, state, now))),
        Effect.catchAll((error) => Effect.zipRight(Effect.logWarning("Could not save a browser session's profile", error), unlock))
      )
    }

    /** Ends a live session once; later callers wait for the first one's figures. */
    const finish = (session: Live, reason: string): Effect.Effect<SessionEnding> =>
      Effect.uninterruptible(Effect.suspend(() => {
        if (session.ending) return Deferred.await(session.done)
        session.ending = true
        live.delete(session.record.id)
        if (session.scrapeKey !== undefined && byScrape.get(session.scrapeKey) === session) byScrape.delete(session.scrapeKey)
        return Effect.gen(function*() {
          const ending = yield* settle(session.record, yield* Clock.currentTimeMillis, reason)
          yield* saveProfile(session, reason)
          yield* session.browser.close
          yield* Deferred.succeed(session.done, ending)
          return ending
        })
      }))

    /** Ends the session at its deadline (ttl or inactivity) and keeps its record fresh meanwhile. */
    const watch = (session: Live) =>
      Effect.gen(function*() {
        const { activityTtlSeconds, expiresAt, id } = session.record
        for (;;) {
          if (session.ending) return
          const now = yield* Clock.currentTimeMillis
          const idleAt = session.lastActivityAt + activityTtlSeconds * 1000
          if (now >= expiresAt) return yield* Effect.asVoid(finish(session, "expired"))
          if (now >= idleAt) return yield* Effect.asVoid(finish(session, "inactive"))
          yield* Effect.sleep(Math.min(Math.min(expiresAt, idleAt) - now, heartbeatMs))
          if (!session.ending) yield* store.browserSessions.seen([id], yield* Clock.currentTimeMillis)
        }
      })

    const register = (session: Live) =>
      Effect.gen(function*() {
        live.set(session.record.id, session)
        // forked from `start`, which is uninterruptible: without this, closing the layer would wait
        // for a watcher's sleep (up to heartbeatMs) to end
        yield* Effect.forkIn(Effect.interruptible(watch(session)), scope)
        yield* Effect.forkIn(Effect.interruptible(Effect.flatMap(session.browser.exited, () => finish(session, "crashed"))), scope)
      })

    /** Sessions left active by a process that died: destroyed and billed up to when it was last seen. */
    const reapOrphans = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const orphans = yield* store.browserSessions.orphaned(now - orphanAfterMs)
      yield* Effect.forEach(orphans, (record) => settle(record, Math.max(record.seenAt, record.lastActivityAt), "orphaned"), { discard: true })
    })
    yield* reapOrphans.pipe(Effect.catchAllCause((cause) => Effect.logError("Could not end orphaned browser sessions", cause)))

    yield* Effect.addFinalizer(() =>
      Effect.forEach([...live.values()], (session) => finish(session, "shutdown"), { concurrency: "unbounded", discard: true }))

    const refuseCreate = (auth: AuthContext, request: BrowserCreateRequest) =>
      Effect.gen(function*() {
        if (config.browserSessions === 0) {
          return yield* new ServiceUnavailableError({ message: "Browser sessions are turned off on this server (GLEANER_BROWSER_SESSIONS=0)." })
        }
        if (browser === undefined) return yield* new BadRequestError({ message: browserSessionMessages.noChromium })
        const required = browserSessionCredits(request.ttl * 1000)
        const { remainingCredits } = yield* billing.balance(auth.team.id)
        if (remainingCredits < required) {
          return yield* new InsufficientCreditsError({
            message: `Insufficient credits for a ${request.ttl}s browser session (requires ~${required} credits). ` +
              "For more credits, you can upgrade your plan at https://firecrawl.dev/pricing."
          })
        }
        const limit = Math.max(1, auth.team.maxConcurrency)
        const active = yield* store.browserSessions.countActive(auth.team.id)
        if (active >= limit) {
          const now = yield* Clock.currentTimeMillis
          const mine = [...live.values()].filter((s) => s.record.teamId === auth.team.id)
          const resetAtMs = Math.min(now + 60_000, ...mine.map((s) => Math.min(s.record.expiresAt, s.lastActivityAt + s.record.activityTtlSeconds * 1000)))
          return yield* new RateLimitError({
            message: `You have reached the maximum number of concurrent jobs (${limit}). ` +
              "Please wait for existing jobs to complete or destroy browser sessions before creating new ones.",
            limit,
            remaining: 0,
            resetAtMs,
            retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - now) / 1000))
          })
        }
        if (live.size + starting >= config.browserSessions) {
          return yield* new ServiceUnavailableError({
            message: `This server already runs its maximum of ${config.browserSessions} browser sessions (GLEANER_BROWSER_SESSIONS). Try again when one has ended.`
          })
        }
        return browser
      })

    /** Launches and records a session; it is live (watched, ended at its deadlines) on return. */
    const start = (auth: AuthContext, request: BrowserCreateRequest, scrapeKey: string | undefined) => Effect.gen(function*() {
      const sessions = yield* refuseCreate(auth, request)
      const id = yield* uuidv7
      const token = randomBytes(24).toString("base64url")
      const profile = request.profile === undefined ? undefined : { name: request.profile.name, saveChanges: request.profile.saveChanges ?? true }
      const saved = profile === undefined ? Option.none() : yield* store.browserProfiles.get(auth.team.id, profile.name)
      if (profile?.saveChanges === true) {
        const at = yield* Clock.currentTimeMillis
        // held for the session's whole life (and a minute more, should this process die)
        const locked = yield* store.browserProfiles.lock(auth.team.id, profile.name, id, at, at + request.ttl * 1000 + 60_000)
        if (!locked) return yield* new ConflictError({ message: messages.profileBusy(profile.name) })
      }
      const releaseProfile = profile?.saveChanges === true ? store.browserProfiles.unlock(auth.team.id, profile.name, id) : Effect.void
      const handle = yield* Effect.acquireUseRelease(
        Effect.sync(() => { starting += 1 }),
        () => sessions.launch(id),
        () => Effect.sync(() => { starting -= 1 })
      ).pipe(Effect.tapError(() => releaseProfile))
      if (Option.isSome(saved)) {
        yield* handle.loadState(saved.value.state).pipe(Effect.tapError(() => Effect.zipRight(handle.close, releaseProfile)))
      }
      const now = yield* Clock.currentTimeMillis
      const record: BrowserSessionRecord = {
        id,
        teamId: auth.team.id,
        apiKeyId: auth.apiKeyId,
        ownerId,
        status: "active",
        tokenHash: hashToken(token),
        streamWebView: request.streamWebView,
        ttlSeconds: request.ttl,
        activityTtlSeconds: request.activityTtl,
        createdAt: now,
        expiresAt: now + request.ttl * 1000,
        lastActivityAt: now,
        seenAt: now,
        endedAt: null,
        creditsBilled: null,
        endReason: null
      }
      yield* store.browserSessions.insert(record).pipe(Effect.onExit((exit) => exit._tag === "Failure" ? Effect.zipRight(handle.close, releaseProfile) : Effect.void))
      const session: Live = { record, token, scrapeKey, profile, browser: handle, lastActivityAt: now, writtenActivityAt: now, ending: false, done: yield* Deferred.make<SessionEnding>() }
      yield* register(session)
      yield* Effect.annotateLogs(Effect.logInfo("Browser session started"), { sessionId: id, teamId: auth.team.id })
      return session
    }).pipe(Effect.uninterruptible)

    const create = Effect.fn("BrowserSessions.create")(function*(auth: AuthContext, request: BrowserCreateRequest) {
      const { browser: handle, record, token } = yield* start(auth, request, undefined)
      return { id: record.id, token, expiresAt: record.expiresAt, cdpEndpoint: handle.cdpEndpoint } satisfies CreatedSession
    })

    /** A new session with the scrape's page re-opened in it; ended unbilled when the replay fails. */
    const openForScrape = (auth: AuthContext, key: string, page: SessionOpenRequest) =>
      Effect.gen(function*() {
        const session = yield* start(auth, defaultCreate, key)
        yield* session.browser.open(page).pipe(Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : Effect.asVoid(finish(session, "replay-failed"))))
        if (!session.ending) byScrape.set(key, session)
        return session
      })

    /**
     * The live session serving a stored scrape: the one already open, or a new one with the
     * scrape's page replayed (concurrent calls for the same scrape share that one).
     */
    const forScrape = Effect.fn("BrowserSessions.forScrape")((auth: AuthContext, scrapeId: string, page: SessionOpenRequest) =>
      // uninterruptible between claiming the key and arming its release, so no claim is left behind
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function*() {
          const key = scrapeKeyOf(auth.team.id, scrapeId)
          const deferred = yield* Deferred.make<Live, GleanerError>()
          // from here to `opening.set` nothing yields: the look-ups and the claim are one step
          const current = byScrape.get(key)
          if (current !== undefined && !current.ending) return { id: current.record.id, token: current.token } satisfies SessionAccess
          const pending = opening.get(key)
          if (pending === undefined) opening.set(key, deferred)
          const session = pending !== undefined
            ? yield* restore(Deferred.await(pending))
            : yield* restore(openForScrape(auth, key, page)).pipe(
              Effect.onExit((exit) => Effect.zipRight(Effect.sync(() => opening.delete(key)), Deferred.done(deferred, exit)))
            )
          return { id: session.record.id, token: session.token } satisfies SessionAccess
        })))

    /** Ends the session serving a scrape (`DELETE /v2/scrape/:id/interact`). */
    const stopForScrape = Effect.fn("BrowserSessions.stopForScrape")(function*(teamId: string, scrapeId: string) {
      const found = byScrape.get(scrapeKeyOf(teamId, scrapeId))
      if (found === undefined || found.ending) return yield* new NotFoundError({ message: browserSessionMessages.noInteraction(scrapeId) })
      return { success: true as const, ...(yield* finish(found, "deleted")), cleanupQueued: true as const }
    })

    /** Activity: pushes the inactivity deadline back (written to the store every few seconds). */
    const touch = (session: Live) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        session.lastActivityAt = now
        if (now - session.writtenActivityAt < activityWriteMs || session.ending) return
        session.writtenActivityAt = now
        yield* store.browserSessions.touch(session.record.id, now)
      })

    /** The team's live session, or why not: 404 unknown, 410 ended, 409 another process's. */
    const liveForTeam = (teamId: string, id: string) =>
      Effect.gen(function*() {
        const found = live.get(id)
        if (found !== undefined && found.record.teamId === teamId && !found.ending) return found
        const record = yield* store.browserSessions.get(teamId, id)
        if (Option.isNone(record)) return yield* new NotFoundError({ message: browserSessionMessages.notFound })
        if (record.value.status === "destroyed" || found?.ending === true) return yield* new GoneError({ message: browserSessionMessages.destroyed })
        return yield* new ConflictError({ message: browserSessionMessages.otherProcess })
      })

    /** The live session a URL token opens. */
    const liveForToken = (id: string, token: string) =>
      Effect.suspend((): Effect.Effect<Live, NotFoundError | UnauthorizedError> => {
        const found = live.get(id)
        if (found === undefined || found.ending) return Effect.fail(new NotFoundError({ message: browserSessionMessages.notFound }))
        return sameHash(hashToken(token), found.record.tokenHash)
          ? Effect.succeed(found)
          : Effect.fail(new UnauthorizedError({ message: "Unauthorized: this session's token is not valid" }))
      })

    const list = Effect.fn("BrowserSessions.list")(function*(teamId: string, status?: BrowserSessionRecord["status"]) {
      const records = yield* store.browserSessions.list(teamId, status)
      return records.map((record): SessionListing => {
        const session = live.get(record.id)
        const current = session === undefined ? record : { ...record, lastActivityAt: session.lastActivityAt }
        return { record: current, token: session?.token }
      })
    })

    /** Scrape actions in the session's current page: results with files as URLs, or the failing action as stderr. */
    const executeActions = (session: Live, actions: ReadonlyArray<Action>, timeoutMs: number) =>
      Effect.flatMap(Effect.either(session.browser.runActions(actions, timeoutMs)), (ran) => {
        if (ran._tag === "Right") {
          return Effect.map(linkActionFiles(ran.right, { keep: true }), (linked): BrowserExecuteResponse =>
            ({ success: true, stdout: "", result: "", stderr: "", exitCode: 0, killed: false, actions: linked }))
        }
        // as with code, what fails in the browser is the run's output, not the request's
        const killed = ran.left._tag === "ScrapeTimeoutError"
        return Effect.succeed<BrowserExecuteResponse>({
          success: true, stdout: "", result: "", stderr: `${ran.left.message}\n`, exitCode: killed ? 124 : 1, killed, error: ran.left.message
        })
      })

    const execute = Effect.fn("BrowserSessions.execute")(function*(teamId: string, id: string, request: BrowserExecuteRequest) {
      const session = yield* liveForTeam(teamId, id)
      if (request.actions !== undefined) {
        yield* touch(session)
        const answer = yield* executeActions(session, request.actions, request.timeout * 1000)
        yield* touch(session)
        return answer
      }
      if (request.language !== "node") return yield* new BadRequestError({ message: browserSessionMessages.noRunner(request.language) })
      const code = request.code
      if (code === undefined) return yield* new BadRequestError({ message: "Send either code or actions" })
      yield* touch(session)
      const outcome = yield* session.browser.execute({ code, timeoutMs: request.timeout * 1000 })
      yield* touch(session)
      const failed = outcome.exitCode !== 0 || outcome.killed
      const error = outcome.killed && outcome.stderr === "" ? `Execution timed out after ${request.timeout}s` : outcome.stderr
      return { success: true as const, ...outcome, ...(failed ? { error } : {}) } satisfies BrowserExecuteResponse
    })

    const remove = Effect.fn("BrowserSessions.delete")(function*(teamId: string, id: string) {
      const found = live.get(id)
      if (found !== undefined && found.record.teamId === teamId) {
        return { success: true as const, ...(yield* finish(found, "deleted")), cleanupQueued: true as const }
      }
      const record = yield* store.browserSessions.get(teamId, id)
      if (Option.isNone(record)) return yield* new NotFoundError({ message: browserSessionMessages.notFound })
      const ended = record.value.status === "destroyed"
        ? { sessionDurationMs: durationOf(record.value, record.value.endedAt ?? record.value.createdAt), creditsBilled: record.value.creditsBilled ?? 0 }
        // another process's session cannot be stopped from here; a dead one's is settled now
        : record.value.seenAt < (yield* Clock.currentTimeMillis) - orphanAfterMs
        ? yield* settle(record.value, Math.max(record.value.seenAt, record.value.lastActivityAt), "orphaned")
        : yield* new ConflictError({ message: browserSessionMessages.otherProcess })
      return { success: true as const, ...ended, cleanupQueued: true as const }
    })

    return {
      create,
      list,
      execute,
      delete: remove,
      forScrape,
      stopForScrape,
      /** The URL token of the team's session when this process serves it. */
      tokenOf: (teamId: string, id: string) =>
        Effect.sync(() => {
          const found = live.get(id)
          return found !== undefined && found.record.teamId === teamId ? found.token : undefined
        }),
      /** The DevTools endpoint of the team's live session (Bearer-key access to the proxy). */
      devtoolsForTeam: (teamId: string, id: string) =>
        Effect.map(liveForTeam(teamId, id), (s) => ({ endpoint: s.browser.cdpEndpoint, activity: touch(s) })),
      /** The DevTools endpoint a URL token opens. */
      devtoolsForToken: (id: string, token: string) =>
        Effect.map(liveForToken(id, token), (s) => ({ endpoint: s.browser.cdpEndpoint, activity: touch(s) })),
      /** A JPEG of the session's page, for the live view (not activity: watching keeps nothing alive). */
      frame: (id: string, token: string) => Effect.flatMap(liveForToken(id, token), (s) => s.browser.screenshot),
      /** Input from the interactive live view (activity). */
      input: (id: string, token: string, input: LiveInput) =>
        Effect.flatMap(liveForToken(id, token), (s) => Effect.zipRight(touch(s), s.browser.input(input))),
      /** The browser's root process of a live session (tests, diagnostics). */
      processOf: (id: string) => Effect.sync(() => live.get(id)?.browser.pid),
      /** Ends sessions of dead processes now (done once at start). */
      reapOrphans
    } as const
  })
}) {}
