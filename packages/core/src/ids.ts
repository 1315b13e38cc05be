/**
 * Identifiers. Job and resource ids are UUIDv7 like upstream's: time-ordered, so they sort by
 * creation and index well, with 74 random bits so they cannot be guessed.
 */
import { randomBytes } from "node:crypto"
import { Clock, Effect } from "effect"

/** A UUIDv7 for the given time (epoch ms). */
export const uuidv7At = (ms: number): string => {
  const bytes = randomBytes(16)
  const time = BigInt(Math.max(0, Math.floor(ms)))
  for (let i = 0; i < 6; i++) bytes[i] = Number((time >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = bytes.toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** A UUIDv7 for the current time of the Effect clock. */
export const uuidv7: Effect.Effect<string> = Effect.map(Clock.currentTimeMillis, uuidv7At)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** True for any RFC 4122 shaped UUID (upstream checks job ids this way before looking them up). */
export const isUuid = (value: string): boolean => UUID.test(value)
