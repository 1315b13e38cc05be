/**
 * The scrape actions of API.md §2.4, run in order on a loaded page. Each one gets the time left
 * of the render's deadline, and at most `selectorWaitMs` to find its element, so a selector
 * that never appears fails as that action (SCRAPE_ACTION_ERROR naming it) rather than as a
 * timeout of the whole scrape. Request-supplied JavaScript runs only in the page, never here.
 */
import { type Action, type ActionResults, type BrowserFile, type GleanerError, ScrapeActionError, ScrapeTimeoutError } from "@gleaner/core"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { crashError, firstLineOf, isClosedError } from "./failures.js"

/** The longest an action waits for its selector (bounded further by the deadline). */
export const selectorWaitMs = 10_000

/** Actions end this long before the render's deadline. */
const actionMarginMs = 250

const clip = (text: string, max = 60): string => (text.length > max ? `${text.slice(0, max)}…` : text)

/** The action as a person would name it in an error message. */
export const describeAction = (action: Action): string => {
  switch (action.type) {
    case "wait":
      return action.selector === undefined ? `wait ${action.milliseconds ?? 0} ms` : `wait for ${JSON.stringify(action.selector)}`
    case "click":
      return `click ${JSON.stringify(action.selector)}${action.all === true ? " (all)" : ""}`
    case "write":
      return `write ${JSON.stringify(clip(action.text))}`
    case "press":
      return `press ${JSON.stringify(action.key)}`
    case "scroll":
      return `scroll ${action.direction ?? "down"}${action.selector === undefined ? "" : ` in ${JSON.stringify(action.selector)}`}`
    case "executeJavascript":
      return `executeJavascript ${JSON.stringify(clip(action.script))}`
    default:
      return action.type
  }
}

export interface ScreenshotOptions {
  readonly fullPage?: boolean | undefined
  readonly quality?: number | undefined
  readonly viewport?: { readonly width: number; readonly height: number } | undefined
}

/** A PNG, or a JPEG when a quality is given. */
export const takeScreenshot = async (page: Page, options: ScreenshotOptions, timeout: number): Promise<BrowserFile> => {
  if (options.viewport !== undefined) await page.setViewportSize(options.viewport)
  const jpeg = options.quality !== undefined
  const bytes = await page.screenshot({
    fullPage: options.fullPage ?? false,
    type: jpeg ? "jpeg" : "png",
    ...(jpeg ? { quality: options.quality } : {}),
    timeout
  })
  return { bytes: new Uint8Array(bytes), contentType: jpeg ? "image/jpeg" : "image/png" }
}

/** After a click or key press that navigates, the next action needs the new page loaded. */
const settle = (page: Page, timeout: number) => page.waitForLoadState("load", { timeout }).catch(() => undefined)

/** Runs `script` as the body of an async function in the page; its `return` value comes back. */
const runInPage = (page: Page, script: string): Promise<unknown> => page.evaluate(`(async () => {\n${script}\n})()`)

const typeOfValue = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)

interface Collected {
  screenshots: Array<BrowserFile>
  scrapes: Array<{ url: string; html: string }>
  javascriptReturns: Array<{ type: string; value: unknown }>
  pdfs: Array<BrowserFile>
}

const runOne = async (page: Page, action: Action, remainingMs: () => number, readHtml: () => Promise<string>, out: Collected) => {
  const selectorTimeout = () => Math.max(1, Math.min(selectorWaitMs, remainingMs()))
  switch (action.type) {
    case "wait":
      if (action.selector !== undefined) await page.waitForSelector(action.selector, { state: "visible", timeout: selectorTimeout() })
      else await page.waitForTimeout(Math.min(action.milliseconds ?? 0, remainingMs()))
      return
    case "click": {
      const matches = page.locator(action.selector)
      if (action.all === true) {
        await matches.first().waitFor({ state: "attached", timeout: selectorTimeout() })
        const count = await matches.count()
        for (let i = 0; i < count; i++) await matches.nth(i).click({ timeout: selectorTimeout() })
      } else {
        await matches.first().click({ timeout: selectorTimeout() })
      }
      await settle(page, Math.max(1, remainingMs()))
      return
    }
    case "write":
      await page.keyboard.type(action.text)
      return
    case "press":
      await page.keyboard.press(action.key)
      await settle(page, Math.max(1, remainingMs()))
      return
    case "scroll": {
      const sign = action.direction === "up" ? -1 : 1
      if (action.selector === undefined) {
        await page.evaluate(`window.scrollBy(0, ${sign} * window.innerHeight)`)
      } else {
        await page.locator(action.selector).first().waitFor({ state: "attached", timeout: selectorTimeout() })
        await page.evaluate(
          `(() => { const el = document.querySelector(${JSON.stringify(action.selector)}); el.scrollBy(0, ${sign} * el.clientHeight) })()`
        )
      }
      return
    }
    case "screenshot":
      out.screenshots.push(await takeScreenshot(page, action, Math.max(1, remainingMs())))
      return
    case "scrape":
      out.scrapes.push({ url: page.url(), html: await readHtml() })
      return
    case "executeJavascript": {
      const value = await runInPage(page, action.script)
      out.javascriptReturns.push({ type: typeOfValue(value), value })
      return
    }
    case "pdf": {
      const bytes = await page.pdf({
        landscape: action.landscape ?? false,
        scale: action.scale ?? 1,
        format: action.format ?? "Letter",
        printBackground: true
      })
      out.pdfs.push({ bytes: new Uint8Array(bytes), contentType: "application/pdf" })
      return
    }
  }
}

/** Runs every action in turn; the first that fails ends the render with an error naming it. */
export const runActions = (
  page: Page,
  actions: ReadonlyArray<Action>,
  deadlineAt: number,
  readHtml: () => Promise<string>
): Effect.Effect<ActionResults, GleanerError> =>
  Effect.gen(function*() {
    const out: Collected = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] }
    // a little before the render's own deadline, so a stuck action fails as itself
    const remainingMs = () => deadlineAt - Date.now() - actionMarginMs
    for (const [index, action] of actions.entries()) {
      const name = `Action ${index + 1} (${describeAction(action)})`
      if (remainingMs() <= 0) return yield* new ScrapeTimeoutError({ message: `The scrape's deadline passed before ${name}` })
      yield* Effect.tryPromise({
        try: () => runOne(page, action, remainingMs, readHtml, out),
        catch: (cause): GleanerError =>
          isClosedError(cause)
            ? crashError(page.url())
            : new ScrapeActionError({ message: `${name} failed: ${firstLineOf(cause)}`, details: { action: index, type: action.type } })
      })
    }
    return out
  }).pipe(Effect.withSpan("PlaywrightBrowser.actions", { attributes: { count: actions.length } }))
