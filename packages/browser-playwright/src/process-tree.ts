/**
 * Chromium's processes as Linux sees them, read from /proc. Playwright starts the browser as
 * the leader of a new process group, and every helper (zygotes, renderers, GPU and network
 * services) descends from it; this module finds that leader by a marker argument, sums the
 * tree's resident memory for recycling, and kills the tree when a page hangs the browser.
 * Everything degrades to "unknown" off Linux: no /proc, no RSS recycling, no forced kill.
 */
import { readdirSync, readFileSync } from "node:fs"

export interface ProcessEntry {
  readonly pid: number
  readonly ppid: number
  readonly pgid: number
}

/** `pid`, `ppid` and `pgid` from /proc/<pid>/stat; the command name may hold spaces and parens. */
const parseStat = (pid: number, text: string): ProcessEntry | undefined => {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
  const ppid = Number(fields[1])
  const pgid = Number(fields[2])
  return Number.isInteger(ppid) && Number.isInteger(pgid) ? { pid, ppid, pgid } : undefined
}

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return undefined // the process exited between listing and reading
  }
}

/** Every process visible in /proc (empty off Linux). */
export const listProcesses = (): ReadonlyArray<ProcessEntry> => {
  let pids: ReadonlyArray<string>
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name))
  } catch {
    return []
  }
  const entries: Array<ProcessEntry> = []
  for (const name of pids) {
    const text = readText(`/proc/${name}/stat`)
    const entry = text === undefined ? undefined : parseStat(Number(name), text)
    if (entry !== undefined) entries.push(entry)
  }
  return entries
}

/** The arguments a process was started with (empty when it is gone). */
export const argumentsOf = (pid: number): ReadonlyArray<string> => readText(`/proc/${pid}/cmdline`)?.split("\0") ?? []

/** The child of this Node process started with the `marker` argument: the browser's group leader. */
export const findLaunchedProcess = (marker: string): ProcessEntry | undefined =>
  listProcesses().find((p) => p.ppid === process.pid && argumentsOf(p.pid).includes(marker))

/** This Node process's own group: never one of Chromium's, so never signalled as a group. */
const ownPgid = (): number | undefined => {
  const text = readText("/proc/self/stat")
  return text === undefined ? undefined : parseStat(process.pid, text)?.pgid
}

/** True for a group Playwright created for a browser (its leader is the browser's root). */
const isForeignGroup = (root: number, pgid: number): boolean => pgid === root && pgid !== ownPgid() && pgid > 1

/** The root and all its descendants, plus any process left in the root's process group. */
export const treeOf = (root: number, pgid: number, processes = listProcesses()): ReadonlyArray<number> => {
  const children = new Map<number, Array<number>>()
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid])
  const tree = new Set<number>()
  const stack = processes.some((p) => p.pid === root) ? [root] : []
  for (let pid = stack.pop(); pid !== undefined; pid = stack.pop()) {
    if (tree.has(pid)) continue
    tree.add(pid)
    stack.push(...(children.get(pid) ?? []))
  }
  if (isForeignGroup(root, pgid)) for (const p of processes) if (p.pgid === pgid) tree.add(p.pid)
  tree.delete(process.pid)
  return [...tree]
}

/** Resident memory of one process in bytes (VmRSS), 0 when it is gone or a zombie. */
export const rssOf = (pid: number): number => {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readText(`/proc/${pid}/status`) ?? "")
  return match?.[1] === undefined ? 0 : Number(match[1]) * 1024
}

/** Summed resident memory of the tree; shared pages count once per process, so this overstates. */
export const treeRss = (root: number, pgid: number): number => treeOf(root, pgid).reduce((sum, pid) => sum + rssOf(pid), 0)

/** True while the process exists and is not a zombie waiting to be reaped. */
export const isAlive = (pid: number): boolean => {
  const text = readText(`/proc/${pid}/stat`)
  if (text === undefined) return false
  return text.slice(text.lastIndexOf(")") + 2, text.lastIndexOf(")") + 3) !== "Z"
}

const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name)
  } catch {
    // already gone (ESRCH)
  }
}

/** SIGKILL the whole process group and any descendant that left it. */
export const killTree = (root: number, pgid: number): void => {
  const members = treeOf(root, pgid)
  if (isForeignGroup(root, pgid)) signal(-pgid, "SIGKILL")
  for (const pid of members) signal(pid, "SIGKILL")
}
