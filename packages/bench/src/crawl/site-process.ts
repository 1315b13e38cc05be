/**
 * The crawl benchmark's site in a child process of its own, so that serving pages runs on the
 * other core and does not share an event loop (or a heap) with the crawlers being measured.
 * `forkCrawlSite` starts it and talks to it over IPC: `stats()` and `reset()` of the server's
 * request counters, `close()`. Run directly (by `forkCrawlSite`), this file is the child.
 */
import { fork, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { type SiteStats, startCrawlSite } from "./site.js"

const Stats = Schema.Struct({
  requests: Schema.Number,
  distinctPages: Schema.Number,
  repeatedPages: Schema.Number,
  notFound: Schema.Number,
  robots: Schema.Number,
  sitemap: Schema.Number,
  pageBytes: Schema.Number
})

const ToParent = Schema.Union(
  Schema.Struct({ type: Schema.Literal("ready"), origin: Schema.String, pages: Schema.Number, meanPageBytes: Schema.Number }),
  Schema.Struct({ type: Schema.Literal("stats"), stats: Stats })
)
type ToParent = typeof ToParent.Type

const ToChild = Schema.Struct({ type: Schema.Literal("stats", "reset", "close") })
type ToChild = typeof ToChild.Type

const decodeToParent = Schema.decodeUnknownSync(ToParent)
const decodeToChild = Schema.decodeUnknownSync(ToChild)

export interface ForkedSite {
  readonly origin: string
  readonly pages: number
  readonly meanPageBytes: number
  /** The server's counters since the last reset (pages served, 404s, robots.txt, sitemap). */
  readonly stats: () => Promise<SiteStats>
  /** Zeroes the counters; resolves once the child has done it. */
  readonly reset: () => Promise<SiteStats>
  readonly close: () => Promise<void>
}

const nextMessage = (child: ChildProcess): Promise<ToParent> =>
  new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the site process exited (${code ?? "signal"})`))
    child.once("exit", onExit)
    child.once("message", (message: unknown) => {
      child.off("exit", onExit)
      try {
        resolve(decodeToParent(message))
      } catch (error) {
        reject(error)
      }
    })
  })

const ask = async (child: ChildProcess, type: "stats" | "reset"): Promise<SiteStats> => {
  const reply = nextMessage(child)
  child.send({ type } satisfies ToChild)
  const message = await reply
  if (message.type !== "stats") throw new Error(`the site process answered ${message.type} to ${type}`)
  return message.stats
}

/** Starts the site of `pages` pages in a child process (Node with tsx, as this process). */
export const forkCrawlSite = async (pages: number): Promise<ForkedSite> => {
  const child = fork(fileURLToPath(import.meta.url), [String(pages)], {
    execArgv: ["--conditions=@gleaner/source", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  const ready = await nextMessage(child)
  if (ready.type !== "ready") throw new Error("the site process did not start")
  // one request at a time over the channel, so replies cannot cross
  let chain: Promise<unknown> = Promise.resolve()
  const queued = (type: "stats" | "reset"): Promise<SiteStats> => {
    const next = chain.then(() => ask(child, type))
    chain = next.catch(() => undefined)
    return next
  }
  const close = async (): Promise<void> => {
    if (child.exitCode !== null) return
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
    child.send({ type: "close" } satisfies ToChild)
    await exited
  }
  return { origin: ready.origin, pages: ready.pages, meanPageBytes: ready.meanPageBytes, stats: () => queued("stats"), reset: () => queued("reset"), close }
}

const runChild = async (pages: number): Promise<void> => {
  const site = await startCrawlSite({ pages })
  const reply = (message: ToParent) => process.send?.(message)
  process.on("message", (raw: unknown) => {
    const message = decodeToChild(raw)
    if (message.type === "close") {
      void site.close().then(() => process.exit(0))
      return
    }
    const stats = site.stats()
    if (message.type === "reset") site.reset()
    reply({ type: "stats", stats })
  })
  process.on("disconnect", () => void site.close().then(() => process.exit(0)))
  reply({ type: "ready", origin: site.origin, pages: site.pages, meanPageBytes: site.meanPageBytes })
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send !== undefined) {
  void runChild(Number(process.argv[2] ?? "5000"))
}
