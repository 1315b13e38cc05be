/**
 * @gleaner/core — the engine: domain schemas, services, ports and pure transforms.
 * Nothing outside this package imports its files directly; this is the public surface.
 */
export * from "./errors.js"
export * from "./config.js"
export * from "./ports/store.js"
