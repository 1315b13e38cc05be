/**
 * BlobStore layers: a directory (the default, `<GLEANER_DATA_DIR>/files/<day>/<key>`, written
 * to a temporary name and renamed so a reader never sees half a file) and memory (tests, and
 * embedders that want nothing on disk). Retention drops whole days.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Clock, Effect, Layer, Option } from "effect"
import { GleanerConfig } from "../config.js"
import { InternalError } from "../errors.js"
import { type Blob, BlobStore, type BlobStoreService } from "../ports/blob-store.js"
import { dayOf, newBlobKey, parseBlobKey } from "./blob-keys.js"

const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** Days strictly before the day of `beforeMs` (a day is dropped once all of it is old enough). */
const isPurgeable = (day: string, beforeMs: number): boolean => /^\d{8}$/.test(day) && day < dayOf(beforeMs)

export const makeDirectoryBlobStore = (directory: string): BlobStoreService => ({
  put: (blob) =>
    Effect.gen(function*() {
      const key = newBlobKey(blob.contentType, yield* Clock.currentTimeMillis)
      const parsed = parseBlobKey(key)
      if (parsed === undefined) return yield* Effect.dieMessage(`malformed blob key ${key}`)
      const dayDir = join(directory, parsed.day)
      yield* Effect.tryPromise({
        try: async () => {
          await mkdir(dayDir, { recursive: true })
          const temporary = join(dayDir, `.${key}.tmp`)
          await writeFile(temporary, blob.bytes)
          await rename(temporary, join(dayDir, key))
        },
        catch: (cause) => new InternalError({ message: `Could not store a file: ${messageOf(cause)}` })
      })
      return key
    }),
  get: (key) => {
    const parsed = parseBlobKey(key)
    if (parsed === undefined) return Effect.succeed(Option.none())
    return Effect.promise(() =>
      readFile(join(directory, parsed.day, key)).then(
        (bytes): Option.Option<Blob> => Option.some({ bytes: new Uint8Array(bytes), contentType: parsed.contentType }),
        () => Option.none()
      )
    )
  },
  purgeBefore: (beforeMs) =>
    Effect.promise(async () => {
      const days = await readdir(directory).catch(() => [])
      let purged = 0
      for (const day of days.filter((d) => isPurgeable(d, beforeMs))) {
        purged += (await readdir(join(directory, day)).catch(() => [])).length
        await rm(join(directory, day), { recursive: true, force: true })
      }
      return purged
    })
})

export const makeMemoryBlobStore = (): BlobStoreService => {
  const blobs = new Map<string, Blob>()
  return {
    put: (blob) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const key = newBlobKey(blob.contentType, now)
        blobs.set(key, blob)
        return key
      }),
    get: (key) => Effect.sync(() => Option.fromNullable(blobs.get(key))),
    purgeBefore: (beforeMs) =>
      Effect.sync(() => {
        let purged = 0
        for (const key of blobs.keys()) {
          const day = parseBlobKey(key)?.day
          if (day !== undefined && isPurgeable(day, beforeMs)) {
            blobs.delete(key)
            purged += 1
          }
        }
        return purged
      })
  }
}

export const BlobStores = {
  directory: (directory: string): Layer.Layer<BlobStore> => Layer.succeed(BlobStore, makeDirectoryBlobStore(directory)),
  memory: (): Layer.Layer<BlobStore> => Layer.sync(BlobStore, makeMemoryBlobStore),
  /** `<GLEANER_DATA_DIR>/files`. */
  fromConfig: Layer.effect(BlobStore, Effect.map(GleanerConfig, (config) => makeDirectoryBlobStore(join(config.dataDir, "files"))))
} as const
