/**
 * Blob keys: `<yyyymmdd>-<32 hex>.<ext>`. The day (UTC) lets retention drop a whole day at
 * once; 128 random bits make the key unguessable, so a key in a URL is the capability to read it.
 */
import { randomBytes } from "node:crypto"
import type { BlobContentType } from "../ports/blob-store.js"

const extensions = { "image/png": "png", "image/jpeg": "jpg", "application/pdf": "pdf" } as const satisfies Record<BlobContentType, string>
const byExtension = new Map<string, BlobContentType>([["png", "image/png"], ["jpg", "image/jpeg"], ["pdf", "application/pdf"]])

const keyPattern = /^(\d{8})-([0-9a-f]{32})\.(png|jpg|pdf)$/

/** The UTC day of a time as `yyyymmdd`. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "")

export const newBlobKey = (contentType: BlobContentType, nowMs: number): string =>
  `${dayOf(nowMs)}-${randomBytes(16).toString("hex")}.${extensions[contentType]}`

/** The parts of a well-formed key; undefined for anything else (so no path can be smuggled in). */
export const parseBlobKey = (key: string): { readonly day: string; readonly contentType: BlobContentType } | undefined => {
  const match = keyPattern.exec(key)
  const contentType = match?.[3] === undefined ? undefined : byExtension.get(match[3])
  return match?.[1] === undefined || contentType === undefined ? undefined : { day: match[1], contentType }
}
