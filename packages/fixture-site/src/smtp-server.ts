/**
 * A real SMTP server on 127.0.0.1 for tests (RFC 5321's server side, enough of it): EHLO/HELO,
 * AUTH PLAIN when credentials are configured (MAIL before it is refused with 530), MAIL, RCPT,
 * DATA with dot-unstuffing, RSET, NOOP, QUIT. Each message is kept with its headers unfolded and
 * its text decoded (quoted-printable or base64, from multipart/alternative too), so tests can
 * read what a person would see. `silent: true` accepts connections and never answers.
 */
import { createServer, type Socket } from "node:net"

export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  /** The message as received, after dot-unstuffing. */
  readonly data: string
  /** Lower-cased names, folded lines joined. */
  readonly headers: Readonly<Record<string, string>>
  /** The Subject with RFC 2047 words decoded. */
  readonly subject: string
  /** The decoded text/plain part. */
  readonly text: string
  /** The decoded text/html part, when there is one. */
  readonly html?: string
}

export interface SmtpTestServer {
  readonly port: number
  readonly url: string
  readonly messages: ReadonlyArray<ReceivedMail>
  /** Resolves once at least `count` messages arrived (rejects after `timeoutMs`, default 10 s). */
  readonly waitForMessages: (count: number, timeoutMs?: number) => Promise<ReadonlyArray<ReceivedMail>>
  readonly close: () => Promise<void>
}

const decodeWords = (value: string): string =>
  value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1").toString("utf8"))

const parseHeaders = (block: string): Record<string, string> => {
  const headers: Record<string, string> = {}
  const unfolded = block.replace(/\r\n[ \t]+/g, " ")
  for (const line of unfolded.split("\r\n")) {
    const colon = line.indexOf(":")
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}

const decodeBody = (body: string, encoding: string | undefined): string => {
  switch (encoding?.toLowerCase()) {
    case "quoted-printable":
      return Buffer.from(
        body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1"
      ).toString("utf8").replace(/\r\n/g, "\n")
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8").replace(/\r\n/g, "\n")
    default:
      return body.replace(/\r\n/g, "\n")
  }
}

/** The text/plain and text/html parts of a message. */
const partsOf = (headers: Record<string, string>, body: string): { text: string; html?: string } => {
  const type = headers["content-type"] ?? "text/plain"
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (boundary === undefined) {
    const decoded = decodeBody(body, headers["content-transfer-encoding"])
    return type.toLowerCase().startsWith("text/html") ? { text: "", html: decoded } : { text: decoded }
  }
  let text = ""
  let html: string | undefined
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith("--")) break
    const split = part.indexOf("\r\n\r\n")
    if (split < 0) continue
    const partHeaders = parseHeaders(part.slice(0, split).replace(/^\r\n/, ""))
    const partBody = part.slice(split + 4).replace(/\r\n$/, "")
    const inner = partsOf(partHeaders, partBody)
    if (inner.text !== "") text = inner.text
    if (inner.html !== undefined) html = inner.html
  }
  return html === undefined ? { text } : { text, html }
}

const parseMail = (from: string, to: ReadonlyArray<string>, data: string): ReceivedMail => {
  const split = data.indexOf("\r\n\r\n")
  const headers = parseHeaders(split < 0 ? data : data.slice(0, split))
  const body = split < 0 ? "" : data.slice(split + 4)
  return { from, to, data, headers, subject: decodeWords(headers["subject"] ?? ""), ...partsOf(headers, body) }
}

export const startSmtpServer = async (options: { readonly auth?: { readonly user: string; readonly pass: string }; readonly silent?: boolean } = {}): Promise<SmtpTestServer> => {
  const messages: Array<ReceivedMail> = []
  const waiters: Array<() => void> = []
  const sockets = new Set<Socket>()

  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => socket.destroy())
    if (options.silent === true) return
    const reply = (line: string) => socket.write(`${line}\r\n`)
    let buffer = ""
    let authed = options.auth === undefined
    let from: string | undefined
    let to: Array<string> = []
    let data: Array<string> | undefined
    reply("220 127.0.0.1 Gleaner test SMTP ready")

    const command = (line: string) => {
      const verb = line.split(" ")[0]?.toUpperCase() ?? ""
      switch (verb) {
        case "EHLO":
          socket.write(`250-127.0.0.1 greets you\r\n${options.auth === undefined ? "" : "250-AUTH PLAIN\r\n"}250 8BITMIME\r\n`)
          return
        case "HELO":
          return reply("250 127.0.0.1")
        case "AUTH": {
          const [, mechanism, token] = line.split(" ")
          if (mechanism?.toUpperCase() !== "PLAIN" || token === undefined) return reply("504 Only AUTH PLAIN with an initial response")
          const [, user, pass] = Buffer.from(token, "base64").toString("utf8").split("\0")
          if (options.auth !== undefined && user === options.auth.user && pass === options.auth.pass) {
            authed = true
            return reply("235 Authentication succeeded")
          }
          return reply("535 Authentication credentials invalid")
        }
        case "MAIL": {
          if (!authed) return reply("530 Authentication required")
          const match = /^MAIL FROM:\s*<([^>]*)>/i.exec(line)
          if (match === null) return reply("501 Syntax: MAIL FROM:<address>")
          from = match[1] ?? ""
          to = []
          return reply("250 OK")
        }
        case "RCPT": {
          if (from === undefined) return reply("503 MAIL first")
          const match = /^RCPT TO:\s*<([^>]+)>/i.exec(line)
          if (match === null) return reply("501 Syntax: RCPT TO:<address>")
          const address = match[1] ?? ""
          if (address.startsWith("refused@")) return reply(`550 No such user ${address}`)
          to.push(address)
          return reply("250 OK")
        }
        case "DATA":
          if (to.length === 0) return reply("503 RCPT first")
          data = []
          return reply("354 End data with <CR><LF>.<CR><LF>")
        case "RSET":
          from = undefined
          to = []
          return reply("250 OK")
        case "NOOP":
          return reply("250 OK")
        case "QUIT":
          reply("221 Bye")
          socket.end()
          return
        default:
          return reply("502 Command not implemented")
      }
    }

    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => {
      buffer += chunk
      for (let at = buffer.indexOf("\r\n"); at >= 0; at = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, at)
        buffer = buffer.slice(at + 2)
        if (data === undefined) {
          command(line)
          continue
        }
        if (line === ".") {
          messages.push(parseMail(from ?? "", to, data.join("\r\n")))
          for (const wake of waiters.splice(0)) wake()
          data = undefined
          from = undefined
          to = []
          reply("250 OK: queued")
        } else {
          data.push(line.startsWith(".") ? line.slice(1) : line)
        }
      }
    })
  })

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessages: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${messages.length} of ${count} messages arrived within ${timeoutMs} ms`)), timeoutMs)
        const check = () => {
          if (messages.length >= count) {
            clearTimeout(timer)
            resolve([...messages])
          } else waiters.push(check)
        }
        check()
      }),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
