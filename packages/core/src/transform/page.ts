/**
 * The page pipeline the Scraper runs on fetched HTML, parsing it once: metadata, links and images
 * are read from the whole page first, then the page is cleaned (and narrowed to its main content)
 * and the content root becomes the cleaned HTML and the markdown. Only the outputs asked for are
 * computed; metadata always is.
 */
import type { PageMetadata } from "../schema/metadata.js"
import { type CleanOptions, cleanDocument } from "./clean-html.js"
import { parseHtml } from "./dom.js"
import { extractImages } from "./images.js"
import { extractLinks } from "./links.js"
import { extractMetadata, type PageOrigin } from "./metadata.js"
import { htmlToMarkdown } from "./to-markdown.js"

/** Which outputs to compute. */
export interface PageWants {
  readonly markdown: boolean
  readonly html: boolean
  readonly links: boolean
  readonly images: boolean
}

/** Options of {@link transformPage}: the page's origin, the cleaning options and the outputs wanted. */
export interface PageTransformOptions extends PageOrigin, Omit<CleanOptions, "baseUrl"> {
  readonly want: PageWants
}

/** The outputs of one page; an output not asked for is absent. */
export interface PageTransform {
  readonly metadata: PageMetadata
  readonly html?: string
  readonly markdown?: string
  readonly links?: ReadonlyArray<string>
  readonly images?: ReadonlyArray<string>
}

/** Runs the page pipeline on `html` (the raw page) as `options` say. */
export const transformPage = (html: string, options: PageTransformOptions): PageTransform => {
  const document = parseHtml(html)
  const { want } = options
  const metadata = extractMetadata(document, options)
  const links = want.links ? extractLinks(document, options.url) : undefined
  const images = want.images ? extractImages(document, options.url) : undefined
  if (!want.html && !want.markdown) return withOptional({ metadata }, { links, images })
  const root = cleanDocument(document, {
    baseUrl: options.url,
    onlyMainContent: options.onlyMainContent,
    removeBase64Images: options.removeBase64Images,
    blockAds: options.blockAds,
    ...(options.includeTags === undefined ? {} : { includeTags: options.includeTags }),
    ...(options.excludeTags === undefined ? {} : { excludeTags: options.excludeTags })
  })
  return withOptional({ metadata }, {
    links,
    images,
    html: want.html ? root.outerHTML : undefined,
    markdown: want.markdown ? htmlToMarkdown(root, { baseUrl: options.url }) : undefined
  })
}

/** Adds the defined outputs only (the result type has no `undefined` members). */
const withOptional = (
  base: { metadata: PageMetadata },
  outputs: { links?: ReadonlyArray<string> | undefined; images?: ReadonlyArray<string> | undefined; html?: string | undefined; markdown?: string | undefined }
): PageTransform => ({
  ...base,
  ...(outputs.links === undefined ? {} : { links: outputs.links }),
  ...(outputs.images === undefined ? {} : { images: outputs.images }),
  ...(outputs.html === undefined ? {} : { html: outputs.html }),
  ...(outputs.markdown === undefined ? {} : { markdown: outputs.markdown })
})
