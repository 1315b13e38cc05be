/**
 * Transform threads: turning HTML into markdown and the other formats is the CPU-heavy part of a
 * scrape, so it runs in a small pool of worker threads (`GLEANER_TRANSFORM_THREADS`). The main
 * thread keeps fetching, storing and answering the API while pages are processed, and a crawl
 * uses more than one core.
 *
 * - Threads start with the first page. Until one has loaded its modules, pages are processed in
 *   the main thread, so a one-off scrape never waits for a thread to boot.
 * - Each page goes to the ready thread with the fewest pages in hand.
 * - A thread that dies (out of its memory limit on a monstrous page, or a crash) fails only the
 *   pages it held, as defects naming the cause; the next page starts a new thread. Threads that
 *   cannot even start (three times) leave the work to the main thread.
 * - Threads hold the process open only while they have work.
 *
 * From TypeScript sources (tests, `tsx`), a thread registers tsx before loading its entry.
 */
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import { Effect, Either, Schema } from "effect"
import { GleanerConfig } from "../config.js"
import { type FetchedPage, type HtmlRecipe, HtmlThreadMessage, htmlContent, type Produced } from "./html-content.js"
import type { HtmlTransform } from "./produce.js"

/** A transform thread's heap limit: a page that needs more fails alone instead of the process. */
const defaultHeapMb = 2048

const decodeMessage = Schema.decodeUnknownEither(HtmlThreadMessage)

interface Slot {
  readonly worker: Worker
  ready: boolean
  readonly inHand: Map<number, (result: Either.Either<Produced, string>) => void>
}

/** tsx's ESM API, for a thread started from TypeScript sources. */
const tsxApi = (here: string): string => {
  try {
    return import.meta.resolve("tsx/esm/api")
  } catch {
    // where import.meta.resolve is missing (some test runners): tsx's package, found from here
    const main = createRequire(here).resolve("tsx/esm/api")
    return pathToFileURL(main.replace(/\.cjs$/, ".mjs")).href
  }
}

const spawnWorker = (heapMb: number): Worker => {
  const here = import.meta.url
  const options = { resourceLimits: { maxOldGenerationSizeMb: heapMb } }
  if (!here.endsWith(".ts")) return new Worker(new URL("./html-worker.js", here), options)
  const tsx = tsxApi(here)
  const entry = new URL("./html-worker.ts", here).href
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(boot, { ...options, eval: true })
}

export class HtmlThreadPool {
  private readonly slots: Array<Slot> = []
  private nextId = 0
  private closed = false
  /** Threads that died before they were ready: after a few, pages stay in the main thread. */
  private bootFailures = 0

  constructor(
    private readonly size: number,
    private readonly options: { readonly heapMb?: number } = {}
  ) {}

  /** Threads that have loaded and take pages. */
  get readyThreads(): number {
    return this.slots.filter((slot) => slot.ready).length
  }

  private start(): void {
    while (this.slots.length < this.size && this.bootFailures < 3) {
      const slot: Slot = { worker: spawnWorker(this.options.heapMb ?? defaultHeapMb), ready: false, inHand: new Map() }
      slot.worker.unref()
      slot.worker.on("message", (data: unknown) => this.receive(slot, data))
      slot.worker.on("error", (error) => this.lose(slot, `the transform thread failed: ${error.message}`))
      slot.worker.on("exit", (code) => this.lose(slot, `the transform thread exited (code ${code})`))
      this.slots.push(slot)
    }
  }

  private receive(slot: Slot, data: unknown): void {
    const message = decodeMessage(data)
    if (Either.isLeft(message)) return this.lose(slot, `the transform thread sent a malformed reply: ${message.left.message}`)
    const m = message.right
    if (m._tag === "ready") {
      slot.ready = true
      return
    }
    const settle = slot.inHand.get(m.id)
    if (settle === undefined) return
    slot.inHand.delete(m.id)
    if (slot.inHand.size === 0) slot.worker.unref()
    settle(m._tag === "done" ? Either.right(m.produced) : Either.left(m.message))
  }

  /** Drops a dead (or misbehaving) thread; its pages fail with `why`. */
  private lose(slot: Slot, why: string): void {
    const at = this.slots.indexOf(slot)
    if (at < 0) return
    this.slots.splice(at, 1)
    if (!slot.ready) this.bootFailures += 1
    void slot.worker.terminate()
    for (const settle of slot.inHand.values()) settle(Either.left(why))
    slot.inHand.clear()
  }

  /** The ready thread with the fewest pages in hand, if any. */
  private pick(): Slot | undefined {
    let best: Slot | undefined
    for (const slot of this.slots) {
      if (slot.ready && (best === undefined || slot.inHand.size < best.inHand.size)) best = slot
    }
    return best
  }

  readonly transform: HtmlTransform = (recipe, page) => {
    if (this.closed) return Effect.sync(() => htmlContent(recipe, page))
    this.start()
    const slot = this.pick()
    if (slot === undefined) return Effect.sync(() => htmlContent(recipe, page))
    return this.send(slot, recipe, page)
  }

  private send(slot: Slot, recipe: HtmlRecipe, page: FetchedPage): Effect.Effect<Produced> {
    return Effect.flatMap(
      Effect.async<Either.Either<Produced, string>>((resume) => {
        const id = this.nextId++
        slot.inHand.set(id, (result) => resume(Effect.succeed(result)))
        if (slot.inHand.size === 1) slot.worker.ref()
        slot.worker.postMessage({ id, recipe, page })
        return Effect.sync(() => {
          slot.inHand.delete(id)
          if (slot.inHand.size === 0) slot.worker.unref()
        })
      }),
      Either.match({
        onLeft: (why) => Effect.dieMessage(`Processing ${page.url} failed: ${why}`),
        onRight: Effect.succeed
      })
    )
  }

  async close(): Promise<void> {
    this.closed = true
    const slots = this.slots.splice(0)
    await Promise.all(slots.map((slot) => slot.worker.terminate()))
  }
}

/** The engine's HTML pipeline: transform threads, or the main thread with 0 threads configured. */
export class HtmlTransformer extends Effect.Service<HtmlTransformer>()("@gleaner/core/HtmlTransformer", {
  scoped: Effect.gen(function*() {
    const { transformThreads } = yield* GleanerConfig
    if (transformThreads === 0) {
      const inThread: HtmlTransform = (recipe, page) => Effect.sync(() => htmlContent(recipe, page))
      return { transform: inThread } as const
    }
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => new HtmlThreadPool(transformThreads)),
      (pool) => Effect.promise(() => pool.close())
    )
    return { transform: pool.transform } as const
  })
}) {}
