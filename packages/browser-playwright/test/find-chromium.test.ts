import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { findChromium } from "../src/index.js"

// Pure file-system lookups: these run with or without a Chromium on the machine.
describe("findChromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "gleaner-find-chromium-"))
  const executable = join(dir, "chromium")
  const plain = join(dir, "not-executable")
  writeFileSync(executable, "#!/bin/sh\n")
  chmodSync(executable, 0o755)
  writeFileSync(plain, "")
  chmodSync(plain, 0o644)

  it.effect("GLEANER_CHROMIUM_PATH wins when it is an executable file", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* findChromium({ GLEANER_CHROMIUM_PATH: executable, PATH: "" }), Option.some(executable))
    }))

  it.effect("a GLEANER_CHROMIUM_PATH that is missing, not executable or a directory is an error, not a fallback", () =>
    Effect.gen(function*() {
      const cases = [[join(dir, "missing"), "does not exist"], [plain, "is not executable"], [dir, "is not a file"]] as const
      for (const [path, words] of cases) {
        const error = yield* Effect.flip(findChromium({ GLEANER_CHROMIUM_PATH: path }))
        assert.strictEqual(error._tag, "ChromiumPathError")
        assert.include(error.message, `GLEANER_CHROMIUM_PATH=${path} ${words}`)
      }
    }))

  it.effect("without the variable: the system paths, then PATH; none found is None", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* findChromium({ PATH: `/nonexistent:${dir}` }, []), Option.some(executable))
      assert.deepStrictEqual(yield* findChromium({ PATH: `/nonexistent:${dir}` }, [plain, executable]), Option.some(executable))
      assert.deepStrictEqual(yield* findChromium({ PATH: "/nonexistent" }, []), Option.none())
      assert.deepStrictEqual(yield* findChromium({ GLEANER_CHROMIUM_PATH: "  ", PATH: "" }, []), Option.none())
    }))

  it("cleans up", () => rmSync(dir, { recursive: true, force: true }))
})
