/**
 * @gleaner/core — the engine: domain schemas, services, ports and pure transforms.
 * Nothing outside this package imports its files directly; this is the public surface.
 */
export * from "./errors.js"
export * from "./config.js"
export * from "./ports/store.js"
export * from "./ids.js"
export * from "./billing/plans.js"
export * from "./billing/credits.js"
export * from "./billing/period.js"
export * from "./billing/billing.js"
export * from "./billing/rate-limiter.js"
export * from "./accounts/api-key.js"
export * from "./accounts/accounts.js"
export * from "./accounts/bootstrap.js"
export * from "./jobs/job-queue.js"
export * from "./jobs/handlers.js"
export * from "./jobs/workers.js"
export * from "./schema/common.js"
export * from "./schema/team.js"
export * from "./billing/usage.js"
export * from "./engine.js"
