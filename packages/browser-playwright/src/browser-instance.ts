/**
 * One launched Chromium and its life: launch with Gleaner's flags through the guard proxy,
 * find its process group, count its pages, and end it — politely with `browser.close()`, or
 * with SIGKILL to the whole process tree when it does not answer within the grace period.
 * Ending always waits until no process of the tree is left, so "closed" means gone; Playwright
 * deletes its temporary profile and artifacts directories once the process has exited.
 * These are plain Promise functions because Playwright's `disconnected` callback needs them
 * too; the pool wraps them in Effects.
 */
import { randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { type Browser as PwBrowser, chromium } from "playwright-core"
import { argumentsOf, findLaunchedProcess, isAlive, killTree, treeOf, treeRss } from "./process-tree.js"
import { type UserAgents, userAgentsFor } from "./user-agent.js"

/**
 * Flags on top of Playwright's own (which already turn off much background traffic). QUIC is
 * off because it cannot go through the guard proxy; WebRTC may only use proxied TCP, so a page
 * cannot send UDP to an internal address through STUN/TURN either.
 */
export const chromiumFlags: ReadonlyArray<string> = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp"
]

export interface LaunchOptions {
  readonly executablePath: string
  /** Chromium's sandbox; off when running as root, where it cannot work. */
  readonly sandbox: boolean
  readonly proxyUrl: string
  readonly launchTimeoutMs: number
}

/** What is known about a launched browser's processes (Linux; absent elsewhere). */
export interface LaunchRecord {
  readonly id: number
  readonly pid: number | undefined
  readonly pgid: number | undefined
  /** Playwright's temporary profile directory, deleted when the browser exits. */
  readonly userDataDir: string | undefined
}

export interface BrowserInstance {
  readonly record: LaunchRecord
  readonly browser: PwBrowser
  readonly agents: UserAgents
  /** Pages started on this browser. */
  pages: number
  /** Pages in flight. */
  active: number
  /** No new pages; closed once `active` is 0. */
  retiring: boolean
  /** The process is gone or going (crash, kill, close). */
  exited: boolean
  lastRssCheckAt: number
  /** Resolves when the browser's connection drops (crash, kill or close). */
  readonly gone: Promise<void>
  ending: Promise<void> | undefined
}

let launches = 0

/** Launches a browser; `onExit` runs once when its connection drops for any reason. */
export const launchBrowser = async (options: LaunchOptions, onExit: (instance: BrowserInstance) => void): Promise<BrowserInstance> => {
  const marker = `--gleaner-browser=${randomUUID()}`
  const browser = await chromium.launch({
    executablePath: options.executablePath,
    headless: true,
    chromiumSandbox: options.sandbox,
    args: [...chromiumFlags, marker],
    proxy: { server: options.proxyUrl },
    // the pool's scope closes browsers; Playwright's own handlers would exit the process on SIGINT
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: options.launchTimeoutMs
  })
  const found = findLaunchedProcess(marker)
  const userDataDir = found === undefined
    ? undefined
    : argumentsOf(found.pid).find((a) => a.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length)
  let markGone = (): void => undefined
  const gone = new Promise<void>((resolve) => {
    markGone = resolve
  })
  const instance: BrowserInstance = {
    record: { id: ++launches, pid: found?.pid, pgid: found?.pgid, userDataDir },
    browser,
    agents: userAgentsFor(browser.version()),
    pages: 0,
    active: 0,
    retiring: false,
    exited: false,
    lastRssCheckAt: 0,
    gone,
    ending: undefined
  }
  browser.once("disconnected", () => {
    instance.exited = true
    markGone()
    onExit(instance)
  })
  return instance
}

/** Resident memory of the browser's process tree in bytes, `undefined` off Linux. */
export const rssOf = (instance: BrowserInstance): number | undefined => {
  const { pgid, pid } = instance.record
  return pid === undefined || pgid === undefined ? undefined : treeRss(pid, pgid)
}

/** True when some process of the tree is still alive. */
const treeAlive = (record: LaunchRecord): boolean =>
  record.pid !== undefined && record.pgid !== undefined && treeOf(record.pid, record.pgid).some(isAlive)

/** SIGKILL the browser's whole process tree now. */
export const killBrowser = (instance: BrowserInstance): void => {
  instance.exited = true
  const { pgid, pid } = instance.record
  if (pid !== undefined && pgid !== undefined) killTree(pid, pgid)
}

/** Resolves `true` when `promise` settles within `ms`, `false` otherwise (it is then left alone). */
export const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  return Promise.race([promise.then(() => true, () => true), expired]).finally(() => clearTimeout(timer))
}

/** Polls until no process of the tree is left (SIGKILLing survivors after `ms`) and the profile is deleted. */
const waitForTreeExit = async (instance: BrowserInstance, ms: number): Promise<void> => {
  const deadline = Date.now() + ms
  while (treeAlive(instance.record)) {
    if (Date.now() > deadline) {
      killBrowser(instance)
      if (Date.now() > deadline + 2_000) return
    }
    await sleep(25)
  }
  // Playwright removes its temporary directories right after the process exits
  const profile = instance.record.userDataDir
  while (profile !== undefined && existsSync(profile) && Date.now() < deadline + 2_000) await sleep(25)
}

/**
 * Ends the browser once (later calls share the first): `close()` within `graceMs`, else SIGKILL;
 * then waits until the process tree is gone.
 */
export const endBrowser = (instance: BrowserInstance, graceMs: number): Promise<void> => {
  instance.retiring = true
  instance.ending ??= (async () => {
    const closed = instance.exited ? false : await settlesWithin(instance.browser.close(), graceMs)
    if (!closed) killBrowser(instance)
    // the connection drops once the process is gone; give Playwright the moment it needs
    await settlesWithin(instance.gone, graceMs)
    await waitForTreeExit(instance, graceMs)
  })()
  return instance.ending
}
