/**
 * Browser rendering: latency (p50/p95) and pages per second at pool sizes 1, 4 and 8, with the
 * memory each extra context costs, against bare playwright-core doing the same renders in the
 * same process (one browser, a new context per page, no SSRF guard, no request routing: the
 * floor Gleaner's safety costs are measured against); then a soak of 1,000 browser scrapes
 * through the engine (`Gleaner.open`, `waitFor` so each one uses the browser) where some pages
 * never answer, some spin forever and some kill the browser mid-render, reporting what is left
 * afterwards (Chromium processes, profile directories) and how memory behaved.
 *
 *   pnpm --filter @gleaner/bench bench:browser [--renders 200] [--sizes 1,4,8] [--soak 1000] [--out FILE]
 *
 * The site is a node:http server in this process: pages of ~2 KB whose article (~10 KB) a script writes.
 * Memory is the PSS (proportional set size: shared pages divided among their users) of every
 * Chromium process descending from this one, sampled every 100 ms. Writes results/browser-pool.json.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { cpus, loadavg, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { argumentsOf, findChromium, isAlive, listProcesses, makePlaywrightBrowser } from "@gleaner/browser-playwright"
import { Gleaner } from "@gleaner/client"
import { Effect, Option } from "effect"
import { chromium } from "playwright-core"

const { values } = parseArgs({
  options: {
    renders: { type: "string", default: "200" },
    sizes: { type: "string", default: "1,4,8" },
    soak: { type: "string", default: "1000" },
    out: { type: "string", default: join(import.meta.dirname, "..", "results", "browser-pool.json") }
  }
})
const renders = Number(values.renders)
const sizes = values.sizes.split(",").map(Number)
const soakScrapes = Number(values.soak)

const executablePath = Option.getOrUndefined(Effect.runSync(findChromium(process.env)))
if (executablePath === undefined) throw new Error("no Chromium: apt-get install -y chromium-headless-shell")

// --- the site ------------------------------------------------------------------------------

const paragraph = "Browser rendering benchmark text, long enough to look like an article paragraph on an ordinary page. "
const article = (n: number) => `<!doctype html><html><head><meta charset="utf-8"><title>Page ${n}</title>
<style>body{font:16px/1.5 sans-serif;max-width:760px;margin:auto}nav a{margin-right:8px}</style></head>
<body><nav>${Array.from({ length: 20 }, (_, i) => `<a href="/page/${(n + i) % 500}">Link ${i}</a>`).join("")}</nav>
<main id="root"></main><script>
const root = document.getElementById("root"); const parts = ["<h1>Page ${n}</h1>"];
for (let i = 0; i < 40; i++) parts.push("<p>" + ${JSON.stringify(paragraph)}.repeat(2) + i + "</p>");
root.innerHTML = parts.join("");
</script></body></html>`

let onKill: () => void = () => undefined
const held = new Set<import("node:http").ServerResponse>()
const server: Server = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://x").pathname
  if (path.startsWith("/hang")) return void held.add(res)
  if (path.startsWith("/kill")) onKill()
  if (path.startsWith("/busy")) {
    res.writeHead(200, { "content-type": "text/html" })
    return void res.end("<!doctype html><title>Busy</title><h1>Busy</h1><script>for (;;) {}</script>")
  }
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
  res.end(article(Number(path.split("/").at(-1)) || 0))
})
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const address = server.address()
const origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`

// --- measuring ------------------------------------------------------------------------------

/** Chromium processes descending from this process. */
const ourChromium = () => {
  const all = listProcesses()
  const parent = new Map(all.map((p) => [p.pid, p.ppid]))
  const ours = (pid: number) => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && hops < 64; p = parent.get(p), hops++) if (p === process.pid) return true
    return false
  }
  return all.filter((p) => ours(p.pid) && isAlive(p.pid) && argumentsOf(p.pid).some((a) => /chrom/i.test(a)))
}

const pssOf = (pid: number): number => {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))
    return match?.[1] === undefined ? 0 : Number(match[1]) * 1024
  } catch {
    return 0
  }
}
const chromiumPss = () => ourChromium().reduce((sum, p) => sum + pssOf(p.pid), 0)

