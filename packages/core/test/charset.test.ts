import { describe, expect, it } from "vitest"
import { charsetOfContentType, decodeBody, encodingForLabel } from "@gleaner/core"

const utf8 = (text: string) => new TextEncoder().encode(text)
/** Latin-1 bytes (code points below 256 only). */
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))
const concat = (...parts: Array<Uint8Array | Array<number>>) => Uint8Array.from(parts.flatMap((p) => [...p]))
/** "日本語" in Shift_JIS. */
const nihongoSjis = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]
/** "Привет" in windows-1251. */
const privetCp1251 = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]

describe("charsetOfContentType", () => {
  it("reads quoted and bare charset parameters in any case", () => {
    expect(charsetOfContentType("text/html; charset=UTF-8")).toBe("UTF-8")
    expect(charsetOfContentType('text/html;Charset="Shift_JIS"')).toBe("Shift_JIS")
    expect(charsetOfContentType("text/html; foo=bar; charset=euc-kr")).toBe("euc-kr")
    expect(charsetOfContentType("text/html")).toBeUndefined()
    expect(charsetOfContentType(undefined)).toBeUndefined()
  })

  it("maps labels to WHATWG encoding names", () => {
    expect(encodingForLabel("latin1")).toBe("windows-1252")
    expect(encodingForLabel("ISO-8859-1")).toBe("windows-1252")
    expect(encodingForLabel("sjis")).toBe("shift_jis")
    expect(encodingForLabel("no-such-charset")).toBeUndefined()
  })
})

describe("decodeBody", () => {
  it("uses the header charset", () => {
    expect(decodeBody(utf8("<p>Grüße</p>"), "text/html; charset=utf-8")).toEqual({
      text: "<p>Grüße</p>",
      charset: "utf-8",
      source: "header"
    })
    expect(decodeBody(latin1("<p>Café</p>"), "text/html; charset=iso-8859-1")).toMatchObject({
      text: "<p>Café</p>",
      charset: "windows-1252"
    })
    expect(decodeBody(concat(utf8("<p>"), nihongoSjis, utf8("</p>")), "text/html; charset=Shift_JIS")).toMatchObject({
      text: "<p>日本語</p>",
      charset: "shift_jis"
    })
  })

  it("decodes windows-1252's 0x80–0x9F as punctuation, not C1 controls (Node 20's decoder does not)", () => {
    expect(decodeBody(Uint8Array.of(0x80, 0x20, 0x93, 0x41, 0x94, 0x20, 0x96, 0x85), "text/plain; charset=iso-8859-1").text).toBe("€ “A” –…")
  })

  it("lets a byte order mark win over the header (WHATWG)", () => {
    const body = concat([0xef, 0xbb, 0xbf], utf8("<p>Ünïcödé</p>"))
    expect(decodeBody(body, "text/html; charset=iso-8859-1")).toEqual({ text: "<p>Ünïcödé</p>", charset: "utf-8", source: "bom" })
    const utf16 = concat([0xff, 0xfe], [0x48, 0x00, 0x69, 0x00])
    expect(decodeBody(utf16, undefined)).toEqual({ text: "Hi", charset: "utf-16le", source: "bom" })
  })

  it("reads <meta charset> and http-equiv when the header has no charset", () => {
    const meta = concat(utf8('<html><head><meta charset="windows-1251"><title>'), privetCp1251, utf8("</title>"))
    expect(decodeBody(meta, "text/html")).toMatchObject({ text: expect.stringContaining("Привет"), charset: "windows-1251", source: "meta" })
    const equiv = concat(utf8('<meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><p>'), nihongoSjis)
    expect(decodeBody(equiv, undefined)).toMatchObject({ text: expect.stringContaining("日本語"), charset: "shift_jis", source: "meta" })
    const single = concat(utf8("<meta http-equiv=content-type content='text/html;charset=euc-kr'>"))
    expect(decodeBody(single, undefined).charset).toBe("euc-kr")
  })

  it("ignores declarations inside comments, unknown labels and those past the first 2 KB", () => {
    const commented = utf8('<!-- <meta charset="shift_jis"> --><meta charset="bogus"><p>plain</p>')
    expect(decodeBody(commented, undefined)).toMatchObject({ charset: "utf-8", source: "default" })
    const late = concat(utf8(`<p>${"x".repeat(3000)}</p><meta charset="shift_jis">`))
    expect(decodeBody(late, undefined).source).toBe("default")
  })

  it("treats a UTF-16 meta declaration as UTF-8 and reads XML declarations", () => {
    expect(decodeBody(utf8('<meta charset="utf-16"><p>é</p>'), undefined)).toMatchObject({ charset: "utf-8", source: "meta" })
    const xml = concat(utf8('<?xml version="1.0" encoding="ISO-8859-1"?><rss>'), latin1("é"))
    expect(decodeBody(xml, "application/rss+xml")).toMatchObject({ text: '<?xml version="1.0" encoding="ISO-8859-1"?><rss>é', source: "xml" })
  })

  it("defaults to UTF-8, falling back to windows-1252 for bytes that are plainly not UTF-8", () => {
    expect(decodeBody(utf8("<p>naïve</p>"), undefined)).toEqual({ text: "<p>naïve</p>", charset: "utf-8", source: "default" })
    expect(decodeBody(latin1("<p>naïve café</p>"), undefined)).toEqual({
      text: "<p>naïve café</p>",
      charset: "windows-1252",
      source: "sniffed"
    })
    expect(decodeBody(concat(latin1("<p>"), [0x93], latin1("quoted"), [0x94]), undefined).text).toBe("<p>\u201Cquoted\u201D")
  })

  it("overrules a header that lies, in the two common directions", () => {
    expect(decodeBody(latin1("<p>Crème brûlée</p>"), "text/html; charset=utf-8")).toEqual({
      text: "<p>Crème brûlée</p>",
      charset: "windows-1252",
      source: "sniffed"
    })
    expect(decodeBody(utf8("<p>Crème brûlée</p>"), "text/html; charset=iso-8859-1")).toEqual({
      text: "<p>Crème brûlée</p>",
      charset: "utf-8",
      source: "sniffed"
    })
  })

  it("keeps UTF-8 when a few bytes are broken among many good characters", () => {
    const body = concat(utf8("<p>日本語のテキスト"), [0xff], utf8("です</p>"))
    const decoded = decodeBody(body, "text/html; charset=utf-8")
    expect(decoded.charset).toBe("utf-8")
    expect(decoded.text).toBe("<p>日本語のテキスト\uFFFDです</p>")
  })
})
