/**
 * The Firecrawl v2 API as an HttpApi: groups, endpoints, their schemas (all from core) and the
 * errors they may answer. Every authenticated endpoint names its rate-limit bucket with
 * `.annotate(RateBucket, …)`; auth.ts refuses to start when one is missing.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  BrowserCreateRequest,
  BrowserCreateResponse,
  BrowserDeleteResponse,
  BrowserExecuteRequest,
  BrowserExecuteResponse,
  BrowserListParams,
  BrowserListResponse,
  BrowserSessionParams,
  ActiveCrawlsResponse,
  CreateMonitorRequest,
  MonitorCheckParams,
  MonitorCheckResponse,
  MonitorChecksParams,
  MonitorChecksResponse,
  MonitorDeleteResponse,
  MonitorListParams,
  MonitorListResponse,
  MonitorResponse,
  MonitorRunResponse,
  UpdateMonitorRequest,
  BatchScrapeRequest,
  BatchScrapeStartResponse,
  CancelResponse,
  ConcurrencyCheckResponse,
  CrawlRequest,
  CrawlStartResponse,
  CrawlStatusResponse,
  JobErrorsResponse,
  JobStatusParams,
  MapRequest,
  MapResponse,
  ParamsPreviewRequest,
  ParamsPreviewResponse,
  ScrapeInteractRequest,
  ScrapeInteractResponse,
  ScrapeRequest,
  ScrapeResponse,
  CreditUsageHistoricalResponse,
  CreditUsageResponse,
  HealthResponse,
  HistoricalParams,
  QueueStatusResponse,
  TokenUsageHistoricalResponse,
  TokenUsageResponse
} from "@gleaner/core"
import { Authentication, RateBucket } from "./auth.js"
import { Errors } from "./envelope.js"
import { fixOpenApi } from "./openapi.js"
import { packageVersion } from "./version.js"

/** The API's base path. */
export const V2 = "/v2"

export class HealthGroup extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("health", "/").addSuccess(HealthResponse))
  .annotateContext(OpenApi.annotations({ title: "Health", description: "Is the server up, and which version" }))
{}

export class TeamGroup extends HttpApiGroup.make("team")
  .add(
    HttpApiEndpoint.get("creditUsage", "/team/credit-usage")
      .addSuccess(CreditUsageResponse)
      .addError(Errors.NotFound)
      .annotate(RateBucket, "account")
  )
  .add(
    HttpApiEndpoint.get("creditUsageHistorical", "/team/credit-usage/historical")
      .setUrlParams(HistoricalParams)
      .addSuccess(CreditUsageHistoricalResponse)
      .addError(Errors.NotFound)
      .annotate(RateBucket, "account")
  )
  .add(
    HttpApiEndpoint.get("tokenUsage", "/team/token-usage")
      .addSuccess(TokenUsageResponse)
      .addError(Errors.NotFound)
      .annotate(RateBucket, "account")
  )
  .add(
    HttpApiEndpoint.get("tokenUsageHistorical", "/team/token-usage/historical")
      .setUrlParams(HistoricalParams)
      .addSuccess(TokenUsageHistoricalResponse)
      .addError(Errors.NotFound)
      .annotate(RateBucket, "account")
  )
  .add(
    HttpApiEndpoint.get("queueStatus", "/team/queue-status")
      .addSuccess(QueueStatusResponse)
      .annotate(RateBucket, "account")
  )
  .add(
    HttpApiEndpoint.get("concurrencyCheck", "/concurrency-check")
      .addSuccess(ConcurrencyCheckResponse)
      .annotate(RateBucket, "crawlStatus")
  )
  .middleware(Authentication)
  .prefix(V2)
  .annotateContext(OpenApi.annotations({ title: "Team", description: "Credits, tokens, queue and concurrency" }))
{}

const jobId = HttpApiSchema.param("jobId", Schema.String)

export class ScrapeGroup extends HttpApiGroup.make("scrape")
  .add(
    HttpApiEndpoint.post("scrape", "/scrape")
      .setPayload(ScrapeRequest)
      .addSuccess(ScrapeResponse)
      .addError(Errors.InsufficientCredits)
      .annotate(RateBucket, "scrape")
  )
  .add(
    HttpApiEndpoint.get("getScrape")`/scrape/${jobId}`
      .addSuccess(ScrapeResponse)
      .addError(Errors.NotFound)
      .annotate(RateBucket, "crawlStatus")
  )
  .add(
    // the scrape's page re-opened in a browser session, with the replay's errors (API.md §3.3)
    HttpApiEndpoint.post("interact")`/scrape/${jobId}/interact`
      .setPayload(ScrapeInteractRequest)
      .addSuccess(ScrapeInteractResponse)
      .addError(Errors.InsufficientCredits)
      .addError(Errors.RateLimit)
      .annotate(RateBucket, "browserExecute")
  )
  .add(
    HttpApiEndpoint.del("stopInteraction")`/scrape/${jobId}/interact`
      .addSuccess(BrowserDeleteResponse)
      .annotate(RateBucket, "browserExecute")
  )
  // what loading a page can fail with: the scrape itself and the interact replay
  .addError(Errors.ScrapeTimeout)
  .addError(Errors.ScrapeDns)
  .addError(Errors.ScrapeSsl)
  .addError(Errors.ScrapeSite)
  .addError(Errors.ScrapeUnsupportedFile)
  .addError(Errors.ScrapeNoCachedData)
  .addError(Errors.ScrapeLockdownCacheMiss)
  .addError(Errors.ScrapeActionsNotSupported)
  .addError(Errors.ScrapeAction)
  .addError(Errors.UnsafeAddress)
  .addError(Errors.UnsafeDomain)
  .middleware(Authentication)
  .prefix(V2)
  .annotateContext(OpenApi.annotations({ title: "Scrape", description: "One URL to markdown, HTML, links, JSON and more" }))
{}

