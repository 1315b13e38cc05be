/**
 * The Mailer port on SMTP (RFC 5321): one connection per message — greeting, EHLO (HELO when the
 * server does not know it), AUTH PLAIN when the URL carries credentials (RFC 4954), MAIL FROM,
 * RCPT TO per recipient, DATA with dot-stuffing, QUIT. `smtps://` connects with TLS from the start;
 * `smtp://` speaks plain text (a relay on the same host or network). Every reply is awaited with
 * a deadline, so a relay that stops answering fails the send instead of hanging it.
 *
 * The message is UTF-8 text (quoted-printable, so long diff lines are wrapped safely and come back
 * intact), or multipart/alternative with an HTML part; non-ASCII subjects are RFC 2047 words.
 */
import { GleanerConfig, type Mail, Mailer, ServiceUnavailableError } from "@gleaner/core"
import { randomBytes } from "node:crypto"
import { connect as netConnect, type Socket } from "node:net"
import { hostname } from "node:os"
import { connect as tlsConnect } from "node:tls"
import { Effect, Layer, Option } from "effect"

export interface SmtpMailerOptions {
  /** `smtp://[user:pass@]host[:port]` (default port 25) or `smtps://…` (TLS, default port 465). */
  readonly url: string
  /** The sender address. Default `gleaner@localhost`. */
  readonly from?: string
  /** Longest wait for one reply of the server, in ms. Default 30 000. */
  readonly timeoutMs?: number
}

// --- the message ---------------------------------------------------------------------------

/** RFC 2047 encoded word when the text is not plain ASCII. */
const encodeHeader = (text: string): string =>
  /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, "utf8").toString("base64")}?=`

/** Quoted-printable (RFC 2045 §6.7): lines of at most 76 characters, CRLF line ends. */
const quotedPrintable = (text: string): string => {
  const out: Array<string> = []
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    let encoded = ""
    for (const byte of Buffer.from(line, "utf8")) {
      const printable = (byte >= 33 && byte <= 126 && byte !== 61) || byte === 32 || byte === 9
      encoded += printable ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, "0")}`
    }
    // trailing whitespace must be encoded
    encoded = encoded.replace(/[ \t]$/, (c) => (c === " " ? "=20" : "=09"))
    let rest = encoded
    while (rest.length > 76) {
      // do not split an =XX escape
      let cut = 75
      const escape = rest.lastIndexOf("=", cut)
      if (escape > cut - 3) cut = escape
      out.push(`${rest.slice(0, cut)}=`)
      rest = rest.slice(cut)
    }
    out.push(rest)
  }
  return out.join("\r\n")
}

const textPart = (subtype: "plain" | "html", body: string) =>
  [`Content-Type: text/${subtype}; charset=utf-8`, "Content-Transfer-Encoding: quoted-printable", "", quotedPrintable(body)].join("\r\n")

/** The whole message as sent after DATA (before dot-stuffing), with CRLF line ends. */
export const buildMessage = (mail: Mail, options: { readonly from: string; readonly date?: Date; readonly messageId?: string }): string => {
  const domain = options.from.split("@")[1] ?? "localhost"
  const headers = [
    `From: ${options.from}`,
    `To: ${mail.to.join(", ")}`,
    `Subject: ${encodeHeader(mail.subject)}`,
    `Date: ${(options.date ?? new Date()).toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${options.messageId ?? randomBytes(12).toString("hex")}@${domain}>`,
    "MIME-Version: 1.0"
  ]
  if (mail.html === undefined) return [...headers, textPart("plain", mail.text)].join("\r\n")
  const boundary = `gleaner-${randomBytes(12).toString("hex")}`
  return [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    textPart("plain", mail.text),
    `--${boundary}`,
    textPart("html", mail.html),
    `--${boundary}--`,
    ""
  ].join("\r\n")
}

// --- the conversation ----------------------------------------------------------------------

interface Reply {
  readonly code: number
  readonly lines: ReadonlyArray<string>
}

