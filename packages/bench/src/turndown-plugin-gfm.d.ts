/** Types for turndown-plugin-gfm 1.0.2, which ships none; only what the benchmarks use. */
declare module "turndown-plugin-gfm" {
  import type TurndownService from "turndown"
  export const gfm: TurndownService.Plugin
  export const tables: TurndownService.Plugin
  export const strikethrough: TurndownService.Plugin
  export const taskListItems: TurndownService.Plugin
  export const highlightedCodeBlock: TurndownService.Plugin
}
