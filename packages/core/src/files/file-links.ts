/**
 * How a file the browser made (a screenshot, an action's PDF) appears in a document: a URL on
 * this server (`<origin>/v2/files/<key>`, the BlobStore keeps the bytes) or an inline `data:`
 * URL. Served URLs need the origin clients reach the server at: the HTTP adapter provides
 * `PublicOrigin` around each request, and job starts record it for the pages they scrape later.
 * Without an origin, a BlobStore, or with `GLEANER_FILE_URLS=data` or zero data retention, the
 * file is inlined.
 */
import { Context, Effect, Option } from "effect"
import type { InternalError } from "../errors.js"
import type { BlobStoreService } from "../ports/blob-store.js"
import type { ActionResults, BrowserFile } from "../ports/browser.js"

/** `scheme://host[:port][/base]` clients reach this server at, when known. */
export class PublicOrigin extends Context.Reference<PublicOrigin>()("@gleaner/core/PublicOrigin", {
  defaultValue: (): Option.Option<string> => Option.none()
}) {}

/** Runs `effect` with a known origin (or leaves the current one when `origin` is undefined). */
export const withPublicOrigin = (origin: string | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  origin === undefined ? effect : Effect.provideService(effect, PublicOrigin, Option.some(origin))

/** The path files are served under; the key after it is the capability to read one. */
export const filesPath = "/v2/files/"

export const dataUrlOf = (file: BrowserFile): string => `data:${file.contentType};base64,${Buffer.from(file.bytes).toString("base64")}`

export type FileLinker = (file: BrowserFile, options: { readonly keep: boolean }) => Effect.Effect<string, InternalError>

/** Action results as a document carries them: their screenshots and PDFs as URLs. */
export const linkActionResults = (link: FileLinker, results: ActionResults, options: { readonly keep: boolean }) =>
  Effect.gen(function*() {
    const urls = (files: ActionResults["screenshots"]) => Effect.forEach(files, (file) => link(file, options))
    return {
      screenshots: yield* urls(results.screenshots),
      scrapes: results.scrapes,
      javascriptReturns: results.javascriptReturns,
      pdfs: yield* urls(results.pdfs)
    }
  })

export const makeFileLinker = (blobs: BlobStoreService | undefined, mode: "served" | "data"): FileLinker => (file, { keep }) =>
  Effect.gen(function*() {
    const origin = yield* PublicOrigin
    if (mode === "data" || !keep || blobs === undefined || Option.isNone(origin)) return dataUrlOf(file)
    const key = yield* blobs.put(file)
    return `${origin.value}${filesPath}${key}`
  })
