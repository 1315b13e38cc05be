/**
 * A forward HTTP proxy on 127.0.0.1 for tests of the stealth-proxy path: it tunnels `CONNECT`
 * requests and forwards absolute-form requests, records what went through it, and can demand
 * credentials (`Proxy-Authorization: Basic`). Plain-HTTP requests inside a tunnel are recorded
 * too (their request lines are read as they pass), since a client reuses one tunnel for many
 * requests. Tests only.
 */
import { createServer, request as httpRequest } from "node:http"
import { connect, type Socket } from "node:net"

export interface ProxyHit {
  /**
   * `CONNECT host:port`, or `METHOD url` of a request that went through: forwarded, or seen in a
   * tunnel (then `http://host:port/path` with the tunnel's authority).
   */
  readonly target: string
  readonly proxyAuthorization: string | undefined
}

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`, with the credentials when some are required. */
  readonly url: string
  readonly hits: ReadonlyArray<ProxyHit>
  readonly close: () => Promise<void>
}

export interface ForwardProxyOptions {
  /** Require these credentials; requests without them get 407. */
  readonly credentials?: { readonly user: string; readonly password: string }
}

export const startForwardProxy = async (options: ForwardProxyOptions = {}): Promise<ForwardProxy> => {
  const hits: Array<ProxyHit> = []
  const expected = options.credentials === undefined
    ? undefined
    : `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString("base64")}`
  const authorized = (header: string | undefined): boolean => expected === undefined || header === expected

  const server = createServer((req, res) => {
    const proxyAuthorization = req.headers["proxy-authorization"]
    hits.push({ target: `${req.method ?? "GET"} ${req.url ?? ""}`, proxyAuthorization })
    if (!authorized(proxyAuthorization)) {
      res.writeHead(407, { "proxy-authenticate": "Basic realm=\"fixture\"" }).end()
      return
    }
    const { "proxy-authorization": _auth, "proxy-connection": _conn, ...headers } = req.headers
    const upstream = httpRequest(req.url ?? "", { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on("error", () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  const tunnels = new Set<Socket>()
  server.on("connect", (req, socket: Socket, head) => {
    tunnels.add(socket)
    socket.on("close", () => tunnels.delete(socket))
    const proxyAuthorization = req.headers["proxy-authorization"]
    hits.push({ target: `CONNECT ${req.url ?? ""}`, proxyAuthorization })
    if (!authorized(proxyAuthorization)) {
      socket.end("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"fixture\"\r\n\r\n")
      return
    }
    const authority = req.url ?? ""
    const [host, port] = authority.split(":")
    const sniff = (chunk: Buffer): void => {
      for (const line of chunk.toString("latin1").matchAll(/^([A-Z]+) (\/\S*) HTTP\/1\.[01]\r$/gm)) {
        hits.push({ target: `${line[1]} http://${authority}${line[2]}`, proxyAuthorization })
      }
    }
    const upstream = connect(Number(port), host ?? "127.0.0.1", () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n")
      sniff(head)
      upstream.write(head)
      upstream.pipe(socket)
      socket.on("data", sniff)
      socket.pipe(upstream)
    })
    upstream.on("error", () => socket.destroy())
    socket.on("error", () => upstream.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const auth = options.credentials === undefined ? "" : `${options.credentials.user}:${options.credentials.password}@`
  return {
    url: `http://${auth}127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        for (const socket of tunnels) socket.destroy()
        server.close(() => resolve())
      })
  }
}
