/**
 * @gleaner/client — the Gleaner engine as plain async calls, with the official SDK's method
 * names, inside your own Node process.
 */
export { Gleaner, type OpenOptions } from "./gleaner.js"
export { GleanerClientError } from "./client-error.js"
