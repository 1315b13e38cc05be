/**
 * The package version, read once from package.json (one level above both `src/` and `dist/`),
 * for the health endpoint and the OpenAPI document.
 */
import { readFileSync } from "node:fs"
import { Schema } from "effect"

const PackageJson = Schema.parseJson(Schema.Struct({ version: Schema.String }))

export const packageVersion: string =
  Schema.decodeUnknownSync(PackageJson)(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version
