/**
 * The deterministic detectors behind `redactPII` (API.md §2.2). Each finds candidate spans with a
 * pattern and keeps only those that pass a check a pattern cannot make: the Luhn checksum and an
 * issuer prefix for payment cards, the ISO 13616 length and mod-97 checksum for IBANs, the
 * assigned-range rules for US Social Security numbers, digit counts and context for phone numbers
 * (dates, prices, versions, IP addresses and ISBN/order numbers are refused), known key formats
 * and character entropy for secrets. PERSON and LOCATION are detected only after explicit cues
 * (a `Name:` or `Address:` label, an honorific, a numbered street address); free-standing names
 * and places are not found, which the caller reports.
 */

/** The entity groups of the `redactPII` option. */
export type PiiEntity = "EMAIL" | "PHONE" | "FINANCIAL" | "SECRET" | "PERSON" | "LOCATION"

/** A found span of `text`, `[start, end)`. `keepTail` digits stay visible in mask style. */
export interface PiiSpan {
  readonly start: number
  readonly end: number
  readonly entity: PiiEntity
  readonly keepTail?: number
}

const spansOf = (text: string, pattern: RegExp, entity: PiiEntity, accept: (match: RegExpExecArray) => boolean = () => true, group = 0): Array<PiiSpan> => {
  const spans: Array<PiiSpan> = []
  for (const match of text.matchAll(pattern)) {
    const value = match[group]
    if (value === undefined || value === "" || !accept(match)) continue
    const start = (match.index ?? 0) + match[0].indexOf(value)
    spans.push({ start, end: start + value.length, entity })
  }
  return spans
}

const digitsOf = (text: string): string => text.replace(/\D/g, "")

// ---- e-mail -------------------------------------------------------------------------------

const FILE_SUFFIXES = new Set(["png", "jpg", "jpeg", "gif", "webp", "svg", "avif", "css", "js", "ico", "bmp"])

export const findEmails = (text: string): Array<PiiSpan> =>
  spansOf(text, /(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.([A-Za-z]{2,24})(?![\w-])/g, "EMAIL", (m) =>
    !FILE_SUFFIXES.has((m[1] ?? "").toLowerCase()))

// ---- payment cards, IBAN, national ids -----------------------------------------------------

const luhnValid = (digits: string): boolean => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

// Visa, Mastercard (incl. 2-series), Amex, Discover, JCB, Diners, UnionPay, Maestro.
const CARD_ISSUER = /^(?:4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|6(?:011|5|4[4-9]|2)|35(?:2[89]|[3-8]\d)|3(?:0[0-5]|[68])|5[06-9])/

// Amex numbers have 15 digits, Visa 13, 16 or 19, Mastercard 16; other networks 14 to 19.
const cardLengthOk = (digits: string): boolean =>
  /^3[47]/.test(digits) ? digits.length === 15
  : digits.startsWith("4") ? [13, 16, 19].includes(digits.length)
  : /^(?:5[1-5]|2[2-7])/.test(digits) ? digits.length === 16
  : digits.length >= 14

export const findCards = (text: string): Array<PiiSpan> =>
  spansOf(text, /(?<![\w.,/-])\d(?:[ -]?\d){12,18}(?![\w/]|[.,]\d)/g, "FINANCIAL", (m) => {
    const raw = m[0]
    const digits = digitsOf(raw)
    const separators = new Set(raw.replace(/\d/g, ""))
    return separators.size <= 1 && CARD_ISSUER.test(digits) && cardLengthOk(digits) && luhnValid(digits)
  }).map((span) => ({ ...span, keepTail: 4 }))

const IBAN_LENGTHS: Record<string, number> = Object.fromEntries(
  ("AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20 EG29 ES24 FI18 FO18 FR27 " +
    "GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24 " +
    "ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 " +
    "TR26 UA29 VA22 VG24 XK20")
    .split(" ")
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))])
)

const ibanValid = (raw: string): boolean => {
  const iban = raw.replace(/ /g, "")
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const char of rearranged) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55)
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder === 1
}

export const findIbans = (text: string): Array<PiiSpan> =>
  spansOf(text, /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/g, "FINANCIAL", (m) => ibanValid(m[0]))

