import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { htmlContent, type HtmlRecipe } from "../src/scrape/html-content.js"
import { HtmlThreadPool } from "../src/scrape/html-threads.js"

const recipe: HtmlRecipe = {
  sourceUrl: "https://example.test/guide",
  onlyMainContent: true,
  includeTags: [],
  excludeTags: [],
  removeBase64Images: true,
  blockAds: true,
  want: { markdown: true, html: true, rawHtml: false, links: true, images: true, summary: false, changeTracking: false }
}

const pageOf = (html: string) => ({
  url: "https://example.test/guide",
  statusCode: 200,
  contentType: "text/html; charset=utf-8",
  body: new TextEncoder().encode(html)
})

const article = pageOf(`<!doctype html><html lang="en"><head><title>Install guide</title>
<meta name="description" content="How to install"></head><body>
<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<main><h1>Installing</h1><p>Run the installer, then <a href="/next">continue</a>.</p>
<pre><code class="language-sh">npm install gleaner</code></pre>
<table><tr><th>OS</th><th>Status</th></tr><tr><td>Linux</td><td>ok</td></tr></table>
<img src="/shot.png" alt="screen"></main><footer>© 2026</footer></body></html>`)

/** Waits (up to 30 s: threads boot through tsx in tests) until the pool has a ready thread. */
const untilReady = (pool: HtmlThreadPool) =>
  Effect.gen(function*() {
    for (let i = 0; i < 300 && pool.readyThreads === 0; i++) {
      yield* pool.transform(recipe, article)
      yield* Effect.sleep(100)
    }
    assert.isAbove(pool.readyThreads, 0, "no transform thread became ready")
  })

describe("transform threads", () => {
  it.live("a page processed in a thread has exactly the content the main thread produces", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => new HtmlThreadPool(2)),
      (pool) =>
        Effect.gen(function*() {
          yield* untilReady(pool)
          const expected = htmlContent(recipe, article)
          const results = yield* Effect.all(Array.from({ length: 20 }, () => pool.transform(recipe, article)), { concurrency: 20 })
          for (const produced of results) assert.deepStrictEqual(produced, expected)
          assert.include(expected.markdown ?? "", "```sh\nnpm install gleaner\n```")
          assert.include(expected.links ?? [], "https://example.test/next")
          assert.strictEqual(expected.metadata["title"], "Install guide")
        }),
      (pool) => Effect.promise(() => pool.close())
    ), 60_000)

  it.live("a page that exhausts a thread's heap fails alone; the next pages are processed", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => new HtmlThreadPool(1, { heapMb: 96 })),
      (pool) =>
        Effect.gen(function*() {
          yield* untilReady(pool)
          // ~24 MB of nested markup: its DOM needs far more than 96 MB
          const monstrous = pageOf(`<html><body><main>${"<div><p>word <b>bold</b> <a href='/x'>link</a></p></div>".repeat(400_000)}</main></body></html>`)
          const exit = yield* Effect.exit(pool.transform(recipe, monstrous))
          assert.isTrue(exit._tag === "Failure", "the monstrous page should fail")
          if (exit._tag === "Failure") assert.match(String(exit.cause), /Processing https:\/\/example\.test\/guide failed: the transform thread/)
          const after = yield* pool.transform(recipe, article)
          assert.include(after.markdown ?? "", "Installing")
          yield* untilReady(pool)
          assert.strictEqual(pool.readyThreads, 1)
        }),
      (pool) => Effect.promise(() => pool.close())
    ), 120_000)
})
