/**
 * What the server does in a session's browser: run a caller's JavaScript in the current page
 * (the newest open page), screenshot it for the live view, and click in it. The code runs as the
 * body of an async function inside the page, never in the server: console output is captured
 * for the duration of the run, a thrown error becomes stderr with exit code 1, and a run past its
 * timeout is stopped with `Runtime.terminateExecution` (killed, exit code 124).
 */
import type { SessionExecuteOutcome } from "@gleaner/core"
import { Schema } from "effect"
import type { Browser as PwBrowser, CDPSession, Page } from "playwright-core"

/** The newest open page of the browser, or a new one in its default context. */
export const currentPage = async (browser: PwBrowser): Promise<Page> => {
  const pages = browser.contexts().flatMap((context) => context.pages()).filter((page) => !page.isClosed())
  const last = pages.at(-1)
  if (last !== undefined) return last
  const context = browser.contexts()[0] ?? (await browser.newContext())
  return context.newPage()
}

/** The expression evaluated in the page: the caller's code wrapped, its output collected. */
export const wrapCode = (code: string): string => `(async () => {
  const __console = globalThis.console;
  const __saved = {};
  const __out = [];
  const __err = [];
  const __text = (value) => {
    if (typeof value === "string") return value;
    try { const json = JSON.stringify(value); return json === undefined ? String(value) : json; } catch { return String(value); }
  };
  const __line = (args) => args.map(__text).join(" ");
  for (const name of ["log", "info", "debug"]) { __saved[name] = __console[name]; __console[name] = (...args) => { __out.push(__line(args)); }; }
  for (const name of ["warn", "error"]) { __saved[name] = __console[name]; __console[name] = (...args) => { __err.push(__line(args)); }; }
  try {
    const __value = await (async () => {
${code}
    })();
    return { ok: true, out: __out, err: __err, result: __value === undefined ? "" : __text(__value) };
  } catch (error) {
    return { ok: false, out: __out, err: __err, error: error && error.stack ? String(error.stack) : String(error) };
  } finally {
    Object.assign(__console, __saved);
  }
})()`

const RunResult = Schema.Struct({
  ok: Schema.Boolean,
  out: Schema.Array(Schema.String),
  err: Schema.Array(Schema.String),
  result: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String)
})
const decodeRunResult = Schema.decodeUnknownSync(RunResult)

const lines = (list: ReadonlyArray<string>): string => (list.length === 0 ? "" : `${list.join("\n")}\n`)

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Exit code of a run stopped at its timeout (as `timeout(1)` reports). */
export const TIMEOUT_EXIT_CODE = 124

/**
 * A DevTools session per page, attached while the page is idle: attaching to a page whose only
 * thread is stuck in a loop would wait forever, but an attached session can still stop it.
 */
const stoppers = new WeakMap<Page, Promise<CDPSession>>()
const stopperOf = (page: Page): Promise<CDPSession> => {
  let stopper = stoppers.get(page)
  if (stopper === undefined) {
    stopper = page.context().newCDPSession(page)
    stoppers.set(page, stopper)
  }
  return stopper
}

export const runInPage = async (browser: PwBrowser, code: string, timeoutMs: number): Promise<SessionExecuteOutcome> => {
  const page = await currentPage(browser)
  const stopper = await stopperOf(page)
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs)
  })
  const run = page.evaluate(wrapCode(code)).then((value) => ({ value }), (error: unknown) => ({ error }))
  const first = await Promise.race([run, timedOut]).finally(() => clearTimeout(timer))
  if (first === "timeout") {
    // an endless loop holds the page's only thread: stop the script, then let the call settle
    await Promise.race([stopper.send("Runtime.terminateExecution").catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000))])
    await Promise.race([run, new Promise((resolve) => setTimeout(resolve, 1_000))])
    return { stdout: "", stderr: `Execution timed out after ${timeoutMs / 1000}s\n`, result: "", exitCode: TIMEOUT_EXIT_CODE, killed: true }
  }
  if ("error" in first) return { stdout: "", stderr: `${messageOf(first.error)}\n`, result: "", exitCode: 1, killed: false }
  const outcome = decodeRunResult(first.value)
  return outcome.ok
    ? { stdout: lines(outcome.out), stderr: lines(outcome.err), result: outcome.result ?? "", exitCode: 0, killed: false }
    : { stdout: lines(outcome.out), stderr: `${lines(outcome.err)}${outcome.error ?? ""}\n`, result: "", exitCode: 1, killed: false }
}
