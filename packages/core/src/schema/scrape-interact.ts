/**
 * Wire types of scrape-interact (API.md §3.3): `POST /v2/scrape/:jobId/interact` runs code in the
 * scraped page re-opened in a browser session, `DELETE` ends that session. Also the replay
 * context a synchronous scrape keeps with its document, so the page can be opened again as the
 * scrape saw it (same URL, waitFor, actions, device and headers).
 */
import { Schema } from "effect"
import { strictBody } from "./common.js"
import { Action } from "./scrape-options.js"

export const ScrapeInteractRequest = strictBody({
  /** JavaScript run as the body of an async function in the page, 1…100000 characters. */
  code: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100_000))),
  /** A task for an LLM agent, 1…10000 characters; needs an LLM provider (refused for now). */
  prompt: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(10_000))),
  language: Schema.optionalWith(Schema.Literal("python", "node", "bash"), { default: () => "node" as const }),
  /** Seconds, 1…300. Default 30. */
  timeout: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 300)), { default: () => 30 }),
  /** A live browser session of the team to run in, instead of the scrape's own. */
  existingSessionId: Schema.optional(Schema.String)
}).annotations({ identifier: "ScrapeInteractRequest" })
export type ScrapeInteractRequest = typeof ScrapeInteractRequest.Type

export const ScrapeInteractResponse = Schema.Struct({
  /** `exitCode == 0 && !killed`. */
  success: Schema.Boolean,
  sessionId: Schema.String,
  cdpUrl: Schema.String,
  liveViewUrl: Schema.String,
  interactiveLiveViewUrl: Schema.String,
  stdout: Schema.String,
  /** The code's return value: a string as is, anything else as JSON ("" for undefined). */
  result: Schema.String,
  stderr: Schema.String,
  exitCode: Schema.Number,
  killed: Schema.Boolean,
  error: Schema.optional(Schema.String)
}).annotations({ identifier: "ScrapeInteractResponse" })
export type ScrapeInteractResponse = typeof ScrapeInteractResponse.Type

/** What a stored scrape replays when its page is re-opened for interact. */
export const ScrapeReplay = Schema.Struct({
  /** The URL the scrape loaded (before redirects and actions, so both replay). */
  url: Schema.String,
  /** Milliseconds the page's scripts ran after `load` (0: none). */
  waitForMs: Schema.Number,
  actions: Schema.Array(Action),
  mobile: Schema.Boolean,
  /** The caller's request headers. */
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  /** The scrape's deadline, which the replay gets too. */
  timeoutMs: Schema.Number
}).annotations({ identifier: "ScrapeReplay" })
export type ScrapeReplay = typeof ScrapeReplay.Type
