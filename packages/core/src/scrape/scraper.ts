/**
 * The Scraper: one URL in, one Document out (API.md §3.1). Plan the request, check the team can
 * pay, get the page (cache or fetch), produce the formats, redact, track changes, bill by the
 * credit rules, keep the record for `GET /v2/scrape/:id`. Crawl and batch scrape call the same
 * `scrape` for each page with their job id, so a retried page is billed once.
 */
import { Clock, Effect, Option, Schema } from "effect"
import type { AuthContext } from "../accounts/accounts.js"
import { Billing } from "../billing/billing.js"
import { documentCredits, failedScrapeCredits } from "../billing/credits.js"
import { GleanerConfig } from "../config.js"
import { featuresRequested, Plans } from "../billing/plans.js"
import { TeamConcurrency, type Turn } from "../billing/team-concurrency.js"
import { BadRequestError, messages, NotFoundError, ScrapeTimeoutError, UnsafeDomainError } from "../errors.js"
import { isUuid, uuidv7At } from "../ids.js"
import { Fetcher } from "../ports/fetcher.js"
import { Browser } from "../ports/browser.js"
import { BlobStore } from "../ports/blob-store.js"
import { type FileLinker, linkActionResults, makeFileLinker } from "../files/file-links.js"
import { Store } from "../ports/store.js"
import { Document } from "../schema/document.js"
import { ScrapeReplay } from "../schema/scrape-interact.js"
import type { ScrapeRequest } from "../schema/scrape-options.js"
import { compareSnapshots } from "../transform/formats/change-tracking.js"
import { checkThreatProtection } from "../transform/formats/threat-protection.js"
import { obtainPage } from "./obtain-page.js"
import { planScrape, type ScrapePlan } from "./plan.js"
import { HtmlTransformer } from "./html-threads.js"
import { type Produced, produce } from "./produce.js"
import { redactProduced } from "./redact.js"
import { pageIdentity } from "./url.js"

/**
 * Who pays for a scrape made inside a job (crawl, batch), so retries are charged once. A scrape
 * without a `jobId` is synchronous, waits for one of the team's concurrency slots and is stored
 * for `GET /v2/scrape/:id`; one with a `jobId` is kept by its job (its page row), not twice.
 */
export interface ScrapeBilling {
  readonly operation?: string
  readonly jobId?: string
  readonly idempotencyKey?: string
}

/** The enterprise switches a request uses; its team's plan must allow each. */
const encodeDocument = Schema.encodeSync(Schema.parseJson(Document))
const decodeDocument = Schema.decodeUnknown(Schema.parseJson(Document))
/** What scrape-interact replays to re-open the page: the plan's URL (redirects and actions replay too). */
const encodeReplay = (plan: ScrapePlan): string =>
  Schema.encodeSync(Schema.parseJson(ScrapeReplay))({
    url: plan.url.href,
    waitForMs: plan.waitForMs,
    actions: plan.actions,
    mobile: plan.mobile,
    headers: plan.headers,
    timeoutMs: plan.timeoutMs
  })

const checkThreats = (plan: ScrapePlan, url: string) => {
  if (plan.threatProtection === undefined) return Effect.void
  const { blacklist, blockedTlds, mode, whitelist } = plan.threatProtection
  const verdict = checkThreatProtection(url, {
    ...(mode === undefined ? {} : { mode }),
    ...(blacklist === undefined ? {} : { blacklist }),
    ...(whitelist === undefined ? {} : { whitelist }),
    ...(blockedTlds === undefined ? {} : { blockedTlds })
  })
  return verdict.allowed ? Effect.void : Effect.fail(new UnsafeDomainError({ message: verdict.reason }))
}

