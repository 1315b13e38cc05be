/**
 * `GET /`: the server is up, which version it runs, and where its API documentation lives.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { GleanerApi, V2 } from "../api.js"
import { absoluteUrl } from "../url.js"
import { packageVersion } from "../version.js"

export const HealthLive = HttpApiBuilder.group(GleanerApi, "health", (handlers) =>
  handlers.handle("health", () =>
    Effect.map(absoluteUrl(`${V2}/docs`), (documentation_url) => ({
      message: "Gleaner API (Firecrawl v2 compatible)",
      documentation_url,
      version: packageVersion
    }))))
