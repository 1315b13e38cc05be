/**
 * The BlobStore port: files Gleaner keeps and serves (screenshots, PDFs made by actions,
 * uploads), addressed by an unguessable key.
 */
import { Context, type Effect, type Option } from "effect"

export interface Blob {
  readonly bytes: Uint8Array
  readonly contentType: string
}

export class BlobStore extends Context.Tag("@gleaner/core/BlobStore")<BlobStore, {
  readonly put: (key: string, blob: Blob) => Effect.Effect<void>
  readonly get: (key: string) => Effect.Effect<Option.Option<Blob>>
  readonly remove: (key: string) => Effect.Effect<void>
}>() {}