// SSNs never start with 000, 666 or 9xx, never have group 00 or serial 0000; two numbers were
// published in advertising and are not anyone's.
export const findUsSsns = (text: string): Array<PiiSpan> => [
  ...spansOf(text, /(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])/g, "FINANCIAL", (m) => !["078-05-1120", "219-09-9999"].includes(m[0])),
  ...spansOf(text, /\b(?:SSN|social security(?: number| no\.?)?)\s*(?:#|:)?\s*((?!000|666|9\d\d)\d{3} ?(?!00)\d{2} ?(?!0000)\d{4})\b/gi, "FINANCIAL", () => true, 1)
]

// UK National Insurance numbers: two prefix letters (D, F, I, Q, U, V never; O never second;
// some pairs never issued), six digits, suffix A–D.
export const findUkNinos = (text: string): Array<PiiSpan> =>
  spansOf(text, /\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g, "FINANCIAL")

// ---- phone numbers ---------------------------------------------------------------------------

const PHONE_CUE = /\b(?:phone|tel|telephone|mobile|cell|fax|call|whatsapp|contact|hotline|ph)\.?(?:\s+(?:us|me|them))?(?:\s+(?:at|on))?\s*(?:no\.?|number|#)?\s*[:=]?\s*$/i
const NOT_PHONE_CUE = /(?:\b(?:isbn(?:-1[03])?|issn|order|invoice|sku|ref(?:erence)?|no\.|id|serial|patent|version|v|doi|zip|price|total|qty)|#)\s*[:=#]?\s*$/i
const CURRENCY_BEFORE = /[$€£¥₹₽¢]\s*$|\b(?:usd|eur|gbp|chf|jpy|cad|aud)\s*$/i
const AFTER_NOT_PHONE = /^\s*(?:%|[$€£¥]|usd|eur|gbp|kg|km|mb|gb|kb|ms|px|mm|cm)\b|^[.,]\d|^-[\dxX]/i

const isbnValid = (digits: string): boolean => {
  if (digits.length === 10) {
    const sum = [...digits].reduce((total, d, i) => total + Number(d) * (10 - i), 0)
    return sum % 11 === 0
  }
  if (digits.length === 13 && /^97[89]/.test(digits)) {
    const sum = [...digits].reduce((total, d, i) => total + Number(d) * (i % 2 === 0 ? 1 : 3), 0)
    return sum % 10 === 0
  }
  return false
}

// Shapes that are numbers of another kind: dates, versions, year ranges, grouped thousands,
// SSN-shaped ids (handled as FINANCIAL) and hyphenated ISBNs with a valid check digit.
const notPhoneShape = (candidate: string): boolean =>
  /^\d{3}-\d{2}-\d{4}$/.test(candidate) ||
  (/^\d+(?:-\d+){3,4}$/.test(candidate) && isbnValid(digitsOf(candidate))) ||
  /^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/.test(candidate) ||
  /^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/.test(candidate) ||
  /^\d{1,4}(?:\.\d{1,4}){2,}$/.test(candidate) ||
  /^\d{4}\s*[-–]\s*\d{4}$/.test(candidate) ||
  /^\d{1,3}(?:[,.]\d{3})+$/.test(candidate)

const phoneShapeOk = (candidate: string, cued: boolean): boolean => {
  const digits = digitsOf(candidate)
  if (digits.length < 7 || digits.length > 15 || notPhoneShape(candidate)) return false
  if (/^(?:\+|00)/.test(candidate)) return digits.length >= 8
  if (/^\(?[2-9]\d{2}\)?[ .-]?[2-9]\d{2}[ .-]\d{4}$/.test(candidate) && /[ .)-]/.test(candidate)) return true
  // National format with trunk prefix: 030 1234567, 07700 900123, 01 23 45 67 89.
  if (/^\(?0[1-9]/.test(candidate) && /[ ./)-]/.test(candidate) && digits.length >= 9 && digits.length <= 12) return true
  return cued
}

export const findPhones = (text: string): Array<PiiSpan> =>
  spansOf(text, /(?<![\w.,/+-])(?:\+|00)?\(?\d[\d ().\-/]{5,22}\d(?![\w]|[.,]\d)/g, "PHONE", (m) => {
    const start = m.index ?? 0
    const before = text.slice(Math.max(0, start - 30), start)
    const after = text.slice(start + m[0].length, start + m[0].length + 6)
    if (CURRENCY_BEFORE.test(before) || AFTER_NOT_PHONE.test(after)) return false
    const cued = PHONE_CUE.test(before)
    if (!cued && NOT_PHONE_CUE.test(before)) return false
    return (m[0].match(/\(/g) ?? []).length === (m[0].match(/\)/g) ?? []).length && phoneShapeOk(m[0], cued)
  })

// ---- secrets ---------------------------------------------------------------------------------

const SECRET_PATTERNS: ReadonlyArray<RegExp> = [
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
  /\bsk-(?:proj-|ant-(?:api\d\d-)?|or-v1-)?[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g,
  /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bfc-[0-9a-f]{32}\b/g,
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}\b/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bhf_[A-Za-z0-9]{30,}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g
]

const shannonBitsPerChar = (value: string): number => {
  const counts = new Map<string, number>()
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1)
  return [...counts.values()].reduce((bits, count) => {
    const p = count / value.length
    return bits - p * Math.log2(p)
  }, 0)
}

const looksRandom = (value: string): boolean =>
  value.length >= 16 && /\d/.test(value) && /[A-Za-z]/.test(value) && shannonBitsPerChar(value) >= 3.5

const looksLikePassword = (value: string): boolean => value.length >= 8 && /[A-Za-z]/.test(value) && /[\d\W_]/.test(value)

export const findSecrets = (text: string): Array<PiiSpan> => [
  ...SECRET_PATTERNS.flatMap((pattern) => spansOf(text, pattern, "SECRET")),
  ...spansOf(text, /\b(?:api[_-]?key|secret|token|access[_-]?key|auth|client[_-]?secret|private[_-]?key|[A-Za-z]+_(?:KEY|SECRET|TOKEN))["']?\s*[:=]\s*["']?([A-Za-z0-9_\-+/=.]{16,})/gi, "SECRET", (m) => looksRandom(m[1] ?? ""), 1),
  ...spansOf(text, /\bBearer\s+([A-Za-z0-9_\-+/=.]{20,})/g, "SECRET", (m) => looksRandom(m[1] ?? ""), 1),
  ...spansOf(text, /\b(?:password|passwd|pwd)["']?\s*[:=]\s*["']?([^\s"'<>]+)/gi, "SECRET", (m) => looksLikePassword(m[1] ?? ""), 1)
]

// ---- people and places, by explicit cue only ---------------------------------------------------

const NAME_WORDS = "[A-Z][\\p{L}'’-]+(?:[ \\t]+(?:[A-Z]\\.|[A-Z][\\p{L}'’-]+|van|von|de|da|del|der|di|le|la|bin|al)){0,3}"

/** A case-insensitive spelling of a label, so the name after it can stay case-sensitive. */
const anyCase = (label: string): string => label.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`)

const PERSON_LABELS = [
  "full name", "first name", "last name", "given name", "customer name", "contact name", "patient name", "employee name",
  "account holder", "cardholder", "name", "contact person", "surname", "recipient", "sender", "signed by", "attn"
].map(anyCase).join("|")

export const findPersons = (text: string): Array<PiiSpan> => [
  ...spansOf(text, new RegExp(`\\b(?:${PERSON_LABELS})\\.?[ \\t]*[:=][ \\t]*(?:\\*\\*)?(${NAME_WORDS})`, "gu"), "PERSON", () => true, 1),
  ...spansOf(text, new RegExp(`\\b(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sir|Madam|Herr|Frau|Mme)\\.?[ \\t]+(${NAME_WORDS})`, "gu"), "PERSON", () => true, 1),
  ...spansOf(text, new RegExp(`^(?:Dear|Hi|Hello)[ \\t]+(${NAME_WORDS}),`, "gmu"), "PERSON", () => true, 1)
]

const STREET_SUFFIX = "Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Square|Sq|Parkway|Pkwy|Highway|Hwy"

export const findLocations = (text: string): Array<PiiSpan> => [
  ...spansOf(text, /\b(?:(?:home |street |postal |mailing |shipping |billing |delivery |residential )?address|street|city|location|lives in|resides in|domicile)\s*[:=]\s*(?:\*\*)?([^\n|*]{3,120}?)\s*(?=$|\n|\||\*\*)/gimu, "LOCATION", () => true, 1),
  ...spansOf(text, new RegExp(`\\b\\d{1,5}[ \\t]+(?:[A-Z][\\p{L}'’.-]*[ \\t]+){1,4}(?:${STREET_SUFFIX})\\b\\.?(?:,?[ \\t]+(?:Apt|Suite|Unit|#)[ \\t]*[\\w-]+)?`, "gu"), "LOCATION"),
  ...spansOf(text, /\b[A-ZÄÖÜ][\p{L}-]*(?:straße|strasse|str\.|weg|gasse|platz|allee)[ \t]+\d{1,4}[a-z]?\b/gu, "LOCATION")
]

/** Every detector by entity group. */
export const DETECTORS: Record<PiiEntity, (text: string) => Array<PiiSpan>> = {
  EMAIL: findEmails,
  PHONE: findPhones,
  FINANCIAL: (text) => [...findCards(text), ...findIbans(text), ...findUsSsns(text), ...findUkNinos(text)],
  SECRET: findSecrets,
  PERSON: findPersons,
  LOCATION: findLocations
}
