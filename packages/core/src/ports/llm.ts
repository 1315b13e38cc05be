/**
 * The Llm port: structured output from an OpenAI-compatible model. Without one configured,
 * features fall back to deterministic local methods and say so in a `warning`.
 */
import { Context, Effect, Layer } from "effect"
import { type GleanerError, ServiceUnavailableError } from "../errors.js"

export interface LlmRequest {
  readonly system?: string
  readonly prompt: string
  /** JSON Schema the answer must satisfy. */
  readonly jsonSchema: unknown
  readonly name: string
}

export interface LlmService {
  readonly available: boolean
  readonly generateObject: (request: LlmRequest) => Effect.Effect<unknown, GleanerError>
}

export class Llm extends Context.Tag("@gleaner/core/Llm")<Llm, LlmService>() {
  static readonly unavailable = Layer.succeed(this, {
    available: false,
    generateObject: () =>
      Effect.fail(new ServiceUnavailableError({ message: "No LLM is configured (set GLEANER_LLM_BASE_URL)." }))
  })
}
