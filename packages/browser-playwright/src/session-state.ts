/**
 * A browser profile in a session's browser: the saved cookies and local storage put into the
 * default context (the one a DevTools client finds), and read back when the session ends. Local
 * storage is written origin by origin in a scratch page whose document is answered by a route
 * (nothing goes to the network), as Playwright does for a new context.
 */
import { type InternalError, ServiceUnavailableError } from "@gleaner/core"
import { Effect } from "effect"
import type { Browser as PwBrowser, BrowserContext } from "playwright-core"
import { decodeStorageState } from "./storage-state.js"
import { firstLineOf } from "./failures.js"

const defaultContext = async (browser: PwBrowser): Promise<BrowserContext> => browser.contexts()[0] ?? (await browser.newContext())

export const loadSessionState = (browser: PwBrowser, json: string): Effect.Effect<void, ServiceUnavailableError | InternalError> =>
  Effect.flatMap(decodeStorageState(json), (state) =>
    Effect.tryPromise({
      try: async () => {
        const context = await defaultContext(browser)
        if (state.cookies.length > 0) await context.addCookies([...state.cookies])
        for (const { localStorage, origin } of state.origins) {
          if (localStorage.length === 0) continue
          const page = await context.newPage()
          try {
            await page.route("**/*", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title></title>" }))
            await page.goto(origin)
            const pairs = JSON.stringify(localStorage.map(({ name, value }) => [name, value]))
            await page.evaluate(`(() => { for (const [name, value] of ${pairs}) localStorage.setItem(name, value) })()`)
          } finally {
            await page.close()
          }
        }
      },
      catch: (cause) => new ServiceUnavailableError({ message: `The browser profile could not be loaded into the session: ${firstLineOf(cause)}` })
    }))

export const saveSessionState = (browser: PwBrowser): Effect.Effect<string, ServiceUnavailableError> =>
  Effect.tryPromise({
    try: async () => JSON.stringify(await (await defaultContext(browser)).storageState()),
    catch: (cause) => new ServiceUnavailableError({ message: `The session's browser state could not be read: ${firstLineOf(cause)}` })
  })