/** Samples Chromium's PSS every 100 ms until stopped: peak and all samples. */
const sampler = () => {
  const samples: Array<number> = []
  const timer = setInterval(() => samples.push(chromiumPss()), 100)
  return { stop: () => (clearInterval(timer), samples) }
}

const quantile = (sorted: ReadonlyArray<number>, q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
const mb = (bytes: number) => Math.round(bytes / 1024 ** 2)

/** `count` renders through `render`, `concurrency` at a time; latencies and wall time. */
const drive = async (count: number, concurrency: number, render: (n: number) => Promise<string>) => {
  const latencies: Array<number> = []
  let next = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let n = next++; n < count; n = next++) {
      const t0 = performance.now()
      const html = await render(n)
      latencies.push(performance.now() - t0)
      if (!html.includes(`<h1>Page ${n % 500}</h1>`)) throw new Error(`page ${n} was not rendered`)
    }
  }))
  const seconds = (performance.now() - started) / 1000
  const sorted = [...latencies].sort((a, b) => a - b)
  return { pagesPerSecond: count / seconds, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) }
}

interface SizeResult {
  readonly size: number
  readonly contender: string
  readonly pagesPerSecond: number
  readonly p50Ms: number
  readonly p95Ms: number
  readonly idlePssMb: number
  readonly peakPssMb: number
  readonly pssPerContextMb: number
}

const gleanerAt = (size: number): Promise<SizeResult> =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const { browser } = yield* makePlaywrightBrowser({ allowedNetworks: ["127.0.0.0/8"], maxContexts: size }, executablePath)
    const render = (n: number) => Effect.runPromise(Effect.map(browser.render({ url: `${origin}/page/${n % 500}`, timeoutMs: 30_000 }), (p) => p.html))
    yield* Effect.promise(() => drive(2 * size, size, render)) // warm-up: the browser is up
    const idle = chromiumPss()
    const memory = sampler()
    const run = yield* Effect.promise(() => drive(renders, size, render))
    const peak = Math.max(...memory.stop(), idle)
    return result("gleaner render", size, run, idle, peak)
  })))

const rawAt = async (size: number): Promise<SizeResult> => {
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-background-networking", "--no-first-run", "--disable-quic"] })
  try {
    const render = async (n: number) => {
      const context = await browser.newContext()
      try {
        const page = await context.newPage()
        await page.goto(`${origin}/page/${n % 500}`, { waitUntil: "load" })
        return String(await page.evaluate("document.documentElement.outerHTML"))
      } finally {
        await context.close()
      }
    }
    await drive(2 * size, size, render)
    const idle = chromiumPss()
    const memory = sampler()
    const run = await drive(renders, size, render)
    return result("bare playwright-core", size, run, idle, Math.max(...memory.stop(), idle))
  } finally {
    await browser.close()
  }
}

const result = (contender: string, size: number, run: Awaited<ReturnType<typeof drive>>, idle: number, peak: number): SizeResult => ({
  size,
  contender,
  pagesPerSecond: Number(run.pagesPerSecond.toFixed(1)),
  p50Ms: Math.round(run.p50),
  p95Ms: Math.round(run.p95),
  idlePssMb: mb(idle),
  peakPssMb: mb(peak),
  pssPerContextMb: Number(((peak - idle) / 1024 ** 2 / size).toFixed(1))
})

// --- the soak --------------------------------------------------------------------------------

const kindOf = (i: number): "kill" | "hang" | "busy" | "page" => (i % 100 === 50 ? "kill" : i % 25 === 10 ? "hang" : i % 40 === 20 ? "busy" : "page")
const profileDirs = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith("playwright_chromiumdev_profile-")))

