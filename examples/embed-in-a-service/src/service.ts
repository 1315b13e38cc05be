/**
 * Your own service with Gleaner inside: no second process, no HTTP hop to a data engine. The
 * engine opens its SQLite file next to the service and answers like the official SDK would.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Gleaner } from "@gleaner/client"

export interface Service {
  readonly url: string
  readonly close: () => Promise<void>
}

export const startService = async (options: { readonly port?: number; readonly database?: string } = {}): Promise<Service> => {
  const gleaner = await Gleaner.open({ database: options.database ?? "./data/service.db" })

  const server: Server = createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }
    if (request.method === "GET" && request.url === "/usage") {
      Promise.all([gleaner.getCreditUsage(), gleaner.getQueueStatus()]).then(
        ([credits, queue]) => reply(200, { team: gleaner.team.name, credits, queue }),
        (error: unknown) => reply(500, { error: String(error) })
      )
      return
    }
    reply(404, { error: "not found" })
  })

  await new Promise<void>((resolve) => server.listen(options.port ?? 8080, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
      await gleaner.close()
    }
  }
}
