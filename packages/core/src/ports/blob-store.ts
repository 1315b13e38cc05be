/**
 * The BlobStore port: files Gleaner keeps and serves (screenshots, PDFs made by actions),
 * under keys the store makes unguessable. `files/` has the directory and in-memory layers.
 */
import { Context, type Effect, type Option } from "effect"
import type { InternalError } from "../errors.js"

export type BlobContentType = "image/png" | "image/jpeg" | "application/pdf"

export interface Blob {
  readonly bytes: Uint8Array
  readonly contentType: BlobContentType
}

export interface BlobStoreService {
  /** Keeps the blob; the key it answers is the only way to read it back. */
  readonly put: (blob: Blob) => Effect.Effect<string, InternalError>
  /** None for a key that is malformed, unknown or already purged. */
  readonly get: (key: string) => Effect.Effect<Option.Option<Blob>>
  /** Deletes the blobs stored before `beforeMs`; how many went. */
  readonly purgeBefore: (beforeMs: number) => Effect.Effect<number>
}

export class BlobStore extends Context.Tag("@gleaner/core/BlobStore")<BlobStore, BlobStoreService>() {}
