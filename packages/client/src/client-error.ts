/**
 * The error every client method rejects with: the same fields as the official SDK's `SdkError`
 * (`message`, `status`, `code`, `details`), so code written against the SDK handles it unchanged.
 */
import { Cause } from "effect"
import { errorStatus, GleanerError } from "@gleaner/core"
import { Schema } from "effect"

export class GleanerClientError extends Error {
  override readonly name = "GleanerClientError"
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly details: unknown
  ) {
    super(message)
  }
}

const isGleanerError = Schema.is(GleanerError)

/** Turns a failed run into the error a Promise caller sees. */
export const toClientError = (cause: Cause.Cause<unknown>): Error => {
  const error = Cause.squash(cause)
  if (isGleanerError(error)) return new GleanerClientError(error.message, errorStatus(error.code), error.code, error.details)
  return error instanceof Error ? error : new Error(String(error))
}
