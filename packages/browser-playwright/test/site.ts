/**
 * The pages the browser tests render, served by node:http on 127.0.0.1: script-built content,
 * redirects, header and device echoes, SSRF probes, pages that never finish loading, and pages
 * for actions, screenshots and request filtering (a form, buttons, a tall page, media and ads). A
 * second "internal" server (127.0.0.2 by default) stands for an address the guard must never
 * reach; it counts every TCP connection it receives.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http"
import type { Socket } from "node:net"

export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Headers of every request, by path. */
  readonly requests: ReadonlyArray<{ readonly path: string; readonly headers: IncomingHttpHeaders }>
  /** Called when `/kill/...` is requested (before the page answers). */
  onKill: () => void
  readonly close: () => Promise<void>
}

export interface InternalServer {
  readonly url: string
  readonly host: string
  readonly port: number
  /** TCP connections received; an SSRF test wants 0. */
  readonly connections: () => number
  readonly close: () => Promise<void>
}

const html = (title: string, body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${title}</title></head><body>${body}</body></html>`

const send = (res: ServerResponse, body: string, status = 200): void => {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
  res.end(body)
}

const escape = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;")

/** A script that fetches each URL and writes the outcome into `#out` as `url :: outcome`. */
const probeScript = (urls: ReadonlyArray<string>): string => `<ul id="out"></ul><script>
  const urls = ${JSON.stringify(urls)};
  Promise.all(urls.map((u) => fetch(u).then((r) => r.text().then((t) => "answered " + r.status + " " + t.slice(0, 40)), (e) => "refused " + e.name)
    .then((outcome) => { const li = document.createElement("li"); li.textContent = u + " :: " + outcome; document.getElementById("out").append(li) })))
    .then(() => { document.title = "probed" })
</script>`

const listen = async (server: ReturnType<typeof createServer>, host: string): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const address = server.address()
  return typeof address === "object" && address !== null ? address.port : 0
}

