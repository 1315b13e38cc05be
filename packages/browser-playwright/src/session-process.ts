/**
 * One Chromium process per browser session, started by us rather than by Playwright because the
 * session's client needs the browser's own DevTools WebSocket: Chromium listens on a free port
 * of 127.0.0.1 (`--remote-debugging-port=0`) and writes it to `DevToolsActivePort` in its
 * profile directory. It gets the pool's flags and sends every connection through the SSRF
 * guard proxy, loopback included. It runs as the leader of its own process group, so ending it
 * kills the whole tree (renderers, GPU and network services) and then deletes the profile.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { chromiumFlags } from "./browser-instance.js"
import { isAlive, killTree, treeOf } from "./process-tree.js"

export interface SessionProcessOptions {
  readonly executablePath: string
  /** The guard proxy, `http://127.0.0.1:<port>`. */
  readonly proxyUrl: string
  readonly sandbox: boolean
  readonly launchTimeoutMs: number
}

export interface SessionProcess {
  readonly pid: number | undefined
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>` */
  readonly cdpEndpoint: string
  /** Resolves when the root process has exited. */
  readonly exited: Promise<void>
  /** SIGKILLs the tree, waits until no process of it is left, deletes the profile. Idempotent. */
  readonly kill: () => Promise<void>
}

/** Flags Playwright would add for a headless browser, plus the session's own. */
const sessionArgs = (options: SessionProcessOptions, userDataDir: string): ReadonlyArray<string> => [
  ...chromiumFlags,
  "--headless",
  "--no-default-browser-check",
  "--disable-dev-shm-usage",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-renderer-backgrounding",
  "--hide-scrollbars",
  "--mute-audio",
  "--password-store=basic",
  "--use-mock-keychain",
  "--window-size=1280,800",
  `--user-data-dir=${userDataDir}`,
  "--remote-debugging-address=127.0.0.1",
  "--remote-debugging-port=0",
  `--proxy-server=${options.proxyUrl}`,
  // without this Chromium would reach loopback directly, around the guard
  "--proxy-bypass-list=<-loopback>",
  ...(options.sandbox ? [] : ["--no-sandbox"]),
  "about:blank"
]

/** The DevTools endpoint once Chromium has written it, or undefined while it has not. */
const readEndpoint = async (userDataDir: string): Promise<string | undefined> => {
  try {
    const [port, path] = (await readFile(join(userDataDir, "DevToolsActivePort"), "utf8")).split("\n")
    return port !== undefined && /^\d+$/.test(port.trim()) && path?.startsWith("/devtools/browser/")
      ? `ws://127.0.0.1:${port.trim()}${path.trim()}`
      : undefined
  } catch {
    return undefined
  }
}

const killer = (child: ChildProcess, userDataDir: string) => {
  let ending: Promise<void> | undefined
  return (): Promise<void> => {
    ending ??= (async () => {
      const pid = child.pid
      if (pid !== undefined) {
        // detached: the browser leads its own group, whose id is its pid
        killTree(pid, pid)
        const deadline = Date.now() + 5_000
        while (treeOf(pid, pid).some(isAlive) && Date.now() < deadline) {
          killTree(pid, pid)
          await sleep(25)
        }
      }
      // Chromium may still be flushing files for a moment after SIGKILL reached it
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await rm(userDataDir, { recursive: true, force: true })
          return
        } catch {
          await sleep(50)
        }
      }
    })()
    return ending
  }
}

export const startSessionProcess = async (options: SessionProcessOptions): Promise<SessionProcess> => {
  const userDataDir = await mkdtemp(join(tmpdir(), "gleaner-session-"))
  const child = spawn(options.executablePath, sessionArgs(options, userDataDir), { detached: true, stdio: "ignore" })
  let gone = false
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      gone = true
      resolve()
    })
    child.once("error", () => {
      gone = true
      resolve()
    })
  })
  const kill = killer(child, userDataDir)
  const deadline = Date.now() + options.launchTimeoutMs
  for (;;) {
    const endpoint = await readEndpoint(userDataDir)
    if (endpoint !== undefined) return { pid: child.pid, cdpEndpoint: endpoint, exited, kill }
    if (gone || Date.now() > deadline) {
      await kill()
      throw new Error(gone ? `it exited (code ${child.exitCode ?? "none"})` : `no DevTools port within ${options.launchTimeoutMs} ms`)
    }
    await sleep(25)
  }
}
