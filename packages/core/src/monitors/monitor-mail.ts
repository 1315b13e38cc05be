/**
 * The e-mail a check sends: one message per check, listing the pages that were new, changed,
 * removed or failed, each with its judgment and, when the monitor asks for them, its diff.
 * Plain text, so it reads the same in every client; diffs longer than a screenful are cut.
 */
import type { Mail } from "../ports/mailer.js"
import type { MonitorSummary } from "../schema/monitor.js"
import type { PageOutcome } from "./monitor-check.js"

const maxDiffLines = 120

const counts = (summary: MonitorSummary): string =>
  (["changed", "new", "removed", "error"] as const)
    .filter((key) => summary[key] > 0)
    .map((key) => `${summary[key]} ${key}`)
    .join(", ")

const clipped = (text: string): string => {
  const lines = text.split("\n")
  return lines.length <= maxDiffLines ? text : [...lines.slice(0, maxDiffLines), `… ${lines.length - maxDiffLines} more lines`].join("\n")
}

export interface CheckMailInput {
  readonly monitorName: string
  readonly monitorId: string
  readonly checkId: string
  readonly summary: MonitorSummary
  /** The pages worth telling (not `same`). */
  readonly outcomes: ReadonlyArray<PageOutcome>
  readonly includeDiffs: boolean
  readonly recipients: ReadonlyArray<string>
}

export const checkMail = (input: CheckMailInput): Mail => {
  const sections = input.outcomes.map((outcome) => {
    const { record, judgment, diff } = outcome
    const head = `${record.status.toUpperCase()}  ${record.url}`
    const details = [
      ...(record.error === null ? [] : [`Error: ${record.error}`]),
      ...(judgment === null ? [] : [`${judgment.meaningful ? "Matters for the goal" : "Does not match the goal"}: ${judgment.reason}`]),
      ...(input.includeDiffs && diff?.text !== undefined ? ["", clipped(diff.text)] : [])
    ]
    return [head, ...details].join("\n")
  })
  const text = [
    `Monitor "${input.monitorName}" checked ${input.summary.totalPages} page(s): ${counts(input.summary)}.`,
    "",
    ...sections.flatMap((section) => [section, ""]),
    `Monitor ${input.monitorId}, check ${input.checkId}.`
  ].join("\n")
  return {
    to: input.recipients,
    subject: `${input.monitorName}: ${counts(input.summary)}`,
    text
  }
}
