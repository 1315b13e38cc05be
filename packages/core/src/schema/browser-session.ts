/**
 * Wire types of browser sessions (API.md §3.11): create, list, execute and delete, served under
 * both `/v2/browser` and `/v2/interact`. Bodies are strict like every other body; the upstream
 * extras (`streamWebView`, `recordSession`, `profile`, `integration`, `origin`) are accepted.
 */
import { Schema } from "effect"
import { IsoDate, strictBody } from "./common.js"
import { DocumentActions } from "./document.js"
import { Action } from "./scrape-options.js"

const seconds = (min: number, max: number) => Schema.Int.pipe(Schema.between(min, max))

export const BrowserCreateRequest = strictBody({
  /** Whole life of the session in seconds, 30…3600. Default 600. */
  ttl: Schema.optionalWith(seconds(30, 3600), { default: () => 600 }),
  /** Seconds without activity (execute calls, DevTools traffic) after which it ends, 10…3600. Default 300. */
  activityTtl: Schema.optionalWith(seconds(10, 3600), { default: () => 300 }),
  streamWebView: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  /** Accepted for compatibility; sessions are not recorded. */
  recordSession: Schema.optional(Schema.Boolean),
  /** The team's named browser state to start from; with saveChanges (default) saved back when the session ends. */
  profile: Schema.optional(Schema.Struct({
    name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
    saveChanges: Schema.optional(Schema.Boolean)
  }))
}).annotations({ identifier: "BrowserCreateRequest" })
export type BrowserCreateRequest = typeof BrowserCreateRequest.Type

export const BrowserCreateResponse = Schema.Struct({
  success: Schema.Literal(true),
  id: Schema.String,
  cdpUrl: Schema.String,
  liveViewUrl: Schema.String,
  interactiveLiveViewUrl: Schema.String,
  expiresAt: IsoDate
}).annotations({ identifier: "BrowserCreateResponse" })

export const BrowserSessionStatus = Schema.Literal("active", "destroyed")
export type BrowserSessionStatus = typeof BrowserSessionStatus.Type

export const BrowserListParams = Schema.Struct({ status: Schema.optional(BrowserSessionStatus) })

export const BrowserSessionView = Schema.Struct({
  id: Schema.String,
  status: BrowserSessionStatus,
  cdpUrl: Schema.String,
  liveViewUrl: Schema.String,
  interactiveLiveViewUrl: Schema.String,
  streamWebView: Schema.Boolean,
  createdAt: IsoDate,
  lastActivity: IsoDate
}).annotations({ identifier: "BrowserSession" })
export type BrowserSessionView = typeof BrowserSessionView.Type

export const BrowserListResponse = Schema.Struct({
  success: Schema.Literal(true),
  sessions: Schema.Array(BrowserSessionView)
}).annotations({ identifier: "BrowserListResponse" })

export const BrowserExecuteRequest = strictBody({
  code: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100_000))),
  /** Gleaner's extension: the scrape actions (API.md §2.4) run in the current page instead of code. */
  actions: Schema.optional(Schema.Array(Action).pipe(Schema.minItems(1), Schema.maxItems(50))),
  language: Schema.optionalWith(Schema.Literal("python", "node", "bash"), { default: () => "node" as const }),
  /** Seconds, 1…300. Default 30. */
  timeout: Schema.optionalWith(seconds(1, 300), { default: () => 30 })
}).pipe(
  Schema.filter((body) => (body.code === undefined) !== (body.actions === undefined) || "Send either code or actions, not both and not neither")
).annotations({ identifier: "BrowserExecuteRequest" })
export type BrowserExecuteRequest = typeof BrowserExecuteRequest.Type

export const BrowserExecuteResponse = Schema.Struct({
  success: Schema.Literal(true),
  stdout: Schema.String,
  /** The code's return value: a string as is, anything else as JSON ("" for undefined). */
  result: Schema.String,
  stderr: Schema.String,
  exitCode: Schema.Number,
  killed: Schema.Boolean,
  error: Schema.optional(Schema.String),
  /** What `actions` produced (screenshots and PDFs as file URLs), when actions were sent. */
  actions: Schema.optional(DocumentActions)
}).annotations({ identifier: "BrowserExecuteResponse" })
export type BrowserExecuteResponse = typeof BrowserExecuteResponse.Type

export const BrowserDeleteResponse = Schema.Struct({
  success: Schema.Literal(true),
  sessionDurationMs: Schema.Number,
  creditsBilled: Schema.Number,
  cleanupQueued: Schema.Literal(true)
}).annotations({ identifier: "BrowserDeleteResponse" })
export type BrowserDeleteResponse = typeof BrowserDeleteResponse.Type

/** The path parameter of the per-session routes. */
export const BrowserSessionParams = Schema.Struct({ sessionId: Schema.String })