export class Scraper extends Effect.Service<Scraper>()("@gleaner/core/Scraper", {
  effect: Effect.gen(function*() {
    const store = yield* Store
    const billing = yield* Billing
    const config = yield* GleanerConfig
    const concurrency = yield* TeamConcurrency
    const plans = yield* Plans
    // the Browser layer is optional: without it (or without Chromium) every page is fetched
    const browser = Option.getOrUndefined(yield* Effect.serviceOption(Browser))
    const planContext = { stealthProxy: Option.isSome(config.stealthProxyUrl), browser: browser?.available === true }
    const obtain = obtainPage({ store, config, fetcher: yield* Fetcher, browser })
    const html = (yield* HtmlTransformer).transform
    const linkFile: FileLinker = makeFileLinker(Option.getOrUndefined(yield* Effect.serviceOption(BlobStore)), config.fileUrls)


    /** Checks a request's scrape options as a scrape would, without scraping (job starts). */
    const validate = (request: ScrapeRequest) => Effect.asVoid(planScrape(request, planContext))

    const track = Effect.fnUntraced(function*(plan: ScrapePlan, teamId: string, produced: Produced, now: number) {
      const tracking = plan.want.changeTracking
      if (tracking === undefined) return undefined
      const url = pageIdentity(plan.url)
      const previous = yield* store.snapshots.latest(teamId, url, tracking.tag)
      const result = compareSnapshots(
        Option.getOrUndefined(Option.map(previous, (p) => ({
          markdown: p.markdown,
          ...(p.json === null ? {} : { json: JSON.parse(p.json) as unknown }),
          scrapedAt: p.scrapedAt
        }))),
        { markdown: produced.fullMarkdown, ...(produced.json === undefined ? {} : { json: produced.json }) },
        tracking.modes
      )
      if (!plan.zeroDataRetention) {
        yield* store.snapshots.put({
          teamId,
          url,
          tag: tracking.tag,
          markdown: produced.fullMarkdown,
          json: produced.json === undefined ? null : JSON.stringify(produced.json),
          scrapedAt: now
        })
      }
      return result
    })

    const scrape = Effect.fn("Scraper.scrape")(function*(auth: AuthContext, request: ScrapeRequest, bill: ScrapeBilling = {}) {
      const plan = yield* planScrape(request, planContext)
      yield* plans.require(auth.team.plan, featuresRequested(request))
      yield* checkThreats(plan, plan.url.href)
      yield* billing.ensure(auth.team.id, plan.want.json ? 5 : 1)
      if (bill.jobId !== undefined) return yield* scrapeNow(auth, plan, bill, { limited: false, waitedMs: 0 })
      // as upstream, the wait for a slot may take at most two thirds of the deadline
      const maxWaitMs = Math.floor((plan.timeoutMs * 2) / 3)
      return yield* concurrency.run(
        auth.team,
        maxWaitMs,
        () => new ScrapeTimeoutError({ message: `Timed out after ${maxWaitMs} ms waiting for one of the team's ${auth.team.maxConcurrency} concurrent scrapes to finish` }),
        (turn) => scrapeNow(auth, { ...plan, timeoutMs: Math.max(1, plan.timeoutMs - turn.waitedMs) }, bill, turn)
      )
    })

    /** The scrape itself, once it has its turn. */
    const scrapeNow = Effect.fnUntraced(function*(auth: AuthContext, plan: ScrapePlan, bill: ScrapeBilling, turn: Turn) {
      const scrapeId = uuidv7At(yield* Clock.currentTimeMillis)
      const debit = (credits: number) =>
        billing.debit({
          teamId: auth.team.id,
          apiKeyId: auth.apiKeyId,
          operation: bill.operation ?? "scrape",
          jobId: bill.jobId ?? scrapeId,
          credits,
          idempotencyKey: bill.idempotencyKey ?? `scrape:${scrapeId}`
        })
      const obtained = yield* obtain(plan, auth.team.id).pipe(
        Effect.tapErrorTag("ScrapeLockdownCacheMissError", () => debit(failedScrapeCredits({ lockdownCacheMiss: true })))
      )
      yield* checkThreats(plan, obtained.page.url)
      const produced = redactProduced(plan, yield* produce(plan, obtained.page, html))
      const now = yield* Clock.currentTimeMillis
      const changeTracking = yield* track(plan, auth.team.id, produced, now)
      const creditsUsed = documentCredits({
        json: plan.want.json !== undefined || (plan.want.changeTracking?.modes.includes("json") ?? false),
        lockdown: plan.lockdown,
        zeroDataRetention: plan.zeroDataRetention,
        ...(produced.pdfPages === undefined ? {} : { pdfPages: produced.pdfPages }),
        redactPii: plan.redactPii !== undefined
      })
      const keepFiles = !plan.zeroDataRetention
      const screenshot = obtained.screenshot === undefined ? undefined : yield* linkFile(obtained.screenshot, { keep: keepFiles })
      const actions = obtained.actions === undefined ? undefined : yield* linkActionResults(linkFile, obtained.actions, { keep: keepFiles })
      const warnings = [...plan.warnings, ...obtained.warnings, ...produced.warnings]
      const { fullMarkdown: _full, pdfPages: _pages, warnings: _w, metadata, ...content } = produced
      const document: Document = {
        ...content,
        ...(screenshot === undefined ? {} : { screenshot }),
        ...(actions === undefined ? {} : { actions }),
        ...(changeTracking === undefined ? {} : { changeTracking }),
        ...(warnings.length === 0 ? {} : { warning: warnings.join(" ") }),
        metadata: {
          ...metadata,
          sourceURL: plan.sourceUrl,
          url: obtained.page.url,
          statusCode: obtained.page.statusCode,
          scrapeId,
          proxyUsed: obtained.proxyUsed,
          cacheState: obtained.cacheState,
          ...(obtained.engine === undefined ? {} : { engine: obtained.engine }),
          ...(obtained.cacheState === "hit" ? { cachedAt: new Date(obtained.fetchedAt).toISOString() } : {}),
          creditsUsed,
          concurrencyLimited: turn.limited,
          ...(turn.limited ? { concurrencyQueueDurationMs: turn.waitedMs } : {})
        }
      }
      yield* debit(creditsUsed)
      if (!plan.zeroDataRetention && bill.jobId === undefined) {
        yield* store.documents.put({
          id: scrapeId,
          teamId: auth.team.id,
          sourceUrl: plan.sourceUrl,
          document: encodeDocument(document),
          auditMetadata: plan.auditMetadata === undefined ? null : JSON.stringify(plan.auditMetadata),
          replay: encodeReplay(plan),
          createdAt: now,
          expiresAt: now + config.retentionDays * 86_400_000
        })
      }
      return document
    })

    /** A stored scrape of the team (`GET /v2/scrape/:id`). */
    const getDocument = Effect.fn("Scraper.getDocument")(function*(teamId: string, id: string) {
      if (!isUuid(id)) return yield* new BadRequestError({ message: messages.invalidJobId })
      const stored = yield* store.documents.get(teamId, id, yield* Clock.currentTimeMillis)
      if (Option.isNone(stored)) return yield* new NotFoundError({ message: messages.jobNotFound })
      return yield* Effect.orDie(decodeDocument(stored.value.document))
    })

    return { scrape, validate, getDocument } as const
  })
}) {}
