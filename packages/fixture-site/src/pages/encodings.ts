/**
 * `/encodings/*`: the same kind of short page in several encodings, some honest and some not,
 * for charset decoding tests. The bytes are produced here by small encoders (Node can only
 * encode UTF-8), and each page's expected text is exported so tests compare against it.
 *
 * - `utf8`: UTF-8, declared in the header.
 * - `latin1`: ISO-8859-1 bytes, declared in the header.
 * - `shift-jis`: Shift_JIS bytes, declared in the header.
 * - `bom`: UTF-8 with a byte order mark while the header claims ISO-8859-1 (the BOM wins).
 * - `meta-only`: windows-1251 bytes, declared only by `<meta charset>`.
 * - `http-equiv`: Shift_JIS bytes, declared only by `<meta http-equiv="Content-Type">`.
 * - `lying-header`: ISO-8859-1 bytes while the header claims UTF-8.
 */
import { route, send } from "../http.js"

/** Latin-1 bytes; every code point must be below 256. */
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff)

/** windows-1251 for ASCII and the basic Cyrillic block А–я. */
const cp1251 = (text: string): Uint8Array =>
  Uint8Array.from(text, (c) => {
    const code = c.charCodeAt(0)
    return code >= 0x410 && code <= 0x44f ? 0xc0 + (code - 0x410) : code & 0x7f
  })

/** Shift_JIS bytes of the few Japanese characters the page uses. */
const sjisTable: Readonly<Record<string, readonly [number, number]>> = {
  日: [0x93, 0xfa], 本: [0x96, 0x7b], 語: [0x8c, 0xea], こ: [0x82, 0xb1], ん: [0x82, 0xf1],
  に: [0x82, 0xc9], ち: [0x82, 0xbf], は: [0x82, 0xcd], 世: [0x90, 0xa2], 界: [0x8a, 0x45], "、": [0x81, 0x41]
}
const shiftJis = (text: string): Uint8Array =>
  Uint8Array.from([...text].flatMap((c) => sjisTable[c] ?? [c.charCodeAt(0) & 0x7f]))

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

const doc = (head: string, text: string): string =>
  `<!doctype html><html><head>${head}<title>Encoding test</title></head><body><p>${text}</p></body></html>`

interface EncodedPage {
  readonly contentType: string
  readonly bytes: Uint8Array
  /** The paragraph text a correct decoder recovers. */
  readonly text: string
  /** The WHATWG name of the encoding the bytes really are in. */
  readonly charset: string
}

const french = "Crème brûlée à la française, déjà vu"
const japanese = "こんにちは世界、日本語"
const russian = "Привет мир"

export const encodedPages: Readonly<Record<string, EncodedPage>> = {
  utf8: { contentType: "text/html; charset=utf-8", bytes: utf8(doc("", `${french} ${japanese}`)), text: `${french} ${japanese}`, charset: "utf-8" },
  latin1: { contentType: "text/html; charset=ISO-8859-1", bytes: latin1(doc("", french)), text: french, charset: "windows-1252" },
  "shift-jis": { contentType: "text/html; charset=Shift_JIS", bytes: shiftJis(doc("", japanese)), text: japanese, charset: "shift_jis" },
  bom: {
    contentType: "text/html; charset=iso-8859-1",
    bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(doc("", `${french} ${japanese}`))]),
    text: `${french} ${japanese}`,
    charset: "utf-8"
  },
  "meta-only": { contentType: "text/html", bytes: cp1251(doc('<meta charset="windows-1251">', russian)), text: russian, charset: "windows-1251" },
  "http-equiv": {
    contentType: "text/html",
    bytes: shiftJis(doc('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">', japanese)),
    text: japanese,
    charset: "shift_jis"
  },
  "lying-header": { contentType: "text/html; charset=utf-8", bytes: latin1(doc("", french)), text: french, charset: "windows-1252" }
}

export const encodingRoutes = [
  route(/^\/encodings\/([a-z0-9-]+)$/, ({ res, params }) => {
    const found = encodedPages[params[0] ?? ""]
    if (found === undefined) return send(res, 404, { "content-type": "text/plain" }, "no such encoding page")
    send(res, 200, { "content-type": found.contentType }, found.bytes)
  })
]
