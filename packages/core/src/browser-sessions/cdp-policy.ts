/**
 * What a session's DevTools client may ask of its browser. The client speaks the Chrome
 * DevTools protocol through Gleaner's proxy, and a few commands would reach past the page into
 * the server: a browser context with its own proxy (around the SSRF guard), downloads written
 * to a path on the server, files of the server put into a page, unpacked extensions, and
 * navigation to `file:`/`chrome:` URLs. Those are refused with a DevTools error reply (download
 * behaviour is turned into "deny" instead, because Playwright sets it on every connect); all
 * other commands pass unchanged. Pure: text in, verdict out.
 */
import { Option, Schema } from "effect"

export type CdpVerdict =
  | { readonly _tag: "Forward"; readonly message: string }
  | { readonly _tag: "Refuse"; readonly reply: string }

const Command = Schema.Struct({
  id: Schema.Number,
  method: Schema.String,
  sessionId: Schema.optional(Schema.String),
  params: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
type Command = typeof Command.Type
const decodeCommand = Schema.decodeUnknownOption(Schema.parseJson(Command))

const refused = new Set(["DOM.setFileInputFiles", "Extensions.loadUnpacked", "Browser.setDownloadPath"])
const downloadBehaviour = new Set(["Browser.setDownloadBehavior", "Page.setDownloadBehavior"])
/** Commands whose `url` param is loaded by the browser itself. */
const navigating = new Set(["Page.navigate", "Target.createTarget", "Network.loadNetworkResource"])

/** URLs a client may send the browser to: the web, blank and inline pages. */
export const isNavigableUrl = (url: string): boolean => {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase()
  return scheme === "http" || scheme === "https" || scheme === "data" || url.trim().toLowerCase() === "about:blank"
}

const refuse = (command: Command, message: string): CdpVerdict => ({
  _tag: "Refuse",
  reply: JSON.stringify({
    id: command.id,
    ...(command.sessionId === undefined ? {} : { sessionId: command.sessionId }),
    error: { code: -32000, message: `Refused by Gleaner: ${message}` }
  })
})

/** The verdict on one client → browser frame. Frames that are not commands pass unchanged. */
export const checkCdpCommand = (text: string): CdpVerdict => {
  const parsed = decodeCommand(text)
  if (Option.isNone(parsed)) return { _tag: "Forward", message: text }
  const command = parsed.value
  const params = command.params ?? {}
  if (refused.has(command.method)) return refuse(command, `${command.method} would reach the server's files`)
  if (command.method === "Target.createBrowserContext" && (params["proxyServer"] !== undefined || params["proxyBypassList"] !== undefined)) {
    return refuse(command, "a browser context cannot have its own proxy (every request goes through the SSRF guard)")
  }
  if (command.method === "Input.dispatchDragEvent" && typeof params["data"] === "object" && params["data"] !== null && "files" in params["data"]) {
    return refuse(command, "dragging files of the server into a page is not allowed")
  }
  if (navigating.has(command.method) && typeof params["url"] === "string" && !isNavigableUrl(params["url"])) {
    return refuse(command, `only http(s), data: and about:blank URLs can be opened, not ${params["url"].slice(0, 100)}`)
  }
  if (downloadBehaviour.has(command.method)) {
    const { downloadPath: _path, ...rest } = params
    return { _tag: "Forward", message: JSON.stringify({ ...command, params: { ...rest, behavior: "deny" } }) }
  }
  return { _tag: "Forward", message: text }
}
