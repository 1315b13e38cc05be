/**
 * Cookies set during one redirect chain and sent on its later hops, as a browser would: many
 * sites answer a first visit with "set a cookie, redirect to the same page" and loop forever for
 * a client that drops the cookie. Scope is one `fetch` call; nothing outlives it. Only name,
 * value, Domain and expiry (Max-Age ≤ 0 or Expires in the past deletes) are honoured.
 */

interface StoredCookie {
  readonly name: string
  readonly value: string
  /** Lower-case host the cookie came from, or its Domain attribute. */
  readonly domain: string
  readonly hostOnly: boolean
}

const attribute = (parts: ReadonlyArray<string>, name: string): string | undefined => {
  const found = parts.find((p) => p.toLowerCase().startsWith(`${name}=`))
  return found?.slice(name.length + 1).trim()
}

const isExpired = (parts: ReadonlyArray<string>, nowMs: number): boolean => {
  const maxAge = attribute(parts, "max-age")
  if (maxAge !== undefined) return Number(maxAge) <= 0
  const expires = attribute(parts, "expires")
  return expires !== undefined && Date.parse(expires) <= nowMs
}

const domainMatches = (cookie: StoredCookie, host: string): boolean =>
  cookie.hostOnly ? host === cookie.domain : host === cookie.domain || host.endsWith(`.${cookie.domain}`)

export class RedirectCookies {
  private cookies: Array<StoredCookie> = []

  /** Records the Set-Cookie headers of a response from `url`. */
  store(url: URL, setCookies: ReadonlyArray<string>, nowMs: number): void {
    const host = url.hostname.toLowerCase()
    for (const header of setCookies) {
      const parts = header.split(";").map((p) => p.trim())
      const pair = parts[0] ?? ""
      const eq = pair.indexOf("=")
      if (eq <= 0) continue
      const name = pair.slice(0, eq).trim()
      const declared = attribute(parts.slice(1), "domain")?.replace(/^\./, "").toLowerCase()
      // a site may only set cookies for itself or a parent domain of itself
      const domain = declared !== undefined && (host === declared || host.endsWith(`.${declared}`)) ? declared : host
      const cookie: StoredCookie = { name, value: pair.slice(eq + 1).trim(), domain, hostOnly: domain === host && declared === undefined }
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.domain === cookie.domain))
      if (!isExpired(parts.slice(1), nowMs)) this.cookies.push(cookie)
    }
  }

  /** The Cookie header for a request to `url`: the caller's cookies, then ours. */
  header(url: URL, given: string | undefined): string | undefined {
    const host = url.hostname.toLowerCase()
    const ours = this.cookies.filter((c) => domainMatches(c, host)).map((c) => `${c.name}=${c.value}`)
    const all = [...(given === undefined || given === "" ? [] : [given]), ...ours]
    return all.length === 0 ? undefined : all.join("; ")
  }
}
