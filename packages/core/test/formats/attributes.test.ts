import { describe, expect, it } from "vitest"
import { extractAttributes } from "../../src/transform/formats/attributes.js"

const html = `<html><body>
<a href="/one" data-id="1">One</a><a href="/two" data-id="">Two</a><a>No href</a>
<img src="/a.png" alt="A"><IMG SRC="/b.png">
</body></html>`

describe("extractAttributes", () => {
  it("returns the attribute of every match in document order, skipping elements without it", () => {
    expect(extractAttributes(html, [{ selector: "a", attribute: "href" }, { selector: "a[data-id]", attribute: "data-id" }, { selector: "img", attribute: "SRC" }])).toEqual([
      { selector: "a", attribute: "href", values: ["/one", "/two"] },
      { selector: "a[data-id]", attribute: "data-id", values: ["1", ""] },
      { selector: "img", attribute: "SRC", values: ["/a.png", "/b.png"] }
    ])
  })

  it("answers an invalid selector, an empty one or a pseudo-attribute with no values", () => {
    expect(extractAttributes(html, [{ selector: "a[[", attribute: "href" }, { selector: "", attribute: "href" }, { selector: "a", attribute: "textContent" }]).map((r) => r.values))
      .toEqual([[], [], []])
  })

  it("works on fragments", () => {
    expect(extractAttributes('<p class="x">a</p><p class="y">b</p>', [{ selector: "body > p", attribute: "class" }])[0]?.values).toEqual(["x", "y"])
  })
})
