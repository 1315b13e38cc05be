import { describe, expect, it } from "vitest"
import { extractStructuredJson } from "../../src/transform/formats/structured-data.js"

const productHtml = `<!DOCTYPE html><html><head><title>Acme Anvil | Acme Store</title>
<meta property="og:title" content="Acme Anvil">
<meta property="og:image" content="/img/anvil-og.jpg">
<meta name="description" content="A very heavy anvil.">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"WebSite","@id":"https://shop.example/#site","name":"Acme Store","url":"https://shop.example/"},
 {"@type":"Organization","@id":"https://shop.example/#org","name":"Acme Corp","telephone":"+1 555 0100"},
 {"@type":"Product","name":"Acme Anvil","sku":"ANV-100","brand":{"@type":"Brand","name":"Acme"},
  "description":"Drop-forged steel anvil.",
  "image":["https://shop.example/img/anvil-1.jpg","https://shop.example/img/anvil-2.jpg"],
  "offers":{"@type":"Offer","price":"1299.00","priceCurrency":"USD","availability":"https://schema.org/InStock"},
  "aggregateRating":{"@type":"AggregateRating","ratingValue":"4.6","reviewCount":"1,204"},
  "publisher":{"@id":"https://shop.example/#org"}}
]}</script>
<script type="application/ld+json">{ this is not json </script>
</head><body><h1>Acme Anvil</h1><p>Price: $1,299.00</p>
<table><tr><th>Weight</th><td>50 kg</td></tr><tr><th>Material</th><td>Steel</td></tr></table>
</body></html>`

const productMarkdown = "# Acme Anvil\n\n**Price:** $1,299.00\n\n## Features\n\n- Heavy\n- Durable\n\n| Weight | 50 kg |\n| --- | --- |\n| Material | Steel |\n"

const articleHtml = `<html><head>
<meta property="og:title" content="Why Anvils Fall">
<meta property="og:description" content="A short history of cartoon physics.">
<meta property="og:image" content="https://news.example/cover.png">
<meta property="og:site_name" content="The Daily Example">
<meta property="article:published_time" content="2024-03-05T09:30:00Z">
<meta property="article:tag" content="physics">
</head><body>
<article itemscope itemtype="https://schema.org/NewsArticle">
  <h1 itemprop="headline">Why Anvils Fall</h1>
  <p>By <span itemprop="author" itemscope itemtype="https://schema.org/Person">
    <a itemprop="url" href="/authors/wile"><span itemprop="name">Wile E. Coyote</span></a></span></p>
  <time itemprop="datePublished" datetime="2024-03-05">March 5</time>
  <meta itemprop="wordCount" content="812">
  <div itemprop="articleBody"><p>Anvils fall because of gravity.</p></div>
</article></body></html>`

const specHtml = `<html><body><h1>ThinkBook 14</h1>
<dl><dt>Screen size</dt><dd>14 in</dd><dt>Weight</dt><dd>1.4 kg</dd></dl>
<table><thead><tr><th>Plan</th><th>Price</th><th>Storage</th></tr></thead>
<tbody><tr><td>Basic</td><td>$9 / month</td><td>10 GB</td></tr>
<tr><td>Pro</td><td>$29 / month</td><td>1 TB</td></tr></tbody></table>
<table><tr><td>Battery life</td><td>Up to 12 hours</td></tr><tr><td>Ports</td><td>USB-C, HDMI, USB-A</td></tr></table>
</body></html>`

const specMarkdown = "# ThinkBook 14\n\nReleased: 2023\nIn the box: laptop, charger\n"

