/**
 * @gleaner/cli — the `gleaner` command. Its layers are exported for programs that want the same
 * composition (configuration from the environment, the configured store, the engine).
 */
export { AdminLive, ConfigLive, LoggingLive, ProcessLive, StoreLive } from "./layers.js"
