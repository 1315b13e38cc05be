/**
 * Files the browser made: the directory BlobStore keeps them under unguessable keys, reads back
 * only well-formed keys, and drops whole days once they are older than retention; the linker
 * serves them on the request's origin, or inlines them when it must (no origin, zero data
 * retention, GLEANER_FILE_URLS=data).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import { makeDirectoryBlobStore, makeMemoryBlobStore } from "../src/files/blob-stores.js"
import { makeFileLinker, withPublicOrigin } from "../src/files/file-links.js"

const directory = mkdtempSync(join(tmpdir(), "gleaner-files-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const png = { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), contentType: "image/png" } as const
const day = 86_400_000

describe("directory BlobStore", () => {
  it.effect("keeps a file under an unguessable key and reads it back; other keys read nothing", () =>
    Effect.gen(function*() {
      const store = makeDirectoryBlobStore(directory)
      const key = yield* store.put(png)
      assert.match(key, /^\d{8}-[0-9a-f]{32}\.png$/)
      const back = yield* store.get(key)
      assert.deepStrictEqual(Option.map(back, (b) => [...b.bytes]), Option.some([...png.bytes]))
      assert.isTrue(Option.isNone(yield* store.get(key.replace(/[0-9a-f]{32}/, "0".repeat(32)))))
      assert.isTrue(Option.isNone(yield* store.get("../../etc/passwd")))
      assert.isTrue(Option.isNone(yield* store.get(`${key.slice(0, 9)}/../${key}`)))
      assert.notInclude(readdirSync(join(directory, key.slice(0, 8))).join(" "), ".tmp")
    }))

  it.effect("retention drops whole days older than the cut-off and keeps the rest", () =>
    Effect.gen(function*() {
      const store = makeDirectoryBlobStore(join(directory, "retention"))
      yield* TestClock.setTime(Date.UTC(2026, 0, 1, 12))
      const old = yield* store.put(png)
      yield* TestClock.setTime(Date.UTC(2026, 0, 9, 12))
      const recent = yield* store.put(png)
      const purged = yield* store.purgeBefore(Date.UTC(2026, 0, 9, 12) - 7 * day)
      assert.strictEqual(purged, 1)
      assert.isTrue(Option.isNone(yield* store.get(old)))
      assert.isTrue(Option.isSome(yield* store.get(recent)))
    }))
})

describe("file links", () => {
  it.effect("served on the request's origin; inlined without an origin, without keeping, or in data mode", () =>
    Effect.gen(function*() {
      const store = makeMemoryBlobStore()
      const served = makeFileLinker(store, "served")
      const url = yield* served(png, { keep: true }).pipe(withPublicOrigin("https://gleaner.example"))
      assert.match(url, /^https:\/\/gleaner\.example\/v2\/files\/\d{8}-[0-9a-f]{32}\.png$/)
      const key = url.split("/").at(-1) ?? ""
      assert.isTrue(Option.isSome(yield* store.get(key)))

      const dataUrl = `data:image/png;base64,${Buffer.from(png.bytes).toString("base64")}`
      assert.strictEqual(yield* served(png, { keep: true }), dataUrl)
      assert.strictEqual(yield* served(png, { keep: false }).pipe(withPublicOrigin("https://gleaner.example")), dataUrl)
      assert.strictEqual(yield* makeFileLinker(store, "data")(png, { keep: true }).pipe(withPublicOrigin("https://gleaner.example")), dataUrl)
      assert.strictEqual(yield* makeFileLinker(undefined, "served")(png, { keep: true }).pipe(withPublicOrigin("https://gleaner.example")), dataUrl)
    }))
})
