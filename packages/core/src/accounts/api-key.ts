/**
 * API keys in the official SDK's format: `fc-` followed by 32 lower-case hex digits. Only the
 * SHA-256 of a key is stored; the key itself is shown once, when it is made.
 */
import { createHash, randomBytes } from "node:crypto"

const KEY = /^fc-[0-9a-f]{32}$/

export const isApiKey = (value: string): boolean => KEY.test(value)

export const generateApiKey = (): string => `fc-${randomBytes(16).toString("hex")}`

export const hashApiKey = (key: string): string => createHash("sha256").update(key).digest("hex")

/** The part of a key that may be displayed: enough to tell keys apart, useless to an attacker. */
export const displayPrefix = (key: string): string => `${key.slice(0, 9)}…`
