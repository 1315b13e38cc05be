/**
 * Wire pieces shared by every endpoint: the error envelope, the fields every POST body may
 * carry, and the strict-body rule (unknown keys are refused, hidden `__*` keys are accepted).
 */
import { Schema } from "effect"

/** `{ success: false, error, code?, details? }`, the body of every error response. */
export const ErrorEnvelope = Schema.Struct({
  success: Schema.Literal(false),
  error: Schema.String,
  code: Schema.optional(Schema.String),
  details: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "ErrorEnvelope", description: "The Firecrawl error envelope" })
export type ErrorEnvelope = typeof ErrorEnvelope.Type

/** Integrations upstream accepts in `integration`; anything starting with `_` is accepted too. */
export const integrations = [
  "dify", "zapier", "pipedream", "raycast", "langchain", "crewai", "llamaindex", "n8n", "camelai", "make",
  "flowise", "metagpt", "relevanceai", "viasocket", "cli", "hermes", "gstack", "prometheus"
] as const

export const Integration = Schema.Union(
  Schema.Literal(...integrations),
  Schema.TemplateLiteral("_", Schema.String)
).annotations({ identifier: "Integration", description: "A known integration name, or any name starting with `_`" })

/** Fields every POST body may carry (the SDKs add `origin` to every body). */
export const requestBaseFields = {
  origin: Schema.optional(Schema.String),
  integration: Schema.optional(Schema.NullOr(Integration))
}

/** Hidden upstream keys (`__agentInterop`, `__experimental_*`, …): accepted and ignored. */
const HiddenKeys = Schema.Record({ key: Schema.TemplateLiteral("__", Schema.String), value: Schema.Unknown })

/**
 * A request body: the given fields plus `origin`/`integration`, refusing any other key. Every
 * unknown key is reported (not only the first) so the 400 can name them all.
 */
export const strictBody = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct({ ...requestBaseFields, ...fields }, HiddenKeys).annotations({
    parseOptions: { onExcessProperty: "error", errors: "all" }
  })

/** ISO-8601 date-time string. */
export const IsoDate = Schema.String.annotations({ format: "date-time" })
