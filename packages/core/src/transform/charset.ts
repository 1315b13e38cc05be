/**
 * Turns a response body into text. The encoding is chosen as the WHATWG encoding sniffing
 * algorithm does — a byte order mark wins, then the Content-Type charset, then a
 * `<meta charset>` / `http-equiv` declaration (or an XML declaration) in the first 2 KB, then a
 * default — with two corrections for the commonest lies on the web, because a scraper wants the
 * text the author wrote rather than the mojibake a browser would faithfully show:
 *
 * - declared (or defaulted) UTF-8 whose bytes are mostly invalid UTF-8 is read as windows-1252;
 * - declared windows-1252 (`iso-8859-1`, `latin1`, `us-ascii` are its aliases) whose bytes are
 *   valid UTF-8 with at least one multi-byte sequence is read as UTF-8.
 *
 * Other declared encodings are trusted. Decoding uses `TextDecoder` (full ICU in Node 20),
 * except windows-1252: Node 20's decoder for it takes an ISO-8859-1 fast path and turns
 * 0x80–0x9F (curly quotes, dashes, €) into C1 control characters, so that table is ours.
 */

export type CharsetSource = "bom" | "header" | "meta" | "xml" | "sniffed" | "default"

export interface DecodedBody {
  readonly text: string
  /** The WHATWG name of the encoding used, e.g. `utf-8`, `windows-1252`, `shift_jis`. */
  readonly charset: string
  /** Where the encoding came from; `sniffed` when a declaration was overruled by the bytes. */
  readonly source: CharsetSource
}

/** How far into the body `<meta charset>` is looked for. */
const prescanBytes = 2048

/** The WHATWG encoding name for a label, or `undefined` if the label is unknown. */
export const encodingForLabel = (label: string): string | undefined => {
  try {
    return new TextDecoder(label.trim()).encoding
  } catch {
    return undefined
  }
}

const bomEncoding = (bytes: Uint8Array): string | undefined => {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8"
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be"
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le"
  return undefined
}

/** The charset parameter of a Content-Type header value, if any. */
export const charsetOfContentType = (contentType: string | undefined): string | undefined => {
  const match = contentType === undefined ? null : /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(contentType)
  return match === null ? undefined : (match[1] ?? match[2])
}

/** Bytes as a string of code units 0–255: enough to scan ASCII markup without decoding. */
const asciiView = (bytes: Uint8Array): string => {
  let out = ""
  for (const byte of bytes) out += String.fromCharCode(byte)
  return out
}

const attributesOf = (tag: string): Map<string, string> => {
  const attributes = new Map<string, string>()
  for (const m of tag.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = (m[1] ?? "").toLowerCase()
    if (!attributes.has(name)) attributes.set(name, m[2] ?? m[3] ?? m[4] ?? "")
  }
  return attributes
}

const metaCharset = (tag: string): string | undefined => {
  const attributes = attributesOf(tag)
  const charset = attributes.get("charset")
  if (charset !== undefined) return charset
  if (attributes.get("http-equiv")?.toLowerCase() !== "content-type") return undefined
  return /charset\s*=\s*["']?([^"';\s]+)/i.exec(attributes.get("content") ?? "")?.[1]
}

/** The encoding an HTML `<meta>` declares in the first bytes; UTF-16 means UTF-8 there (WHATWG). */
const declaredInMarkup = (bytes: Uint8Array): { readonly encoding: string; readonly source: "meta" | "xml" } | undefined => {
  const head = asciiView(bytes.subarray(0, prescanBytes)).replace(/<!--[\s\S]*?(?:-->|$)/g, "")
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1]
  for (const m of head.matchAll(/<meta\b([^>]*)>?/gi)) {
    const encoding = encodingForLabel(metaCharset(m[1] ?? "") ?? "")
    if (encoding === undefined) continue
    if (encoding === "utf-16le" || encoding === "utf-16be") return { encoding: "utf-8", source: "meta" }
    if (encoding === "x-user-defined") return { encoding: "windows-1252", source: "meta" }
    return { encoding, source: "meta" }
  }
  const xmlEncoding = xml === undefined ? undefined : encodingForLabel(xml)
  return xmlEncoding === undefined ? undefined : { encoding: xmlEncoding, source: "xml" }
}

/** Code points of windows-1252 bytes 0x80–0x9F (WHATWG index); the other bytes are Latin-1. */
const cp1252High = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178
]

const decodeWindows1252 = (bytes: Uint8Array): string => {
  const chunks: Array<string> = []
  for (let start = 0; start < bytes.length; start += 8192) {
    const units = Uint16Array.from(bytes.subarray(start, start + 8192), (b) => (b >= 0x80 && b < 0xa0 ? cp1252High[b - 0x80] ?? b : b))
    chunks.push(String.fromCharCode(...units))
  }
  return chunks.join("")
}

/** `TextDecoder`, with our windows-1252 table in place of Node's. */
const decode = (bytes: Uint8Array, encoding: string): string =>
  encoding === "windows-1252" ? decodeWindows1252(bytes) : new TextDecoder(encoding).decode(bytes)

const isValidUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

const hasNonAscii = (bytes: Uint8Array): boolean => bytes.some((byte) => byte >= 0x80)

/** Lenient UTF-8, unless replacement characters outnumber the real non-ASCII characters. */
const decodeUtf8OrLatin = (bytes: Uint8Array, source: CharsetSource): DecodedBody => {
  const text = new TextDecoder("utf-8").decode(bytes)
  if (isValidUtf8(bytes)) return { text, charset: "utf-8", source }
  let replaced = 0
  let genuine = 0
  for (const char of text) {
    if (char === "\uFFFD") replaced++
    else if (char.charCodeAt(0) >= 0x80) genuine++
  }
  if (replaced <= genuine) return { text, charset: "utf-8", source }
  return { text: decodeWindows1252(bytes), charset: "windows-1252", source: "sniffed" }
}

const decodeAs = (bytes: Uint8Array, encoding: string, source: CharsetSource): DecodedBody => {
  if (encoding === "utf-8") return decodeUtf8OrLatin(bytes, source)
  if (encoding === "windows-1252" && hasNonAscii(bytes) && isValidUtf8(bytes)) {
    return { text: new TextDecoder("utf-8").decode(bytes), charset: "utf-8", source: "sniffed" }
  }
  return { text: decode(bytes, encoding), charset: encoding, source }
}

/**
 * Decodes a body: BOM, then the Content-Type charset, then a declaration in the markup, then
 * UTF-8 (windows-1252 when the bytes are plainly not UTF-8). A BOM is removed from the text.
 */
export const decodeBody = (bytes: Uint8Array, contentType: string | undefined): DecodedBody => {
  const bom = bomEncoding(bytes)
  if (bom !== undefined) return { text: decode(bytes, bom), charset: bom, source: "bom" }
  const header = encodingForLabel(charsetOfContentType(contentType) ?? "")
  if (header !== undefined) return decodeAs(bytes, header, "header")
  const markup = declaredInMarkup(bytes)
  if (markup !== undefined) return decodeAs(bytes, markup.encoding, markup.source)
  return decodeUtf8OrLatin(bytes, "default")
}
