/**
 * `/article`: one long article page of our own writing, with everything the transforms must
 * handle — site chrome (nav, sidebar, footer, cookie banner), headings, a table worth a GFM
 * table, fenced code in several languages, nested lists, relative and absolute links, responsive
 * images, an inline base64 image, an ad iframe, Open Graph / Dublin Core / article meta tags and
 * JSON-LD. The facts in it are invented; tests may assert any sentence.
 */
import { fixturePngBase64 } from "./png.js"
import { route, sendHtml } from "../http.js"

export const articleTitle = "Tending a Sourdough Starter Through Winter"

const head = (base: string): string => `<head>
<meta charset="utf-8">
<title>${articleTitle} | The Crumb Gazette</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="How to keep a sourdough starter lively when the kitchen drops below 18 °C.">
<meta name="keywords" content="sourdough, starter, fermentation, winter baking">
<meta name="author" content="Marta Quillfeather">
<meta name="robots" content="index, follow">
<link rel="canonical" href="${base}/article">
<link rel="icon" href="/favicon.ico">
<meta property="og:title" content="${articleTitle}">
<meta property="og:description" content="Warmth, flour and patience: a field guide to winter starters.">
<meta property="og:type" content="article">
<meta property="og:url" content="${base}/article">
<meta property="og:image" content="${base}/image.png">
<meta property="og:site_name" content="The Crumb Gazette">
<meta property="og:locale" content="en_GB">
<meta property="article:published_time" content="2025-11-03T08:30:00Z">
<meta property="article:modified_time" content="2025-11-05T17:12:00Z">
<meta property="article:section" content="Baking">
<meta property="article:tag" content="sourdough">
<meta property="article:tag" content="fermentation">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${articleTitle}">
<meta name="dc.title" content="${articleTitle}">
<meta name="dc.creator" content="Marta Quillfeather">
<meta name="dc.date" content="2025-11-03">
<meta name="dc.language" content="en">
<meta name="dcterms.subject" content="Bread">
<script type="application/ld+json">
{"@context":"https://schema.org","@type":"Article","headline":"${articleTitle}",
 "author":{"@type":"Person","name":"Marta Quillfeather"},"datePublished":"2025-11-03T08:30:00Z",
 "image":["${base}/image.png"],"publisher":{"@type":"Organization","name":"The Crumb Gazette"}}
</script>
<style>body{font-family:serif}.ad{border:1px solid #ccc}</style>
<script>window.analytics = { track: function () {} };</script>
</head>`

const chrome = `<header class="site-header">
  <a class="logo" href="/">The Crumb Gazette</a>
  <nav class="main-nav" aria-label="Main">
    <ul><li><a href="/">Home</a></li><li><a href="/site/0">Recipes</a></li><li><a href="/site/1">Techniques</a></li><li><a href="/site/2">About</a></li></ul>
  </nav>
</header>
<div class="cookie-banner" role="dialog">We use cookies to remember your oven. <button>Accept all</button></div>`

const sidebar = `<aside class="sidebar">
  <h3>Popular this week</h3>
  <ul><li><a href="/site/3">Ten rye loaves ranked</a></li><li><a href="/site/4">Why your crust is pale</a></li></ul>
  <div class="ad"><iframe src="https://ads.example.net/slot?id=sidebar-300x250" width="300" height="250" title="Advertisement"></iframe></div>
  <form class="newsletter"><label>Newsletter <input type="email" name="email"></label><button>Sign up</button></form>
</aside>`

const footer = `<footer class="site-footer">
  <p>© 2025 The Crumb Gazette. <a href="/site/5">Privacy</a> · <a href="/site/6">Terms</a></p>
  <p>Follow us: <a href="https://social.example.org/@crumbgazette">@crumbgazette</a></p>
</footer>`

