import { assert, describe, it } from "@effect/vitest"
import { checkCdpCommand, isNavigableUrl } from "../src/browser-sessions/cdp-policy.js"

const command = (method: string, params?: Record<string, unknown>, sessionId?: string) =>
  JSON.stringify({ id: 7, method, ...(params === undefined ? {} : { params }), ...(sessionId === undefined ? {} : { sessionId }) })

const replyOf = (text: string) => {
  const verdict = checkCdpCommand(text)
  assert.strictEqual(verdict._tag, "Refuse")
  return verdict._tag === "Refuse" ? JSON.parse(verdict.reply) : undefined
}

describe("checkCdpCommand", () => {
  it("forwards ordinary commands and non-commands unchanged", () => {
    for (const text of [command("Runtime.evaluate", { expression: "1" }), command("Page.navigate", { url: "https://example.com/" }), "not json", "{\"method\":1}"]) {
      assert.deepStrictEqual(checkCdpCommand(text), { _tag: "Forward", message: text })
    }
  })

  it("refuses a context with its own proxy, server files and local URLs, answering the command's id and session", () => {
    const reply = replyOf(command("Target.createBrowserContext", { proxyServer: "direct://" }, "S1"))
    assert.strictEqual(reply.id, 7)
    assert.strictEqual(reply.sessionId, "S1")
    assert.include(reply.error.message, "SSRF guard")
    replyOf(command("DOM.setFileInputFiles", { files: ["/etc/passwd"] }))
    replyOf(command("Page.navigate", { url: "file:///etc/passwd" }))
    replyOf(command("Target.createTarget", { url: "chrome://settings" }))
    replyOf(command("Input.dispatchDragEvent", { type: "drop", data: { files: ["/etc/passwd"] } }))
    assert.strictEqual(checkCdpCommand(command("Target.createBrowserContext", { disposeOnDetach: true }))._tag, "Forward")
  })

  it("turns download behaviour into deny, dropping the path", () => {
    const verdict = checkCdpCommand(command("Browser.setDownloadBehavior", { behavior: "allowAndName", downloadPath: "/tmp/x", eventsEnabled: true }))
    assert.strictEqual(verdict._tag, "Forward")
    if (verdict._tag === "Forward") {
      assert.deepStrictEqual(JSON.parse(verdict.message), { id: 7, method: "Browser.setDownloadBehavior", params: { behavior: "deny", eventsEnabled: true } })
    }
  })

  it("navigable URLs: http(s), data and about:blank", () => {
    assert.deepStrictEqual(
      ["http://a", "HTTPS://a", "data:text/html,x", "about:blank", "file:///x", "chrome://x", "javascript:1", "view-source:http://a"].map(isNavigableUrl),
      [true, true, true, true, false, false, false, false]
    )
  })
})