/** A line-reading SMTP session over a socket. */
const session = (socket: Socket, timeoutMs: number) => {
  let buffer = ""
  const waiting: Array<{ resolve: (r: Reply) => void; reject: (e: Error) => void }> = []
  const ready: Array<Reply> = []
  let failure: Error | undefined
  let lines: Array<string> = []
  const fail = (error: Error) => {
    failure ??= error
    for (const w of waiting.splice(0)) w.reject(error)
  }
  socket.setEncoding("utf8")
  socket.on("data", (chunk: string) => {
    buffer += chunk
    for (let at = buffer.indexOf("\r\n"); at >= 0; at = buffer.indexOf("\r\n")) {
      const line = buffer.slice(0, at)
      buffer = buffer.slice(at + 2)
      lines.push(line.slice(4))
      // `250-…` continues, `250 …` ends the reply
      if (line.charAt(3) !== "-") {
        const reply = { code: Number(line.slice(0, 3)), lines }
        lines = []
        const next = waiting.shift()
        if (next === undefined) ready.push(reply)
        else next.resolve(reply)
      }
    }
  })
  socket.on("error", fail)
  socket.on("close", () => fail(new Error("the server closed the connection")))
  const reply = (): Promise<Reply> => {
    const queued = ready.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    if (failure !== undefined) return Promise.reject(failure)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = waiting.findIndex((w) => w.resolve === done)
        if (i >= 0) waiting.splice(i, 1)
        reject(new Error(`no reply within ${timeoutMs} ms`))
      }, timeoutMs)
      const done = (r: Reply) => {
        clearTimeout(timer)
        resolve(r)
      }
      waiting.push({ resolve: done, reject: (e) => (clearTimeout(timer), reject(e)) })
    })
  }
  return {
    reply,
    send: async (line: string, expect: ReadonlyArray<number>, shown = line): Promise<Reply> => {
      socket.write(`${line}\r\n`)
      const r = await reply()
      if (!expect.includes(r.code)) throw new Error(`the server answered "${r.code} ${r.lines.join(" ")}" to ${shown}`)
      return r
    }
  }
}

const open = (url: URL, timeoutMs: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const tls = url.protocol === "smtps:"
    const port = Number(url.port || (tls ? 465 : 25))
    const host = url.hostname.replace(/^\[|\]$/g, "")
    const socket = tls ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`could not connect to ${host}:${port} within ${timeoutMs} ms`))
    }, timeoutMs)
    socket.once(tls ? "secureConnect" : "connect", () => {
      clearTimeout(timer)
      resolve(socket)
    })
    socket.once("error", (error) => {
      clearTimeout(timer)
      reject(new Error(`could not connect to ${host}:${port}: ${error.message}`))
    })
  })

const deliver = async (url: URL, from: string, timeoutMs: number, mail: Mail): Promise<void> => {
  const socket = await open(url, timeoutMs)
  try {
    const smtp = session(socket, timeoutMs)
    const greeting = await smtp.reply()
    if (greeting.code !== 220) throw new Error(`the server greeted with "${greeting.code} ${greeting.lines.join(" ")}"`)
    const me = hostname() || "localhost"
    const ehlo = await smtp.send(`EHLO ${me}`, [250, 500, 502])
    if (ehlo.code !== 250) await smtp.send(`HELO ${me}`, [250])
    if (url.username !== "") {
      const user = decodeURIComponent(url.username)
      const pass = decodeURIComponent(url.password)
      const token = Buffer.from(`\0${user}\0${pass}`, "utf8").toString("base64")
      await smtp.send(`AUTH PLAIN ${token}`, [235], "AUTH PLAIN (credentials hidden)")
    }
    await smtp.send(`MAIL FROM:<${from}>`, [250])
    const refused: Array<string> = []
    for (const to of mail.to) {
      const r = await smtp.send(`RCPT TO:<${to}>`, [250, 251, 450, 451, 452, 550, 551, 552, 553])
      if (r.code >= 400) refused.push(`${to} (${r.code} ${r.lines.join(" ")})`)
    }
    if (refused.length === mail.to.length) throw new Error(`the server refused every recipient: ${refused.join(", ")}`)
    await smtp.send("DATA", [354])
    const body = buildMessage(mail, { from }).split("\r\n").map((line) => (line.startsWith(".") ? `.${line}` : line)).join("\r\n")
    await smtp.send(`${body}\r\n.`, [250], "the message")
    await smtp.send("QUIT", [221]).catch(() => undefined)
  } finally {
    socket.destroy()
  }
}

const make = (options: SmtpMailerOptions): Mailer["Type"] => {
  const url = new URL(options.url)
  const from = options.from ?? "gleaner@localhost"
  const timeoutMs = options.timeoutMs ?? 30_000
  return {
    send: (mail) =>
      Effect.tryPromise({
        try: () => deliver(url, from, timeoutMs, mail),
        catch: (error) =>
          new ServiceUnavailableError({ message: `E-mail to ${mail.to.join(", ")} was not sent: ${error instanceof Error ? error.message : String(error)}` })
      }).pipe(Effect.withSpan("SmtpMailer.send"))
  }
}

const unconfigured: Mailer["Type"] = {
  send: () => Effect.fail(new ServiceUnavailableError({ message: "E-mail is not configured: set GLEANER_SMTP_URL." }))
}

export const SmtpMailer = {
  /** A Mailer sending through the relay at `options.url`. */
  layer: (options: SmtpMailerOptions): Layer.Layer<Mailer> => Layer.sync(Mailer, () => make(options)),
  /** From `GLEANER_SMTP_URL` and `GLEANER_SMTP_FROM`; without a URL, a Mailer whose every send fails saying so. */
  fromConfig: Layer.effect(
    Mailer,
    Effect.map(GleanerConfig, ({ smtpFrom, smtpUrl }) =>
      Option.match(smtpUrl, { onNone: () => unconfigured, onSome: (url) => make({ url, from: smtpFrom }) }))
  )
}
