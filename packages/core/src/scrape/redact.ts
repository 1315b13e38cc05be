/**
 * `redactPII` applied to every text the document carries (markdown, HTML, summary, JSON strings),
 * before anything is stored, so change-tracking snapshots and kept documents hold no PII either.
 */
import { PII_CUE_ONLY_WARNING, redactPii } from "../transform/formats/pii.js"
import type { ScrapePlan } from "./plan.js"
import type { Produced } from "./produce.js"

const redactJson = (value: unknown, redact: (text: string) => string): unknown => {
  if (typeof value === "string") return redact(value)
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redact))
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactJson(v, redact)]))
  }
  return value
}

export const redactProduced = (plan: ScrapePlan, produced: Produced): Produced => {
  const options = plan.redactPii
  if (options === undefined) return produced
  let limited = false
  const redact = (text: string) => {
    const result = redactPii(text, options)
    if (result.limited.length > 0) limited = true
    return result.text
  }
  const optional = (text: string | undefined) => (text === undefined ? {} : { text: redact(text) })
  const md = optional(produced.markdown)
  const html = optional(produced.html)
  const raw = optional(produced.rawHtml)
  const summary = optional(produced.summary)
  return {
    ...produced,
    ...(md.text === undefined ? {} : { markdown: md.text }),
    ...(html.text === undefined ? {} : { html: html.text }),
    ...(raw.text === undefined ? {} : { rawHtml: raw.text }),
    ...(summary.text === undefined ? {} : { summary: summary.text }),
    ...(produced.json === undefined ? {} : { json: redactJson(produced.json, redact) }),
    fullMarkdown: redact(produced.fullMarkdown),
    warnings: limited ? [...produced.warnings, PII_CUE_ONLY_WARNING] : produced.warnings
  }
}