export class CrawlGroup extends HttpApiGroup.make("crawl")
  .add(
    HttpApiEndpoint.post("startCrawl", "/crawl")
      .setPayload(CrawlRequest)
      .setHeaders(Schema.Struct({ "x-idempotency-key": Schema.optional(Schema.String) }))
      .addSuccess(CrawlStartResponse)
      .addError(Errors.InsufficientCredits)
      .addError(Errors.ScrapeActionsNotSupported)
      .annotate(RateBucket, "crawl")
  )
  .add(
    HttpApiEndpoint.post("paramsPreview", "/crawl/params-preview")
      .setPayload(ParamsPreviewRequest)
      .addSuccess(ParamsPreviewResponse)
      .annotate(RateBucket, "crawl")
  )
  // before /crawl/:jobId, which would take "active" for an id
  .add(HttpApiEndpoint.get("activeCrawls", "/crawl/active").addSuccess(ActiveCrawlsResponse).annotate(RateBucket, "crawlStatus"))
  .add(HttpApiEndpoint.get("ongoingCrawls", "/crawl/ongoing").addSuccess(ActiveCrawlsResponse).annotate(RateBucket, "crawlStatus"))
  .add(
    HttpApiEndpoint.get("crawlStatus")`/crawl/${jobId}`
      .setUrlParams(JobStatusParams)
      .addSuccess(CrawlStatusResponse)
      .annotate(RateBucket, "crawlStatus")
  )
  .add(HttpApiEndpoint.del("cancelCrawl")`/crawl/${jobId}`.addSuccess(CancelResponse).annotate(RateBucket, "crawlStatus"))
  .add(HttpApiEndpoint.get("crawlErrors")`/crawl/${jobId}/errors`.addSuccess(JobErrorsResponse).annotate(RateBucket, "crawlStatus"))
  .middleware(Authentication)
  .prefix(V2)
  .annotateContext(OpenApi.annotations({ title: "Crawl", description: "Whole sites as durable jobs" }))
{}

export class BatchScrapeGroup extends HttpApiGroup.make("batchScrape")
  .add(
    HttpApiEndpoint.post("startBatchScrape", "/batch/scrape")
      .setPayload(BatchScrapeRequest)
      .addSuccess(BatchScrapeStartResponse)
      .addError(Errors.InsufficientCredits)
      .addError(Errors.ScrapeActionsNotSupported)
      .annotate(RateBucket, "scrape")
  )
  .add(
    HttpApiEndpoint.get("batchScrapeStatus")`/batch/scrape/${jobId}`
      .setUrlParams(JobStatusParams)
      .addSuccess(CrawlStatusResponse)
      .annotate(RateBucket, "crawlStatus")
  )
  .add(HttpApiEndpoint.del("cancelBatchScrape")`/batch/scrape/${jobId}`.addSuccess(CancelResponse).annotate(RateBucket, "crawlStatus"))
  .add(HttpApiEndpoint.get("batchScrapeErrors")`/batch/scrape/${jobId}/errors`.addSuccess(JobErrorsResponse).annotate(RateBucket, "crawlStatus"))
  .middleware(Authentication)
  .prefix(V2)
  .annotateContext(OpenApi.annotations({ title: "Batch scrape", description: "Many URLs with one set of options, as a durable job" }))
{}

export class MapGroup extends HttpApiGroup.make("map")
  .add(
    HttpApiEndpoint.post("map", "/map")
      .setPayload(MapRequest)
      .addSuccess(MapResponse)
      .addError(Errors.InsufficientCredits)
      .addError(Errors.MapTimeout)
      .addError(Errors.UnsafeAddress)
      .addError(Errors.UnsafeDomain)
      .annotate(RateBucket, "map")
  )
  .middleware(Authentication)
  .prefix(V2)
  .annotateContext(OpenApi.annotations({ title: "Map", description: "The URLs of a site, from its sitemaps and links, without scraping them" }))
{}