describe("extractStructuredJson with a schema", () => {
  it("fills a product schema from JSON-LD, coercing types and leaving unknowns null", () => {
    const schema = {
      type: "object",
      properties: {
        productName: { type: "string" },
        price: { type: "number" },
        currency: { type: "string" },
        inStock: { type: "boolean" },
        rating: { type: "number" },
        reviewCount: { type: "integer" },
        brand: { type: "string" },
        sku: { type: "string" },
        images: { type: "array", items: { type: "string" } },
        weight: { type: "string" },
        features: { type: "array", items: { type: "string" } },
        color: { type: "string" },
        publisher: { type: "object", properties: { name: { type: "string" }, telephone: { type: "string" } } },
        author: { type: "object", properties: { name: { type: "string" } } }
      }
    }
    const result = extractStructuredJson(productHtml, { schema, pageUrl: "https://shop.example/anvil", markdown: productMarkdown })
    expect(result.json).toEqual({
      productName: "Acme Anvil",
      price: 1299,
      currency: "USD",
      inStock: true,
      rating: 4.6,
      reviewCount: 1204,
      brand: "Acme",
      sku: "ANV-100",
      images: ["https://shop.example/img/anvil-1.jpg", "https://shop.example/img/anvil-2.jpg"],
      weight: "50 kg",
      features: ["Heavy", "Durable"],
      color: null,
      publisher: { name: "Acme Corp", telephone: "+1 555 0100" },
      author: null
    })
    expect(result.sources).toEqual(expect.arrayContaining(["json-ld", "labels"]))
  })

  it("fills an article schema from microdata and OpenGraph, with formats and refs", () => {
    const schema = {
      type: "object",
      $defs: { person: { type: "object", properties: { name: { type: "string" }, url: { type: "string", format: "uri" } } } },
      properties: {
        title: { type: "string" },
        summary: { type: "string" },
        author: { $ref: "#/$defs/person" },
        published_at: { type: "string", format: "date-time" },
        word_count: { type: ["integer", "null"] },
        site_name: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        thumbnail: { type: "string" }
      }
    }
    const result = extractStructuredJson(articleHtml, { schema, pageUrl: "https://news.example/2024/anvils", markdown: "" })
    expect(result.json).toEqual({
      title: "Why Anvils Fall",
      summary: "A short history of cartoon physics.",
      author: { name: "Wile E. Coyote", url: "https://news.example/authors/wile" },
      published_at: "2024-03-05T09:30:00.000Z",
      word_count: 812,
      site_name: "The Daily Example",
      tags: ["physics"],
      thumbnail: "https://news.example/cover.png"
    })
    expect(result.sources).toEqual(expect.arrayContaining(["microdata", "meta"]))
  })

  it("reads definition lists, two-column tables, label lines and record tables", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string" },
        screenSize: { type: "string" },
        weight_kg: { type: "number" },
        batteryLife: { type: "string" },
        ports: { type: "array", items: { type: "string" } },
        released: { type: "integer" },
        plans: { type: "array", items: { type: "object", properties: { plan: { type: "string" }, price: { type: "number" }, storage: { type: "string" } } } }
      }
    }
    const result = extractStructuredJson(specHtml, { schema, pageUrl: "https://laptops.example/tb14", markdown: specMarkdown })
    expect(result.json).toEqual({
      name: null,
      screenSize: "14 in",
      weight_kg: 1.4,
      batteryLife: "Up to 12 hours",
      ports: ["USB-C", "HDMI", "USB-A"],
      released: 2023,
      plans: [
        { plan: "Basic", price: 9, storage: "10 GB" },
        { plan: "Pro", price: 29, storage: "1 TB" }
      ]
    })
    expect(result.sources).toEqual(["labels"])
  })

  it("fills a wrapper object from the page and lists from an ItemList", () => {
    const html = `<script type="application/ld+json">${JSON.stringify({
      "@context": "https://schema.org",
      "@type": "ItemList",
      itemListElement: [
        { "@type": "ListItem", position: 1, item: { "@type": "Product", name: "Red mug", offers: { price: 8 } } },
        { "@type": "ListItem", position: 2, item: { "@type": "Product", name: "Blue mug", offers: { price: "9.50" } } }
      ]
    })}</script><title>Mugs</title>`
    const schema = {
      type: "object",
      properties: {
        page: { type: "object", properties: { title: { type: "string" } } },
        products: { type: "array", items: { type: "object", properties: { name: { type: "string" }, price: { type: "number" } } } }
      }
    }
    const result = extractStructuredJson(html, { schema, pageUrl: "https://shop.example/mugs", markdown: "" })
    expect(result.json).toEqual({
      page: { title: "Mugs" },
      products: [{ name: "Red mug", price: 8 }, { name: "Blue mug", price: 9.5 }]
    })
  })

  it("matches enums case-insensitively and returns null for values outside them", () => {
    const schema = {
      type: "object",
      properties: {
        availability: { type: "string", enum: ["InStock", "OutOfStock"] },
        condition: { type: "string", enum: ["new", "used"] }
      }
    }
    const html = `<div itemscope itemtype="https://schema.org/Offer"><link itemprop="availability" href="https://schema.org/InStock">
      <meta itemprop="itemCondition" content="refurbished"></div><p>Condition: refurbished</p>`
    const result = extractStructuredJson(html, { schema, pageUrl: "https://shop.example/", markdown: "Condition: refurbished" })
    expect(result.json).toEqual({ availability: "InStock", condition: null })
  })
})

describe("extractStructuredJson without a schema", () => {
  it("returns the main entity merged with labelled facts", () => {
    const result = extractStructuredJson(productHtml, { pageUrl: "https://shop.example/anvil", markdown: productMarkdown })
    expect(result.json).toMatchObject({
      "@type": "Product",
      name: "Acme Anvil",
      sku: "ANV-100",
      offers: { price: "1299.00", priceCurrency: "USD" },
      publisher: { name: "Acme Corp" },
      weight: "50 kg",
      material: "Steel",
      features: ["Heavy", "Durable"]
    })
    expect(result.json).not.toHaveProperty("@context")
  })

  it("narrows the facts to the words of the prompt", () => {
    const result = extractStructuredJson(productHtml, { prompt: "What does it cost, and what is the price currency?", pageUrl: "https://shop.example/anvil", markdown: productMarkdown })
    expect(result.json).toEqual({ offers: { price: "1299.00", priceCurrency: "USD" } })
  })

  it("keeps everything when the prompt's words match nothing", () => {
    const all = extractStructuredJson(articleHtml, { pageUrl: "https://news.example/a", markdown: "" })
    const prompted = extractStructuredJson(articleHtml, { prompt: "zebra migration", pageUrl: "https://news.example/a", markdown: "" })
    expect(prompted.json).toEqual(all.json)
    expect(all.json).toMatchObject({ "@type": "NewsArticle", headline: "Why Anvils Fall", wordCount: "812" })
  })

  it("treats a schema without properties like no schema, and fills a top-level array schema", () => {
    const loose = extractStructuredJson(articleHtml, { schema: { type: "object" }, pageUrl: "https://news.example/a", markdown: "" })
    expect(loose.json).toMatchObject({ headline: "Why Anvils Fall" })
    const list = extractStructuredJson(specHtml, {
      schema: { type: "array", items: { type: "object", properties: { plan: { type: "string" }, storage: { type: "string" } } } },
      pageUrl: "https://laptops.example/tb14",
      markdown: ""
    })
    expect(list.json).toEqual([{ plan: "Basic", storage: "10 GB" }, { plan: "Pro", storage: "1 TB" }])
  })

  it("returns an empty object for a page without structured facts", () => {
    expect(extractStructuredJson("<p>Just words.</p>", { pageUrl: "https://x.example/", markdown: "Just words." })).toEqual({ json: {}, sources: [] })
  })
})
