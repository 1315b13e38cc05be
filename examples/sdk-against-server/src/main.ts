/**
 * `pnpm start <api-url> <api-key>`, e.g. `pnpm start http://localhost:3002 fc-…` with the key
 * `gleaner serve` printed.
 */
import { usageReport } from "./report.js"

const [apiUrl = "http://localhost:3002", apiKey] = process.argv.slice(2)
if (apiKey === undefined) {
  process.stderr.write("usage: pnpm start <api-url> <api-key>\n")
  process.exit(2)
}
process.stdout.write(`${JSON.stringify(await usageReport(apiUrl, apiKey), null, 2)}\n`)
