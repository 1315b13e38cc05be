import { assert, describe, it } from "@effect/vitest"
import { looksLikeJavaScriptShell } from "../src/scrape/javascript-shell.js"

const page = (head: string, body: string) => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`
const article = "<article><h1>Release notes</h1>" + "<p>Gleaner now renders pages that need JavaScript in a real browser.</p>".repeat(8) + "</article>"

describe("looksLikeJavaScriptShell", () => {
  it("an empty application root with a bundle is a shell (React, Next, Vue, Angular-style roots)", () => {
    assert.isTrue(looksLikeJavaScriptShell(page("<title>App</title>", '<div id="root"></div><script src="/static/js/main.4f2c.js"></script>')))
    assert.isTrue(looksLikeJavaScriptShell(page("<title>Shop</title><script id=\"__NEXT_DATA__\" type=\"application/json\">{\"props\":{}}</script>", '<div id="__next"></div>')))
    assert.isTrue(looksLikeJavaScriptShell(page('<script type="module" src="/assets/index.js"></script>', "<div id='app'></div>")))
    assert.isTrue(looksLikeJavaScriptShell(page("", '<app-root></app-root><script src="main.js" type="module"></script>')))
  })

  it("a page that only asks for JavaScript is a shell", () => {
    assert.isTrue(looksLikeJavaScriptShell(page("", "<noscript>You need to enable JavaScript to run this app.</noscript><div></div>")))
  })

  it("a page with its text in the markup is not, however many scripts it has", () => {
    const scripts = '<script src="/a.js"></script><script>window.x = "' + "y".repeat(5000) + '"</script>'
    assert.isFalse(looksLikeJavaScriptShell(page(scripts, `<div id="root">${article}</div>`)))
    assert.isFalse(looksLikeJavaScriptShell(page("", article + scripts)))
  })

  it("a short static page without scripts is not a shell", () => {
    assert.isFalse(looksLikeJavaScriptShell(page("<title>Hi</title>", "<p>Hello.</p>")))
    assert.isFalse(looksLikeJavaScriptShell("plain text without markup"))
  })

  it("text hidden in scripts, styles, templates and comments does not count as page text", () => {
    const hidden = `<style>${"body{color:red}".repeat(50)}</style><template>${article}</template><!-- ${article} --><SCRIPT>var s = "${"z".repeat(800)}"</SCRIPT>`
    assert.isTrue(looksLikeJavaScriptShell(page('<script src="/bundle.js"></script>', hidden + '<div id="app"></div>')))
  })
})
