/**
 * Webhook signatures: `X-Firecrawl-Signature: sha256=<hex>`, the HMAC-SHA256 of the exact body
 * bytes sent (UTF-8), keyed with the team's secret. Receivers recompute it over the raw body they
 * got, before parsing it, and compare in constant time.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

export const signatureHeader = "x-firecrawl-signature"

/** `sha256=<hex HMAC-SHA256(secret, body)>`. */
export const webhookSignature = (secret: string, body: string): string =>
  `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`

/** True when `header` is the signature of `body` under `secret` (constant-time compare). */
export const verifyWebhookSignature = (secret: string, body: string, header: string | undefined): boolean => {
  if (header === undefined) return false
  const expected = Buffer.from(webhookSignature(secret, body))
  const given = Buffer.from(header)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** A new signing secret: 32 random bytes as hex. */
export const generateWebhookSecret = (): string => randomBytes(32).toString("hex")