/** Browser sessions (API.md §3.11), served alike under `/v2/browser` and `/v2/interact`. */
const browserSessionGroup = <Name extends string>(name: Name, base: "browser" | "interact") =>
  HttpApiGroup.make(name)
    .add(
      HttpApiEndpoint.post("create", `/${base}`)
        .setPayload(BrowserCreateRequest)
        .addSuccess(BrowserCreateResponse)
        .addError(Errors.InsufficientCredits)
        .addError(Errors.RateLimit)
        .annotate(RateBucket, "browser")
    )
    .add(
      HttpApiEndpoint.get("list", `/${base}`)
        .setUrlParams(BrowserListParams)
        .addSuccess(BrowserListResponse)
        .annotate(RateBucket, "browserExecute")
    )
    .add(
      HttpApiEndpoint.post("execute", `/${base}/:sessionId/execute`)
        .setPath(BrowserSessionParams)
        .setPayload(BrowserExecuteRequest)
        .addSuccess(BrowserExecuteResponse)
        .annotate(RateBucket, "browserExecute")
    )
    .add(
      HttpApiEndpoint.del("delete", `/${base}/:sessionId`)
        .setPath(BrowserSessionParams)
        .addSuccess(BrowserDeleteResponse)
        .annotate(RateBucket, "browserExecute")
    )
    .middleware(Authentication)
    .prefix(V2)

export class BrowserGroup extends browserSessionGroup("browser", "browser")
  .annotateContext(OpenApi.annotations({ title: "Browser", description: "Browser sessions driven over DevTools or with code" }))
{}

export class InteractGroup extends browserSessionGroup("interact", "interact")
  .annotateContext(OpenApi.annotations({ title: "Interact", description: "The same browser sessions under /v2/interact" }))
{}

const monitorId = HttpApiSchema.param("monitorId", Schema.String)
const checkId = HttpApiSchema.param("checkId", Schema.String)

/** Monitors (API.md §3.12): scheduled checks of pages with diffs, webhooks and e-mail. */
export class MonitorGroup extends HttpApiGroup.make("monitor")
  .add(
    HttpApiEndpoint.post("create", "/monitor")
      .setPayload(CreateMonitorRequest)
      .addSuccess(MonitorResponse)
      .addError(Errors.InsufficientCredits)
      .addError(Errors.ScrapeActionsNotSupported)
      .annotate(RateBucket, "crawl")
  )
  .add(HttpApiEndpoint.get("list", "/monitor").setUrlParams(MonitorListParams).addSuccess(MonitorListResponse).annotate(RateBucket, "crawlStatus"))
  .add(HttpApiEndpoint.get("get")`/monitor/${monitorId}`.addSuccess(MonitorResponse).annotate(RateBucket, "crawlStatus"))
  .add(
    HttpApiEndpoint.patch("update")`/monitor/${monitorId}`
      .setPayload(UpdateMonitorRequest)
      .addSuccess(MonitorResponse)
      .addError(Errors.InsufficientCredits)
      .addError(Errors.ScrapeActionsNotSupported)
      .annotate(RateBucket, "crawl")
  )
  .add(HttpApiEndpoint.del("delete")`/monitor/${monitorId}`.addSuccess(MonitorDeleteResponse).annotate(RateBucket, "crawlStatus"))
  .add(
    HttpApiEndpoint.post("run")`/monitor/${monitorId}/run`
      .addSuccess(MonitorRunResponse)
      .addError(Errors.InsufficientCredits)
      .annotate(RateBucket, "crawl")
  )
  .add(
    HttpApiEndpoint.get("checks")`/monitor/${monitorId}/checks`
      .setUrlParams(MonitorChecksParams)
      .addSuccess(MonitorChecksResponse)
      .annotate(RateBucket, "crawlStatus")
  )
  .add(
    HttpApiEndpoint.get("check")`/monitor/${monitorId}/checks/${checkId}`
      .setUrlParams(MonitorCheckParams)
      .addSuccess(MonitorCheckResponse)
      .annotate(RateBucket, "crawlStatus")
  )
  .middleware(Authentication)
  .prefix(V2)
  .annotateContext(OpenApi.annotations({ title: "Monitor", description: "Pages checked on a schedule, with low-noise diffs, webhooks and e-mail" }))
{}

export class GleanerApi extends HttpApi.make("gleaner")
  .add(HealthGroup)
  .add(TeamGroup)
  .add(ScrapeGroup)
  .add(CrawlGroup)
  .add(MapGroup)
  .add(BatchScrapeGroup)
  .add(BrowserGroup)
  .add(InteractGroup)
  .add(MonitorGroup)
  .addError(Errors.BadRequest)
  .addError(Errors.Internal)
  // what any engine call may fail with (the Fetcher's errors reach several endpoints)
  .addError(Errors.InvalidJson)
  .addError(Errors.Forbidden)
  .addError(Errors.NotFound)
  .addError(Errors.Conflict)
  .addError(Errors.Gone)
  .addError(Errors.PayloadTooLarge)
  .addError(Errors.QueueFull)
  .addError(Errors.ServiceUnavailable)
  // a GleanerError too, so every engine call is typed to possibly fail with it
  .addError(Errors.MapTimeout)
  .annotateContext(OpenApi.annotations({
    title: "Gleaner (Firecrawl v2 compatible)",
    version: packageVersion,
    description: "A self-hostable web data engine speaking the Firecrawl v2 HTTP API.",
    transform: fixOpenApi
  }))
{}
