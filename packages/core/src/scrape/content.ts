/**
 * What kind of body a fetch returned, from its Content-Type and, when that is missing or vague,
 * its first bytes and the URL's extension. Decides which producer turns it into a document.
 */

export type ContentKind =
  | { readonly kind: "html" }
  | { readonly kind: "pdf" }
  | { readonly kind: "text"; readonly language: "json" | "xml" | "" }
  | { readonly kind: "unsupported"; readonly label: string }

const startsWith = (bytes: Uint8Array, text: string) =>
  bytes.length >= text.length && [...text].every((c, i) => bytes[i] === c.charCodeAt(0))

const officeTypes: Readonly<Record<string, string>> = {
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "DOCX",
  "application/msword": "DOC",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "XLSX",
  "application/vnd.ms-excel": "XLS",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "PPTX",
  "application/vnd.ms-powerpoint": "PPT",
  "application/vnd.oasis.opendocument.text": "ODT",
  "application/rtf": "RTF",
  "application/epub+zip": "EPUB",
  "application/zip": "ZIP"
}

const firstText = (bytes: Uint8Array) => new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 512)).trimStart().toLowerCase()

export const classifyContent = (contentType: string | null, body: Uint8Array, url: string): ContentKind => {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  if (type === "application/pdf" || startsWith(body, "%PDF-")) return { kind: "pdf" }
  const office = officeTypes[type]
  if (office !== undefined) return { kind: "unsupported", label: `${office} (${type})` }
  if (type === "text/html" || type === "application/xhtml+xml") return { kind: "html" }
  if (type.startsWith("image/") || type.startsWith("audio/") || type.startsWith("video/") || type === "application/octet-stream") {
    return { kind: "unsupported", label: type }
  }
  if (type === "application/json" || type.endsWith("+json")) return { kind: "text", language: "json" }
  if (type === "text/xml" || type === "application/xml" || type.endsWith("+xml")) {
    return firstText(body).includes("<html") ? { kind: "html" } : { kind: "text", language: "xml" }
  }
  if (type.startsWith("text/") && type !== "text/plain") return { kind: "text", language: "" }
  const head = firstText(body)
  if (head.startsWith("<!doctype html") || head.startsWith("<html") || /<(head|body|div|p|title)[\s>]/.test(head)) {
    return { kind: "html" }
  }
  if (type === "text/plain") return { kind: "text", language: "" }
  if (/\.(docx?|xlsx?|pptx?|odt|rtf|epub|zip)$/i.test(new URL(url).pathname)) return { kind: "unsupported", label: type || "a document" }
  return type === "" ? { kind: "html" } : { kind: "unsupported", label: type }
}
