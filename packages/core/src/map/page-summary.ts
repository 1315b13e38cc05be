/**
 * What a map takes from a page it reads: its links (to walk on) and its title and description
 * (to show with its link and to rank by). Pure: a fetched response in, a summary out; pages
 * that are not HTML or did not answer 2xx give nothing.
 */
import type { FetchResponse } from "../ports/fetcher.js"
import { decodeBody } from "../transform/charset.js"
import { parseHtml } from "../transform/dom.js"
import { extractLinks } from "../transform/links.js"
import { extractMetadata } from "../transform/metadata.js"

export interface PageSummary {
  readonly title?: string
  readonly description?: string
  /** Absolute http(s) links of the page, in document order, without duplicates. */
  readonly links: ReadonlyArray<string>
}

const isHtml = (contentType: string | undefined, body: Uint8Array): boolean => {
  if (contentType !== undefined && contentType.trim() !== "") return /\b(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType)
  // no Content-Type: sniff for markup at the start
  const head = new TextDecoder().decode(body.subarray(0, 512)).trimStart().toLowerCase()
  return head.startsWith("<!doctype html") || head.startsWith("<html")
}

/** The summary of a fetched page, or `undefined` when it is not a 2xx HTML page. */
export const summarisePage = (response: FetchResponse): PageSummary | undefined => {
  const contentType = response.headers["content-type"]
  if (response.status < 200 || response.status >= 300 || !isHtml(contentType, response.body)) return undefined
  const document = parseHtml(decodeBody(response.body, contentType).text)
  const metadata = extractMetadata(document, {
    url: response.url,
    sourceURL: response.url,
    statusCode: response.status,
    ...(contentType === undefined ? {} : { contentType })
  })
  const title = metadata.title
  const description = metadata.description ?? metadata.ogDescription
  return {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined || description === "" ? {} : { description }),
    links: extractLinks(document, response.url)
  }
}
