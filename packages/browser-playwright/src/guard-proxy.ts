/**
 * The SSRF guard at the socket for Chromium: a forward proxy on 127.0.0.1 that every browser
 * connection goes through (Playwright sends loopback through it too). It exists because the
 * page's request router does not see everything: Playwright lets redirect hops, some
 * worker requests and WebSockets pass without calling the router. Here each `CONNECT` tunnel
 * (HTTPS, WebSockets) and each plain-HTTP request is resolved by the address guard and
 * connected to exactly the checked address, so a redirect to a metadata or private address is
 * refused before any byte leaves, and DNS cannot answer differently between check and connect.
 * Refusals are answered with 403 and the `x-gleaner-ssrf-refusal` header, failures to resolve
 * or connect with 502 and `x-gleaner-proxy-error`; the renderer turns these into catalogued
 * errors when they are the main document's answer.
 */
import { createServer, type IncomingHttpHeaders, request as httpRequest } from "node:http"
import { connect, type Socket } from "node:net"
import type { AddressGuard, HostVerdict } from "./address-guard.js"

/** On the proxy's own 403: why the SSRF guard refused the host. */
export const refusalHeader = "x-gleaner-ssrf-refusal"
/** On the proxy's own 502: the error code of a failed lookup or connect. */
export const proxyErrorHeader = "x-gleaner-proxy-error"

export interface GuardProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  readonly close: () => Promise<void>
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own, never forwarded. */
const hopByHop = new Set([
  "connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer",
  "transfer-encoding", "upgrade"
])

const endToEnd = (headers: IncomingHttpHeaders): IncomingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)))

/** `host:port` of a CONNECT request; IPv6 hosts arrive in brackets. */
const parseAuthority = (authority: string): { readonly hostname: string; readonly port: number } | undefined => {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority)
  const port = Number(match?.[2])
  return match?.[1] === undefined || port < 1 || port > 65_535 ? undefined : { hostname: match[1], port }
}

const refusalText = (verdict: Exclude<HostVerdict, { _tag: "Allowed" }>): string =>
  verdict._tag === "Refused" ? verdict.reason : `${verdict.hostname} did not resolve (${verdict.code})`

/** Headers must be one line: a reason never carries CR or LF, but make sure. */
const headerSafe = (text: string): string => text.replace(/[^\x20-\x7e]/g, " ")

export const startGuardProxy = async (guard: AddressGuard): Promise<GuardProxy> => {
  const sockets = new Set<Socket>()
  const track = (socket: Socket): void => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
  }

  const server = createServer((req, res) => {
    let target: URL
    try {
      target = new URL(req.url ?? "")
    } catch {
      res.writeHead(400).end()
      return
    }
    if (target.protocol !== "http:") {
      res.writeHead(400).end()
      return
    }
    void guard.check(target.hostname).then((verdict) => {
      const first = verdict._tag === "Allowed" ? verdict.addresses[0] : undefined
      if (verdict._tag === "Refused") {
        res.writeHead(403, { "content-type": "text/plain; charset=utf-8", [refusalHeader]: headerSafe(verdict.reason) })
        res.end(`Refused by Gleaner's SSRF guard: ${verdict.reason}\n`)
        return
      }
      if (first === undefined) {
        const code = verdict._tag === "Unresolved" ? verdict.code : "ENODATA"
        res.writeHead(502, { "content-type": "text/plain; charset=utf-8", [proxyErrorHeader]: headerSafe(code) }).end()
        return
      }
      const upstream = httpRequest({
        host: first.address,
        family: first.family,
        port: target.port === "" ? 80 : Number(target.port),
        method: req.method ?? "GET",
        path: `${target.pathname}${target.search}`,
        headers: { ...endToEnd(req.headers), host: target.host },
        setHost: false,
        agent: false
      }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage ?? "", endToEnd(answer.headers))
        answer.pipe(res)
        answer.once("error", () => res.destroy())
      })
      upstream.once("error", (error: NodeJS.ErrnoException) =>
        res.headersSent ? res.destroy() : res.writeHead(502, { [proxyErrorHeader]: headerSafe(error.code ?? "ECONNRESET") }).end())
      res.once("close", () => upstream.destroy())
      req.pipe(upstream)
    })
  })
  server.on("connection", track)

  server.on("connect", (req, client: Socket, head: Buffer) => {
    track(client)
    client.once("error", () => client.destroy())
    const authority = parseAuthority(req.url ?? "")
    if (authority === undefined) return void client.end("HTTP/1.1 400 Bad Request\r\n\r\n")
    void guard.check(authority.hostname).then((verdict) => {
      const first = verdict._tag === "Allowed" ? verdict.addresses[0] : undefined
      if (verdict._tag !== "Allowed" || first === undefined) {
        const reason = verdict._tag === "Allowed" ? "no address" : refusalText(verdict)
        const status = verdict._tag === "Refused" ? "403 Forbidden" : "502 Bad Gateway"
        return void client.end(`HTTP/1.1 ${status}\r\n${refusalHeader}: ${headerSafe(reason)}\r\n\r\n`)
      }
      const upstream = connect({ host: first.address, port: authority.port, family: first.family })
      track(upstream)
      let established = false
      upstream.once("connect", () => {
        established = true
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
        if (head.length > 0) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      upstream.once("error", () => (established ? client.destroy() : client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n")))
      client.once("close", () => upstream.destroy())
      upstream.once("close", () => (established ? client.destroy() : undefined))
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
        for (const socket of sockets) socket.destroy()
      })
  }
}
