/**
 * docs/configuration.md must list every setting of the Config definition, with its default,
 * and nothing else: on drift this test fails and prints the table the document should hold.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { settings } from "@gleaner/core"

const docPath = fileURLToPath(new URL("../../../docs/configuration.md", import.meta.url))

const expectedRows = Object.values(settings).map((s) => `| \`${s.name}\` | ${s.default} | ${s.description} |`)

const documentedRows = (markdown: string) => {
  const start = markdown.indexOf("<!-- settings:start -->")
  const end = markdown.indexOf("<!-- settings:end -->")
  return markdown.slice(start, end).split("\n").filter((line) => line.startsWith("| `"))
}

describe("docs/configuration.md", () => {
  it("lists exactly the settings of the Config definition", () => {
    const rows = documentedRows(readFileSync(docPath, "utf8"))
    const message = `docs/configuration.md is out of date; its table should read:\n\n| setting | default | meaning |\n|---|---|---|\n${expectedRows.join("\n")}\n`
    expect(rows, message).toEqual(expectedRows)
  })
})
