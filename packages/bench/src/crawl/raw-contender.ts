/**
 * The ceiling: undici `request` over a keep-alive agent with N requests in flight, the body read
 * as text, `<a href>` values pulled out with one regular expression, resolved against the page
 * URL, kept when on the start's host, fragment dropped, deduplicated in a Set. No parsing, no
 * storage: about the least a crawler can do per page.
 */
import { Agent, request } from "undici"
import type { CrawlContender, CrawlInput, CrawlOutcome } from "./contender.js"

const hrefPattern = /<a\s[^>]*?href\s*=\s*["']([^"']*)["']/gi

/** Same-host links of `html`, absolute, without fragments. */
export const sameHostLinks = (html: string, base: URL): Array<string> => {
  const found: Array<string> = []
  for (const match of html.matchAll(hrefPattern)) {
    const href = match[1]
    if (href === undefined || href.startsWith("#") || href.startsWith("mailto:")) continue
    const url = URL.parse(href, base.href)
    if (url === null || url.host !== base.host || (url.protocol !== "http:" && url.protocol !== "https:")) continue
    url.hash = ""
    found.push(url.href)
  }
  return found
}

const crawl = async (input: CrawlInput, agent: Agent): Promise<CrawlOutcome> => {
  const queue: Array<string> = [new URL(input.start).href]
  const seen = new Set(queue)
  let next = 0
  let inFlight = 0
  let done = 0
  let failed = 0

  const visit = async (url: string): Promise<void> => {
    const response = await request(url, { dispatcher: agent })
    const html = await response.body.text()
    if (response.statusCode !== 200) {
      failed += 1
      return
    }
    done += 1
    for (const link of sameHostLinks(html, new URL(url))) {
      if (seen.size >= input.pages || seen.has(link)) continue
      seen.add(link)
      queue.push(link)
    }
  }

  await new Promise<void>((resolve, reject) => {
    const pump = (): void => {
      while (inFlight < input.concurrency && next < queue.length) {
        const url = queue[next++]
        if (url === undefined) break
        inFlight += 1
        visit(url).then(() => {
          inFlight -= 1
          if (inFlight === 0 && next >= queue.length) resolve()
          else pump()
        }, reject)
      }
    }
    pump()
  })
  return { pages: done, distinctUrls: seen.size, failed, outputChars: 0 }
}

export const rawContender: CrawlContender = {
  name: "undici loop (ceiling)",
  work: "undici request, body as text, <a href> by regex, same-host Set",
  setup: async (input) => {
    const agent = new Agent({ connections: input.concurrency, keepAliveTimeout: 30_000 })
    return { run: () => crawl(input, agent), dispose: () => agent.close() }
  }
}