const table = `<table>
  <caption>Feeding schedule by kitchen temperature</caption>
  <thead><tr><th>Kitchen</th><th>Ratio (starter:flour:water)</th><th>Feeds per day</th><th>Peak after</th></tr></thead>
  <tbody>
    <tr><td>24 °C</td><td>1:5:5</td><td>2</td><td>6 h</td></tr>
    <tr><td>20 °C</td><td>1:3:3</td><td>2</td><td>8 h</td></tr>
    <tr><td>16 °C</td><td>1:2:2</td><td>1</td><td>12 h</td></tr>
    <tr><td>12 °C | cellar</td><td>1:1:1</td><td>1</td><td>18 h</td></tr>
  </tbody>
</table>`

const code = `<pre><code class="language-python">def hydration(flour_g: float, water_g: float) -> float:
    """Percentage of water relative to flour."""
    return round(100 * water_g / flour_g, 1)

print(hydration(500, 375))  # 75.0
</code></pre>
<p>The same check as a shell one-liner:</p>
<pre><code class="language-bash">echo "scale=1; 100 * 375 / 500" | bc</code></pre>
<p>And a plain block without a language:</p>
<pre>  starter  ->  levain  ->  dough
     ^                     |
     +---------------------+</pre>`

const lists = `<ul>
  <li>Warmth
    <ul>
      <li>Put the jar on top of the fridge.</li>
      <li>Or in the oven with only the light on.
        <ol><li>Check after one hour.</li><li>Never above 30 °C.</li></ol>
      </li>
    </ul>
  </li>
  <li>Flour: a spoon of wholemeal rye wakes a sluggish starter.</li>
  <li>Water: <em>lukewarm</em>, never <strong>hot</strong>.</li>
</ul>
<ol start="3"><li>Third step first, on purpose.</li><li>Fourth step.</li></ol>`

const images = (base: string): string => `<figure>
  <img src="/image.png" srcset="/image.png 1x, /image.png?size=2x 2x, ${base}/image.png?w=800 800w" sizes="(max-width: 600px) 100vw, 600px" alt="A bubbly starter in a glass jar" width="16" height="16">
  <figcaption>A starter at peak: domed, bubbly, smelling of yoghurt.</figcaption>
</figure>
<p>Inline diagram: <img src="data:image/png;base64,${fixturePngBase64()}" alt="Tiny gradient diagram"></p>
<picture><source srcset="/image.png?format=webp" type="image/webp"><img src="/image.png?format=png" alt="Crumb shot"></picture>`

const body = (base: string): string => `<body>
${chrome}
<main>
<article class="post">
  <h1>${articleTitle}</h1>
  <p class="byline">By <a rel="author" href="/site/7">Marta Quillfeather</a> · <time datetime="2025-11-03">3 November 2025</time></p>
  <p class="lede">A sourdough starter is a colony of wild yeasts and lactic acid bacteria, and like most colonies it slows down in the cold. This guide explains how to keep it lively from November to March.</p>
  <h2 id="why">Why starters slow down</h2>
  <p>Below 18 °C the yeasts divide more slowly than the bacteria, so the starter turns sour before it rises. See our <a href="/site/8">fermentation primer</a> and the <a href="${base}/site/9">glossary</a>, or the external <a href="https://bread.example.org/science/yeast">yeast science notes</a>.</p>
  <h2 id="schedule">A feeding schedule</h2>
  ${table}
  <h3 id="measuring">Measuring hydration</h3>
  <p>Weigh, do not guess. A small function makes the arithmetic explicit:</p>
  ${code}
  <h2 id="tips">Practical tips</h2>
  ${lists}
  ${images(base)}
  <blockquote><p>“Feed the starter you have, not the starter you want.” — an old baker’s saying</p></blockquote>
  <h2 id="summary">In short</h2>
  <p>Keep it warm, feed it less flour per gram, and be patient. Read <a href="../site/10?ref=article#top">the follow-up</a> next week.</p>
</article>
${sidebar}
</main>
${footer}
<script>window.analytics.track("pageview");</script>
</body>`

/** The article page's HTML, with absolute links pointing at `base`. */
export const articleHtml = (base: string): string =>
  `<!doctype html>\n<html lang="en-GB">\n${head(base)}\n${body(base)}\n</html>\n`

export const articleRoutes = [route(/^\/article$/, ({ res, base }) => sendHtml(res, articleHtml(base)))]
