/**
 * The Mailer port: e-mail notifications (monitors), sent through an SMTP relay the operator
 * configures.
 */
import { Context, type Effect } from "effect"
import type { GleanerError } from "../errors.js"

export interface Mail {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  readonly html?: string
}

export class Mailer extends Context.Tag("@gleaner/core/Mailer")<Mailer, {
  readonly send: (mail: Mail) => Effect.Effect<void, GleanerError>
}>() {}
