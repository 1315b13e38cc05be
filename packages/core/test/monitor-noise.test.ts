/**
 * Noise control of monitors: twenty versions of a page that differ only in noise — rotating
 * tokens (CSRF in a form link, session ids, request UUIDs, a JWT), tracking and cache-busting
 * parameters, fingerprinted asset names, and a "last updated" clock the monitor ignores by
 * pattern — compare `same` every time; real edits are `changed` with the edit in the diff.
 */
import { describe, expect, it } from "vitest"
import { compareForMonitor, compileNoiseRules, type NoiseRules, normalizeForMonitor } from "@gleaner/core"

const rulesFor = (patterns: ReadonlyArray<string>): NoiseRules => {
  const compiled = compileNoiseRules({ excludePatterns: patterns })
  if (!compiled.ok) throw new Error(compiled.message)
  return compiled.rules
}

const hex = (seed: number, length: number) => {
  let out = ""
  let x = seed * 2654435761 % 4294967296
  while (out.length < length) {
    x = (x * 1103515245 + 12345) % 2147483648
    out += x.toString(16)
  }
  return out.slice(0, length)
}
const b64 = (seed: number, length: number) => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
  let x = seed + 7
  let out = "aZ9"
  while (out.length < length) {
    x = (x * 1103515245 + 12345) % 2147483648
    out += alphabet[x % 64]
  }
  return out
}
const uuidOf = (seed: number) => {
  const h = hex(seed, 32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** One version of the page as its markdown: `i` drives every piece of noise. */
const version = (i: number, edit: (page: string) => string = (p) => p) =>
  edit([
    "[Home](https://shop.example.com/?utm_source=newsletter&utm_medium=email&utm_campaign=c" + i + ") [Pricing](https://shop.example.com/pricing?fbclid=" + b64(i, 24) + ")",
    "",
    "![Logo](https://cdn.example.com/assets/logo." + hex(i, 10) + ".png)",
    "",
    "# Widget Pro",
    "",
    "The Widget Pro costs $19.99 and ships in 2 days. Product id 48213.",
    "",
    "- Stainless steel",
    "- 2 year warranty",
    "- Works with [the app](https://shop.example.com/app;jsessionid=" + hex(i + 3, 32).toUpperCase() + "?ref=home)",
    "",
    "[Add to cart](https://shop.example.com/cart/add?item=48213&csrf_token=" + b64(i + 1, 40) + "&_=" + (1_780_000_000_000 + i * 1000) + ")",
    "",
    "[Download the manual](https://shop.example.com/files/manual.pdf?v=" + (1_780_000_000 + i) + "&gclid=" + b64(i + 2, 30) + ")",
    "",
    "Request id: " + uuidOf(i),
    "",
    "[Your account](https://shop.example.com/account?token=eyJhbGciOiJIUzI1NiJ9." + b64(i + 4, 30) + "." + b64(i + 5, 43) + ")",
    "",
    "Last updated: 2026-11-" + String(1 + (i % 28)).padStart(2, "0") + " " + String(i % 24).padStart(2, "0") + ":" + String((i * 7) % 60).padStart(2, "0") + " UTC",
    "",
    "<script src=\"https://cdn.example.com/js/app-" + hex(i + 9, 12) + ".js?cb=" + hex(i + 8, 8) + "\"></script>",
    "",
    "Footer · [Contact](https://shop.example.com/contact?mc_cid=" + hex(i, 10) + "&mc_eid=" + hex(i + 1, 10) + ")"
  ].join("\n"))

const rules = rulesFor(["^Last updated:"])
const compare = (before: string, after: string, r: NoiseRules = rules) =>
  compareForMonitor({ markdown: before }, { markdown: after }, { rules: r, jsonMode: false })

describe("monitor noise control", () => {
  it("twenty versions differing only in noise are all `same`, check after check", () => {
    const statuses: Array<string> = []
    for (let i = 1; i <= 20; i++) statuses.push(compare(version(i - 1), version(i)).status)
    expect(statuses).toEqual(Array.from({ length: 20 }, () => "same"))
    // and each against the first, too
    expect(Array.from({ length: 20 }, (_, i) => compare(version(0), version(i + 1)).status).every((s) => s === "same")).toBe(true)
  })

  it("the ignored clock would be a change without its pattern", () => {
    expect(compare(version(1), version(2), rulesFor([])).status).toBe("changed")
  })

  it("normalising is idempotent", () => {
    for (let i = 0; i < 20; i++) {
      const once = normalizeForMonitor(version(i), rules)
      expect(normalizeForMonitor(once, rules)).toBe(once)
    }
  })

  const realEdits: ReadonlyArray<readonly [string, (page: string) => string, string]> = [
    ["a price", (p) => p.replace("$19.99", "$24.99"), "+The Widget Pro costs $24.99"],
    ["a new paragraph", (p) => p.replace("- 2 year warranty", "- 2 year warranty\n\nNow also in blue."), "+Now also in blue."],
    ["a link target", (p) => p.replace("/files/manual.pdf", "/files/manual-v2.pdf"), "manual-v2.pdf"],
    ["a removed list item", (p) => p.replace("- Stainless steel\n", ""), "-- Stainless steel"],
    ["a date in the text", (p) => p.replace("ships in 2 days", "ships on 2026-12-01"), "+The Widget Pro costs $19.99 and ships on 2026-12-01"],
    ["a product id in a query", (p) => p.replace("item=48213", "item=48214"), "item=48214"],
    ["a link text", (p) => p.replace("[Contact]", "[Support]"), "[Support]"],
    ["a short number", (p) => p.replace("Product id 48213", "Product id 48215"), "Product id 48215"]
  ]
  for (const [what, edit, shown] of realEdits) {
    it(`catches ${what}, even amid noise`, () => {
      const result = compare(version(3), version(4, edit))
      expect(result.status).toBe("changed")
      expect(result.diff?.text).toContain(shown)
      // noise stays out of the diff
      expect(result.diff?.text).not.toMatch(/utm_|fbclid|jsessionid=[0-9A-F]|Last updated/)
    })
  }

  it("leaves words, CamelCase names and SKUs alone", () => {
    const text = "Supercalifragilisticexpialidocious AbstractSingletonProxyFactoryBean SKU ABC-123 model X1000"
    expect(normalizeForMonitor(text, rules)).toBe(text)
  })

  it("reports a new page with all its lines and the changed lines of an edit", () => {
    const fresh = compareForMonitor(undefined, { markdown: "# A\n\nB" }, { rules, jsonMode: false })
    expect(fresh).toEqual({ status: "new", changedLines: { added: ["# A", "B"], removed: [] } })
    const edited = compare("# A\n\nB", "# A\n\nC")
    expect(edited.changedLines).toEqual({ added: ["C"], removed: ["B"] })
  })

  it("compares extracted JSON field by field in json mode", () => {
    const result = compareForMonitor(
      { markdown: "x", json: { price: 19, name: "W" } },
      { markdown: "x", json: { price: 24, name: "W" } },
      { rules, jsonMode: true }
    )
    expect(result.status).toBe("changed")
    expect(result.jsonDiff).toEqual({ price: { previous: 19, current: 24 } })
    expect(result.diff).toBeUndefined()
  })

  it("refuses patterns that do not compile or could backtrack forever", () => {
    expect(compileNoiseRules({ excludePatterns: ["ok", "(unclosed"] })).toMatchObject({ ok: false, index: 1 })
    expect(compileNoiseRules({ excludePatterns: ["(a+)+$"] })).toMatchObject({ ok: false, index: 0 })
  })
})