export const startTestSite = async (): Promise<TestSite> => {
  const held = new Set<ServerResponse>()
  const sockets = new Set<Socket>()
  const requests: Array<{ path: string; headers: IncomingHttpHeaders }> = []
  const site: { onKill: () => void } = { onKill: () => undefined }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    const path = url.pathname
    requests.push({ path, headers: req.headers })
    if (path === "/") return send(res, html("Home", "<h1>Home page</h1>"))
    if (path === "/js-load") {
      return send(res, html("Script", `<h1>Static heading</h1><script>
        window.addEventListener("load", () => { const p = document.createElement("p"); p.id = "made"; p.textContent = "Rendered by script after load"; document.body.append(p) })
      </script>`))
    }
    if (path === "/js-later") {
      return send(res, html("Later", `<h1>Waiting</h1><script>
        setTimeout(() => { const p = document.createElement("p"); p.textContent = "Arrived 300 ms later"; document.body.append(p) }, 300)
      </script>`))
    }
    if (path === "/redirect") {
      res.writeHead(302, { location: "/final" })
      return void res.end()
    }
    if (path === "/redirect-to") {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/" })
      return void res.end()
    }
    if (path === "/final") return send(res, html("Final", "<h1>Final page</h1>"))
    if (path === "/js-redirect") {
      return send(res, html("Leaving", `<h1>Leaving</h1><script>setTimeout(() => { location.href = "/final" }, 50)</script>`))
    }
    if (path === "/missing") return send(res, html("Missing", "<h1>Not here</h1>"), 404)
    if (path === "/device") {
      return send(res, html("Device", `<p id="ua"></p><p id="width"></p><script>
        document.getElementById("ua").textContent = "UA=" + navigator.userAgent
        document.getElementById("width").textContent = "WIDTH=" + window.innerWidth + " TOUCH=" + navigator.maxTouchPoints
      </script>`))
    }
    if (path === "/headers") {
      return send(res, html("Headers", `<pre id="headers">${escape(JSON.stringify(req.headers))}</pre>`))
    }
    if (path === "/probe") return send(res, html("Probe", `<h1>Probe page text</h1>${probeScript(url.searchParams.getAll("u"))}`))
    if (path === "/embed") {
      const src = url.searchParams.get("src") ?? ""
      return send(res, html("Embed", `<h1>Embed page text</h1><img src="${escape(src)}"><iframe src="${escape(src)}"></iframe>`))
    }
    if (path === "/socket") {
      const to = url.searchParams.get("to") ?? ""
      return send(res, html("Socket", `<h1>Socket page text</h1><p id="ws">pending</p><script>
        const ws = new WebSocket(${JSON.stringify(to)}); ws.onopen = () => { document.getElementById("ws").textContent = "open" }
        ws.onerror = () => { document.getElementById("ws").textContent = "ws error" }
      </script>`))
    }
    if (path.startsWith("/hang")) {
      held.add(res) // never answered; destroyed when the site closes
      return
    }
    if (path === "/hang-image") return send(res, html("Hang image", `<h1>Almost</h1><img src="/hang/image">`))
    if (path === "/busy") return send(res, html("Busy", `<h1>Busy</h1><script>for (;;) {}</script>`))
    if (path.startsWith("/kill")) {
      site.onKill()
      return send(res, html("Kill", "<h1>Killed the browser</h1>"))
    }
    if (path === "/form") {
      return send(res, html("Form", `<h1>Sign the guest book</h1><form action="/greet" method="get">
        <input id="name" name="name" autocomplete="off"><button id="go" type="submit">Sign</button></form>`))
    }
    if (path === "/greet") return send(res, html("Greeting", `<h1 id="greeting">Hello, ${escape(url.searchParams.get("name") ?? "nobody")}</h1>`))
    if (path === "/buttons") {
      return send(res, html("Buttons", `<h1>Buttons</h1><div id="log"></div>${[1, 2, 3].map((n) =>
        `<button class="more" onclick="document.getElementById('log').insertAdjacentHTML('beforeend', '<p>opened ${n}</p>')">More ${n}</button>`).join("")}`))
    }
    if (path === "/tall") {
      return send(res, html("Tall", `<div style="height:3000px;background:linear-gradient(#fff,#333)"><h1>Top of a tall page</h1></div><p id="bottom">Bottom</p>`))
    }
    if (path === "/media") {
      return send(res, html("Media", `<h1>Media page text</h1><img src="/asset/picture.png"><video src="/asset/clip.mp4"></video>
        <script src="http://ads.doubleclick.net/tag.js"></script>`))
    }
    if (path.startsWith("/asset/")) {
      res.writeHead(200, { "content-type": path.endsWith(".png") ? "image/png" : "video/mp4" })
      return void res.end(Buffer.alloc(64))
    }
    if (path === "/clock") {
      return send(res, html("Clock", `<p id="clock"></p><script>
        document.getElementById("clock").textContent = "ZONE=" + Intl.DateTimeFormat().resolvedOptions().timeZone + " LANG=" + navigator.language
      </script>`))
    }
    if (path.startsWith("/page/")) {
      const n = escape(path.slice("/page/".length))
      return send(res, html(`Page ${n}`, `<h1>Page ${n}</h1><p id="n"></p><script>document.getElementById("n").textContent = "script ran on ${n}"</script>`))
    }
    send(res, html("Not found", "<h1>Not found</h1>"), 404)
  }

  const server = createServer(handle)
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
  })
  const port = await listen(server, "127.0.0.1")
  return Object.assign(site, {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy()
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  })
}

/** A server the guard must keep the browser away from. */
export const startInternalServer = async (host = "127.0.0.2"): Promise<InternalServer> => {
  let connections = 0
  const sockets = new Set<Socket>()
  const server = createServer((_req, res) => send(res, html("Internal", "<h1>INTERNAL SECRET</h1>")))
  server.on("connection", (socket) => {
    connections += 1
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
  })
  const port = await listen(server, host)
  return {
    url: `http://${host}:${port}`,
    host,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
