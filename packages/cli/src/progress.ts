/**
 * A one-line progress bar on stderr for long commands (`gleaner crawl`): redrawn in place on a
 * terminal, and when stderr is not one (a log, a pipe), printed as a plain line whenever the
 * count changes, so logs still show progress.
 */
import { Effect } from "effect"

const width = 30

/** `[#########.....................]  12/40 pages` */
export const progressLine = (done: number, total: number, unit: string): string => {
  const share = total <= 0 ? 0 : Math.min(1, done / total)
  const filled = Math.round(share * width)
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(done).padStart(String(total).length)}/${total} ${unit}`
}

export interface Progress {
  readonly update: (done: number, total: number) => Effect.Effect<void>
  readonly finish: Effect.Effect<void>
}

export const progressBar = (unit: string, enabled: boolean): Progress => {
  const tty = process.stderr.isTTY === true
  let last = ""
  return {
    update: (done, total) =>
      Effect.sync(() => {
        if (!enabled) return
        const line = progressLine(done, total, unit)
        if (line === last) return
        last = line
        process.stderr.write(tty ? `\r${line}` : `${line}\n`)
      }),
    finish: Effect.sync(() => {
      if (enabled && tty && last !== "") process.stderr.write("\n")
    })
  }
}
