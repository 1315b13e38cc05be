/**
 * @gleaner/http — the Firecrawl v2 HTTP adapter: the API definition, its handlers, the bearer-key
 * middleware, the one error mapping, and the layers that serve it on Node.
 */
export * from "./api.js"
export * from "./auth.js"
export * from "./envelope.js"
export * from "./errors.js"
export * from "./body-limit.js"
export * from "./issues.js"
export * from "./openapi.js"
export * from "./url.js"
export * from "./version.js"
export * from "./handlers/health.js"
export * from "./handlers/team.js"
export * from "./server.js"
