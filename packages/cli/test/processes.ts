/**
 * Real processes for the end-to-end tests: the server started exactly as the README says
 * (`pnpm start`, which builds when it must), and `gleaner` commands run from the built CLI.
 */
import { execFile, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const cliMain = fileURLToPath(new URL("../dist/main.js", import.meta.url))

/** pnpm as the test runner was started with it, else the one on PATH. */
const pnpmCommand = (): [string, Array<string>] => {
  const execPath = process.env["npm_execpath"]
  return execPath !== undefined && execPath.includes("pnpm") ? [process.execPath, [execPath]] : ["pnpm", []]
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

export interface ServerProcess {
  readonly url: string
  /** The key printed at start, when one was. */
  readonly printedKey: string | undefined
  readonly output: () => string
  /** Sends the signal and resolves with the exit code. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

/**
 * `pnpm start` in the repository with these settings (or, with `direct`, `gleaner serve` from the
 * built CLI, so signals reach the server itself); resolves once the server answers.
 */
export const startServer = async (env: Record<string, string>, options: { readonly direct?: boolean } = {}): Promise<ServerProcess> => {
  const port = await freePort()
  const [command, args] = options.direct === true ? [process.execPath, [cliMain, "serve"]] : pnpmCommand()
  const child = spawn(command, options.direct === true ? args : [...args, "start"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", GLEANER_LOG_LEVEL: "warning", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  let text = ""
  child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()))
  const output = () => text
  const url = `http://127.0.0.1:${port}`
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  let running = true
  void exited.then(() => (running = false))
  await waitForHttp(`${url}/`, 90_000, () => {
    if (!running) throw new Error(`the server exited:\n${output()}`)
  })
  return {
    url,
    printedKey: /fc-[0-9a-f]{32}/.exec(text)?.[0],
    output,
    stop: (signal = "SIGTERM") => {
      // pnpm runs node as a child: signal the whole process group
      if (child.pid !== undefined) process.kill(-child.pid, signal)
      return exited
    }
  }
}

const waitForHttp = async (url: string, timeoutMs: number, stillRunning: () => void) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    stillRunning()
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`)
}

/** Runs `gleaner <args>` from the built CLI; resolves with stdout and stderr (rejects on a non-zero exit). */
export const gleanerOutput = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> =>
  promisify(execFile)(process.execPath, [cliMain, ...args], {
    cwd: repoRoot,
    env: { ...process.env, GLEANER_LOG_LEVEL: "warning", ...env }
  })

/** Runs `gleaner <args>` from the built CLI; resolves with its stdout (rejects on a non-zero exit). */
export const gleaner = async (args: ReadonlyArray<string>, env: Record<string, string>): Promise<string> =>
  (await gleanerOutput(args, env)).stdout
