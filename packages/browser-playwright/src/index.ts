/**
 * @gleaner/browser-playwright — the Browser port over playwright-core and a system Chromium:
 * a lazily launched, recycled browser with one fresh context per page, a deadline per render
 * that kills a hung browser, and the SSRF guard on every request the page makes.
 */
export { type BrowserPool, type BrowserPoolOptions, makeBrowserPool, type PoolStats } from "./browser-pool.js"
export { chromiumFlags, type LaunchRecord } from "./browser-instance.js"
export { bundledChromium, checkChromiumPath, type ChromiumEnv, ChromiumPathError, findChromium, locateChromium, systemChromiumPaths } from "./find-chromium.js"
export { BrowserOptionsError, PlaywrightBrowser, PlaywrightBrowserOptions, makePlaywrightBrowser } from "./playwright-browser.js"
export { makeRender } from "./render-page.js"
export { makeSessionBrowser, PlaywrightSessions, type SessionBrowserOptions } from "./session-browser.js"
export { type UserAgents, userAgentsFor } from "./user-agent.js"
export { argumentsOf, isAlive, listProcesses, type ProcessEntry, rssOf } from "./process-tree.js"
