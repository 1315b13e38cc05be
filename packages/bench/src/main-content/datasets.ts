/**
 * Reads the dev parts of the two main-content datasets in place (shared/bench-data, beside the
 * repository, or GLEANER_BENCH_DATA): pages are gunzipped on demand and never copied.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gunzipSync } from "node:zlib"

export const benchDataDir = process.env["GLEANER_BENCH_DATA"] ??
  fileURLToPath(new URL("../../../../../shared/bench-data/", import.meta.url))

export interface AebPage {
  readonly id: string
  readonly url: string
  readonly truth: string
  readonly html: () => string
}

export interface WcxbPage {
  readonly id: string
  readonly url: string
  readonly type: string
  readonly truth: string
  readonly with: ReadonlyArray<string>
  readonly without: ReadonlyArray<string>
  readonly html: () => string
}

const gunzipText = (path: string): string => gunzipSync(readFileSync(path)).toString("utf8")

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const stringField = (value: unknown, key: string): string => {
  const field = isRecord(value) ? value[key] : undefined
  return typeof field === "string" ? field : ""
}

const stringArray = (value: unknown): Array<string> =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []

export const loadAeb = (): Array<AebPage> => {
  const dir = join(benchDataDir, "scrapinghub-aeb")
  const truth: unknown = JSON.parse(readFileSync(join(dir, "ground-truth.json"), "utf8"))
  if (!isRecord(truth)) throw new Error("scrapinghub-aeb/ground-truth.json is not an object")
  return Object.keys(truth).sort().flatMap((id) => {
    const path = join(dir, "html", `${id}.html.gz`)
    if (!existsSync(path)) return []
    const entry = truth[id]
    return [{ id, url: stringField(entry, "url"), truth: stringField(entry, "articleBody"), html: () => gunzipText(path) }]
  })
}

/** WCXB page type as upstream scores it ("category" counts as "collection"). */
const pageTypeOf = (record: unknown): string => {
  const internal = isRecord(record) ? record["_internal"] : undefined
  const pageType = isRecord(internal) ? internal["page_type"] : undefined
  const primary = stringField(pageType, "primary")
  return primary === "category" ? "collection" : primary === "" ? "unknown" : primary
}

export const loadWcxb = (): Array<WcxbPage> => {
  const dir = join(benchDataDir, "wcxb")
  return readdirSync(join(dir, "ground-truth")).filter((f) => f.endsWith(".json")).sort().flatMap((file) => {
    const id = file.replace(/\.json$/, "")
    const path = join(dir, "html", `${id}.html.gz`)
    if (!existsSync(path)) return []
    const record: unknown = JSON.parse(readFileSync(join(dir, "ground-truth", file), "utf8"))
    const gt = isRecord(record) ? record["ground_truth"] : undefined
    return [{
      id,
      url: stringField(record, "url"),
      type: pageTypeOf(record),
      truth: stringField(gt, "main_content"),
      with: stringArray(isRecord(gt) ? gt["with"] : undefined),
      without: stringArray(isRecord(gt) ? gt["without"] : undefined),
      html: () => gunzipText(path)
    }]
  })
}
