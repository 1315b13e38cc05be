/**
 * The undici dispatchers (connection pools), one per combination of TLS verification and proxy,
 * created on first use and kept for the life of the layer so connections are reused. Direct
 * dispatchers connect through the SSRF guard; proxy dispatchers connect to the operator's proxy
 * (operator configuration, not checked) and the fetcher checks targets before each hop instead.
 */
import type { Cidr } from "@gleaner/core"
import { Agent, buildConnector, type Dispatcher, ProxyAgent } from "undici"
import { guardedConnector, guardedLookup } from "./guard.js"

export interface DispatcherOptions {
  readonly skipTlsVerification: boolean
  readonly proxyUrl: string | undefined
}

export interface Dispatchers {
  readonly get: (options: DispatcherOptions) => Dispatcher
  /** Closes every dispatcher; in-flight requests are aborted. */
  readonly close: () => Promise<void>
}

const create = ({ skipTlsVerification, proxyUrl }: DispatcherOptions, networks: ReadonlyArray<Cidr>): Dispatcher => {
  const rejectUnauthorized = !skipTlsVerification
  if (proxyUrl !== undefined) return new ProxyAgent({ uri: proxyUrl, requestTls: { rejectUnauthorized } })
  const connector = buildConnector({ rejectUnauthorized, lookup: guardedLookup(networks) })
  return new Agent({ connect: guardedConnector(connector, networks) })
}

export const makeDispatchers = (networks: ReadonlyArray<Cidr>): Dispatchers => {
  const pool = new Map<string, Dispatcher>()
  return {
    get: (options) => {
      const key = `${options.skipTlsVerification}|${options.proxyUrl ?? ""}`
      const existing = pool.get(key)
      if (existing !== undefined) return existing
      const created = create(options, networks)
      pool.set(key, created)
      return created
    },
    close: async () => {
      const all = [...pool.values()]
      pool.clear()
      await Promise.all(all.map((d) => d.destroy()))
    }
  }
}
