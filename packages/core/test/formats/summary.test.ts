import { describe, expect, it } from "vitest"
import { summarizeExtractive } from "../../src/transform/formats/summary.js"

const article = `# Anvils in Cartoons

- [Home](/)
- [About](/about)

Anvils appear in cartoons as the classic falling object. Cartoon anvils fall faster than anything else on screen.
Writers liked anvils because anvils are heavy, cheap to draw and instantly recognisable.

## History

The first cartoon anvil fell in 1930, in a short about a stubborn mule. Audiences laughed, and studios copied the gag for decades.
Some studios preferred pianos. Pianos never replaced anvils, though.

| Year | Anvils |
| --- | --- |
| 1930 | 1 |

\`\`\`js
const anvil = drop()
\`\`\`

Today the falling anvil is shorthand for sudden, unavoidable trouble in cartoons and memes alike. Mr. Smith disagrees.
`

describe("summarizeExtractive", () => {
  it("returns the best sentences in document order, skipping headings, lists, tables and code", () => {
    const summary = summarizeExtractive(article, { maxSentences: 3 })
    expect(summary.startsWith("Anvils appear in cartoons as the classic falling object.")).toBe(true)
    expect(summary).not.toMatch(/Home|History|\||drop\(\)|#/)
    const sentences = summary.match(/[^.!?]+[.!?]/g) ?? []
    expect(sentences.length).toBe(3)
    const positions = sentences.map((s) => article.indexOf(s.trim()))
    expect(positions.every((p) => p >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })

  it("keeps to the word budget by default", () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} explains anvils and their cartoon physics in some detail here.`).join(" ")
    const summary = summarizeExtractive(long)
    expect(summary.split(/\s+/).length).toBeLessThanOrEqual(120)
    expect(summary.match(/Sentence number/g)?.length).toBeLessThanOrEqual(5)
  })

  it("does not split at abbreviations and returns an empty string without prose", () => {
    expect(summarizeExtractive("Dr. Jones met Mr. Smith at the U.S. office on Monday morning.")).toBe("Dr. Jones met Mr. Smith at the U.S. office on Monday morning.")
    expect(summarizeExtractive("# Title\n\n- [a](/a)\n- [b](/b)\n")).toBe("")
  })
})
