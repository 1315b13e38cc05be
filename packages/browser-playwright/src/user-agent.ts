/**
 * What the browser says it is. Headless Chromium announces `HeadlessChrome` in its user agent,
 * which many sites refuse or serve differently, so every context gets the string an ordinary
 * Chrome of the same major version sends (Chrome's reduced user agent: minor parts are zero).
 * Mobile emulation is a phone-sized touch viewport with Chrome for Android's string.
 */
import type { BrowserContextOptions } from "playwright-core"

export interface UserAgents {
  readonly desktop: string
  readonly mobile: string
}

/** The user agents for a Chromium version such as `156.0.8078.79`. */
export const userAgentsFor = (version: string): UserAgents => {
  const major = /^(\d+)/.exec(version)?.[1] ?? "140"
  return {
    desktop: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
    mobile: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`
  }
}

/** Context options for a desktop or phone render; a caller's User-Agent header wins. */
export const deviceOptions = (agents: UserAgents, mobile: boolean, headers: Readonly<Record<string, string>>): BrowserContextOptions => {
  const custom = Object.entries(headers).find(([name]) => name.toLowerCase() === "user-agent")?.[1]
  return mobile
    ? { viewport: { width: 390, height: 844 }, screen: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, userAgent: custom ?? agents.mobile }
    : { viewport: { width: 1280, height: 800 }, userAgent: custom ?? agents.desktop }
}
