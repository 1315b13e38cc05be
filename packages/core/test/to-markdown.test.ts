/**
 * HTML → markdown: golden cases (test/golden/markdown/<case>.html → <case>.md, hand-written, one
 * per feature), plus the contract with the scrape pipeline: a linkedom node converts exactly like
 * the same HTML as a string, and converting never changes the caller's tree.
 *
 * A golden .html may start with `<!-- baseUrl: … -->` to convert with that base URL.
 * UPDATE_GOLDEN=1 rewrites the .md files from the current output (review the diff!).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { parseHTML } from "linkedom"
import { describe, expect, it } from "vitest"
import { htmlToMarkdown, type MarkdownSourceNode } from "../src/transform/to-markdown.js"

const goldenDir = new URL("./golden/markdown/", import.meta.url)
const cases = readdirSync(goldenDir).filter((name) => name.endsWith(".html")).map((name) => name.slice(0, -".html".length)).sort()

const readCase = (name: string) => {
  const html = readFileSync(new URL(`${name}.html`, goldenDir), "utf8")
  const baseUrl = /^<!-- baseUrl: (\S+) -->/.exec(html)?.[1]
  return { html, options: baseUrl === undefined ? {} : { baseUrl } }
}

const parse = (html: string) => {
  const { document }: { document: MarkdownSourceNode & { body: MarkdownSourceNode & { outerHTML: string } } } = parseHTML(
    html.trimStart().startsWith("<!DOCTYPE") ? html : `<!DOCTYPE html><html><body>${html}</body></html>`
  )
  return document
}

describe("htmlToMarkdown golden cases", () => {
  it("has golden cases", () => {
    expect(cases.length).toBeGreaterThan(20)
  })

  for (const name of cases) {
    it(name, () => {
      const { html, options } = readCase(name)
      const actual = htmlToMarkdown(html, options)
      const expectedPath = new URL(`${name}.md`, goldenDir)
      if (process.env["UPDATE_GOLDEN"] === "1") writeFileSync(expectedPath, `${actual}\n`)
      expect(actual).toBe(readFileSync(expectedPath, "utf8").replace(/\n$/, ""))
    })
  }
})

describe("htmlToMarkdown on a linkedom node", () => {
  for (const name of cases) {
    it(`${name}: the document and its body convert like the string`, () => {
      const { html, options } = readCase(name)
      const document = parse(html)
      const fromString = htmlToMarkdown(html, options)
      expect(htmlToMarkdown(document, options)).toBe(fromString)
      expect(htmlToMarkdown(document.body, options)).toBe(fromString)
    })
  }

  it("leaves the caller's tree unchanged", () => {
    const document = parse(`<p>a &lt; b   <b> c </b></p>\n\n<pre>  x  </pre><table><tr><td>1</td></tr></table>`)
    const before = document.body.outerHTML
    htmlToMarkdown(document.body)
    expect(document.body.outerHTML).toBe(before)
  })

  it("converts a document linkedom built from a fragment, all of it", () => {
    const { document }: { document: MarkdownSourceNode } = parseHTML("<p>one</p><p>two</p>")
    expect(htmlToMarkdown(document)).toBe("one\n\ntwo")
  })
})

describe("htmlToMarkdown edge cases", () => {
  it("gives an empty string for empty or blank input", () => {
    expect(htmlToMarkdown("")).toBe("")
    expect(htmlToMarkdown("   \n ")).toBe("")
    expect(htmlToMarkdown("<div><span> </span></div>")).toBe("")
  })

  it("leaves relative links as written without a base URL, or with an invalid one", () => {
    expect(htmlToMarkdown(`<a href="/a">x</a>`)).toBe("[x](/a)")
    expect(htmlToMarkdown(`<a href="/a">x</a>`, { baseUrl: "not a url" })).toBe("[x](/a)")
  })

  it("keeps no state between calls", () => {
    const html = `<ol><li>a</li><li>b</li></ol><table><tr><td>h</td></tr><tr><td>v</td></tr></table>`
    const first = htmlToMarkdown(html, { baseUrl: "https://a.example/" })
    expect(htmlToMarkdown(`<a href="x">x</a>`)).toBe("[x](x)")
    expect(htmlToMarkdown(html, { baseUrl: "https://a.example/" })).toBe(first)
  })

  it("stays linear on long lists and wide tables", () => {
    const items = Array.from({ length: 5000 }, (_, i) => `<li>item ${i}</li>`).join("")
    const row = (r: number) => `<tr>${Array.from({ length: 40 }, (_, c) => `<td>${r}.${c}</td>`).join("")}</tr>`
    const rows = Array.from({ length: 500 }, (_, r) => row(r)).join("")
    const started = performance.now()
    const list = htmlToMarkdown(`<ol>${items}</ol>`)
    const table = htmlToMarkdown(`<table>${rows}</table>`)
    // Generous bound (both take well under a second): catches quadratic behaviour, not jitter.
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(list.endsWith("5000. item 4999")).toBe(true)
    expect(table.split("\n")).toHaveLength(501)
  })
})