const soak = async () => {
  const profilesBefore = profileDirs()
  const gleaner = await Gleaner.open({ database: ":memory:", settings: { allowedNetworks: ["127.0.0.0/8"], browserContexts: 4 } })
  // a page that kills the browser while it renders: the root Chromium process of the pool
  onKill = () => {
    for (const p of ourChromium()) if (argumentsOf(p.pid).includes("--remote-debugging-pipe")) process.kill(p.pid, "SIGKILL")
  }
  const tally = { ok: 0, timeout: 0, failed: 0, unexpected: [] as Array<string> }
  const pssByHundred: Array<number> = []
  const memory = sampler()
  const started = performance.now()
  let next = 0
  await Promise.all(Array.from({ length: 4 }, async () => {
    for (let i = next++; i < soakScrapes; i = next++) {
      const kind = kindOf(i)
      const url = kind === "page" ? `${origin}/page/${i % 500}` : `${origin}/${kind}/${i}`
      try {
        const doc = await gleaner.scrape(url, { formats: ["markdown"], waitFor: 1, timeout: kind === "page" ? 30_000 : 3_000, maxAge: 0 })
        if (kind === "page" && doc.markdown?.includes(`# Page ${i % 500}`) === true) tally.ok += 1
        else if (kind !== "kill") tally.unexpected.push(`${i} ${kind}: succeeded`)
        else tally.ok += 1 // the kill may land after the page was read
      } catch (error) {
        const status = typeof error === "object" && error !== null && "status" in error ? Number(error.status) : 0
        if (status === 408) tally.timeout += 1
        else tally.failed += 1
        if (kind === "page" && status !== 500) tally.unexpected.push(`${i} page: ${String(error)}`)
      }
      if (i % 100 === 99) pssByHundred.push(chromiumPss())
    }
  }))
  const seconds = (performance.now() - started) / 1000
  const samples = memory.stop()
  await gleaner.close()
  await new Promise((resolve) => setTimeout(resolve, 500))
  const leftProcesses = ourChromium().length
  const leftProfiles = [...profileDirs()].filter((d) => !profilesBefore.has(d)).length
  return {
    scrapes: soakScrapes,
    seconds: Number(seconds.toFixed(1)),
    mix: Array.from({ length: soakScrapes }, (_, i) => kindOf(i)).reduce((m, k) => ({ ...m, [k]: m[k] + 1 }), { page: 0, hang: 0, busy: 0, kill: 0 }),
    ...tally,
    peakPssMb: mb(Math.max(...samples)),
    pssAfterEachHundredMb: pssByHundred.map(mb),
    leftProcesses,
    leftProfiles
  }
}

// --- run ---------------------------------------------------------------------------------------

const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model.trim().split(" ").slice(0, 2).join(" "), memoryGB: Math.round(totalmem() / 1024 ** 3), loadBefore: loadavg().map((l) => Number(l.toFixed(2))) }
console.log(`Chromium ${executablePath}; ${renders} renders per size; site ${origin}`)
const bySize: Array<SizeResult> = []
for (const size of sizes) {
  for (const measure of [gleanerAt, rawAt]) {
    const r = await measure(size)
    bySize.push(r)
    console.log(`  size ${size}  ${r.contender.padEnd(22)} ${String(r.pagesPerSecond).padStart(6)} pages/s  p50 ${r.p50Ms} ms  p95 ${r.p95Ms} ms  PSS idle ${r.idlePssMb} MB, peak ${r.peakPssMb} MB, ${r.pssPerContextMb} MB per context`)
  }
}
const ratios = sizes.map((size) => {
  const g = bySize.find((r) => r.size === size && r.contender === "gleaner render")
  const b = bySize.find((r) => r.size === size && r.contender === "bare playwright-core")
  return { size, pagesPerSecond: Number(((g?.pagesPerSecond ?? 0) / (b?.pagesPerSecond ?? 1)).toFixed(2)) }
})
console.log(`  gleaner / bare pages per second: ${ratios.map((r) => `size ${r.size} ${r.pagesPerSecond}×`).join(", ")}`)
console.log(`soak: ${soakScrapes} browser scrapes through Gleaner.open, 4 contexts`)
const soaked = await soak()
console.log(`  ${JSON.stringify(soaked)}`)
for (const res of held) res.destroy()
server.closeAllConnections()
server.close()

mkdirSync(join(values.out, ".."), { recursive: true })
writeFileSync(values.out, `${JSON.stringify({ benchmark: "browser-pool", date: new Date().toISOString(), node: process.version, machine: { ...machine, loadAfter: loadavg().map((l) => Number(l.toFixed(2))) }, chromium: executablePath, renders, bySize, ratios, soak: soaked }, null, 2)}\n`)
console.log(`wrote ${values.out}`)
if (soaked.leftProcesses > 0 || soaked.leftProfiles > 0 || soaked.unexpected.length > 0) process.exitCode = 1
