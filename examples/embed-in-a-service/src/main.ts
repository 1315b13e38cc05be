/** `pnpm start`: the service on http://127.0.0.1:8080 (GET /usage). */
import { startService } from "./service.js"

const service = await startService()
process.stdout.write(`Service listening on ${service.url} — try GET ${service.url}/usage\n`)
process.once("SIGINT", () => void service.close().then(() => process.exit(0)))
