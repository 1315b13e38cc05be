/**
 * A browser profile's saved state as Playwright reads and writes it (`storageState`): cookies and
 * each origin's local storage. Decoded with a Schema before it is handed to a new context, so a
 * damaged record is a clear error instead of a Playwright crash.
 */
import { InternalError } from "@gleaner/core"
import { Effect, Schema } from "effect"

export const StorageState = Schema.Struct({
  cookies: Schema.Array(Schema.Struct({
    name: Schema.String,
    value: Schema.String,
    domain: Schema.String,
    path: Schema.String,
    expires: Schema.Number,
    httpOnly: Schema.Boolean,
    secure: Schema.Boolean,
    sameSite: Schema.Literal("Strict", "Lax", "None")
  })),
  origins: Schema.Array(Schema.Struct({
    origin: Schema.String,
    localStorage: Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String }))
  }))
})
export type StorageState = typeof StorageState.Type

export const decodeStorageState = (json: string): Effect.Effect<StorageState, InternalError> =>
  Schema.decodeUnknown(Schema.parseJson(StorageState))(json).pipe(
    Effect.mapError(() => new InternalError({ message: "The browser profile's saved state could not be read; save it again with saveChanges" }))
  )
