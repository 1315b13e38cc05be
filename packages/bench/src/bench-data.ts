/**
 * Read access to the shared third-party benchmark data, in place: nothing from it is copied into
 * this repository (its README forbids committing the pages). The folder defaults to
 * `../shared/bench-data` beside the repository; GLEANER_BENCH_DATA overrides it.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gunzipSync } from "node:zlib"

export const benchDataDir: string =
  process.env["GLEANER_BENCH_DATA"] ?? fileURLToPath(new URL("../../../../shared/bench-data/", import.meta.url))

/** One case of an html2md conformance suite. */
export interface FixtureCase {
  readonly id: string
  readonly input: string
  readonly expected: string
  /** The TurndownService options upstream ran the case with ({} = defaults). */
  readonly options: Readonly<Record<string, unknown>>
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const asFixtureCase = (value: unknown): FixtureCase => {
  if (!isRecord(value)) throw new Error("fixture case is not an object")
  const { id, input, expected, options } = value
  if (typeof id !== "string" || typeof input !== "string" || typeof expected !== "string") {
    throw new Error(`fixture case ${String(id)} lacks id, input or expected`)
  }
  return { id, input, expected, options: isRecord(options) ? options : {} }
}

/** `turndown-core.json` or `turndown-gfm.json`. */
export const readTurndownSuite = (file: string): Array<FixtureCase> => {
  const parsed: unknown = JSON.parse(readFileSync(join(benchDataDir, "html2md-fixtures", file), "utf8"))
  if (!Array.isArray(parsed)) throw new Error(`${file} is not an array`)
  return parsed.map(asFixtureCase)
}

/** The html-to-markdown (Go) golden files: `<plugin>/<name>.in.html` with `.out.md`. */
export const readJkGolden = (): Array<FixtureCase> => {
  const root = join(benchDataDir, "html2md-fixtures", "jk-golden")
  return readdirSync(root).sort().flatMap((plugin) =>
    readdirSync(join(root, plugin))
      .filter((name) => name.endsWith(".in.html"))
      .sort()
      .map((name) => {
        const base = name.slice(0, -".in.html".length)
        return {
          id: `jk:${plugin}/${base}`,
          input: readFileSync(join(root, plugin, name), "utf8"),
          expected: readFileSync(join(root, plugin, `${base}.out.md`), "utf8"),
          options: {}
        }
      })
  )
}

/** A real web page from one of the extraction benchmarks. */
export interface BenchPage {
  readonly id: string
  readonly html: string
  /** UTF-8 size of `html`. */
  readonly bytes: number
}

const pageFolders = { wcxb: "wcxb/html", aeb: "scrapinghub-aeb/html" } as const

export type PageSet = keyof typeof pageFolders

/** The page ids of a set, sorted, so runs are repeatable. */
export const pageIds = (set: PageSet): Array<string> =>
  readdirSync(join(benchDataDir, pageFolders[set])).filter((name) => name.endsWith(".html.gz")).sort()
    .map((name) => `${set}:${name.slice(0, -".html.gz".length)}`)

/** Reads one page (gunzipped) by an id from `pageIds`. */
export const readPage = (id: string): BenchPage => {
  const separator = id.indexOf(":")
  const set = id.slice(0, separator)
  const name = id.slice(separator + 1)
  if (set !== "wcxb" && set !== "aeb") throw new Error(`unknown page id ${id}`)
  const buffer = gunzipSync(readFileSync(join(benchDataDir, pageFolders[set], `${name}.html.gz`)))
  return { id, html: buffer.toString("utf8"), bytes: buffer.byteLength }
}
