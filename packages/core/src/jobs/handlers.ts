/**
 * Job handlers: what each kind of job does. Capabilities contribute a handler per kind; the
 * composition root gathers them into the `JobHandlers` registry the workers read.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { BadRequestError, type GleanerError } from "../errors.js"
import type { Job } from "../ports/store.js"

export interface JobHandler {
  readonly kind: string
  /** Runs one attempt; its value is stored as the job's JSON result. */
  readonly run: (job: Job) => Effect.Effect<unknown, GleanerError>
}

export class JobHandlers extends Context.Tag("@gleaner/core/JobHandlers")<JobHandlers, ReadonlyMap<string, JobHandler>>() {
  static readonly layer = (handlers: ReadonlyArray<JobHandler>): Layer.Layer<JobHandlers> =>
    Layer.succeed(this, new Map(handlers.map((h) => [h.kind, h])))
}

/** Decodes a job's payload with the kind's schema; a payload that does not fit fails for good. */
export const decodePayload = <A, I>(schema: Schema.Schema<A, I>) => (job: Job): Effect.Effect<A, BadRequestError> =>
  Schema.decodeUnknown(Schema.parseJson(schema))(job.payload).pipe(
    Effect.mapError((e) => new BadRequestError({ message: `Job ${job.id} has an invalid payload: ${e.message}` }))
  )
