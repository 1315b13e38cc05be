/** Root test configuration: the projects are listed in vitest.workspace.ts. */
import { defineConfig } from "vitest/config"
import { projects } from "./vitest.workspace.js"

export default defineConfig({ test: { projects } })
