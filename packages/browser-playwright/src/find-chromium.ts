/**
 * Where the Chromium binary is. An operator's GLEANER_CHROMIUM_PATH wins and must point at an
 * executable file (a typo there is an error, not a silent fallback); otherwise the Debian
 * packages' binaries are tried, headless-shell first because it starts in a third of the time
 * and needs less than half the memory, then the same two names on PATH. `None` means this
 * machine has no browser: the layer then provides `Browser.unavailable`.
 */
import { accessSync, constants, statSync } from "node:fs"
import { delimiter, join } from "node:path"
import { Data, Effect, Option } from "effect"

/** GLEANER_CHROMIUM_PATH (or the `chromiumPath` option) names something that cannot be run. */
export class ChromiumPathError extends Data.TaggedError("ChromiumPathError")<{
  readonly path: string
  readonly message: string
}> {}

/** The environment variables `findChromium` reads. */
export interface ChromiumEnv {
  readonly GLEANER_CHROMIUM_PATH?: string | undefined
  readonly PATH?: string | undefined
}

const names = ["chromium-headless-shell", "chromium"] as const
/** Where the Debian packages put their binaries, best first. */
export const systemChromiumPaths: ReadonlyArray<string> = names.map((name) => `/usr/bin/${name}`)

/** Why `path` cannot be run, or `undefined` when it is an executable file. */
const problemOf = (path: string): string | undefined => {
  try {
    if (!statSync(path).isFile()) return "is not a file"
    accessSync(path, constants.X_OK)
    return undefined
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""
    if (code === "ENOENT") return "does not exist"
    if (code === "EACCES") return "is not executable"
    return `cannot be used (${code === "" ? String(error) : code})`
  }
}

const isExecutable = (path: string): boolean => problemOf(path) === undefined

/** Checks a path an operator gave explicitly. */
export const checkChromiumPath = (path: string, origin = "GLEANER_CHROMIUM_PATH"): Effect.Effect<string, ChromiumPathError> => {
  const problem = problemOf(path)
  return problem === undefined
    ? Effect.succeed(path)
    : Effect.fail(new ChromiumPathError({
      path,
      message: `${origin}=${path} ${problem}. Point it at a Chromium binary (apt-get install -y chromium-headless-shell installs /usr/bin/chromium-headless-shell) or unset it.`
    }))
}

/**
 * The Chromium to drive: GLEANER_CHROMIUM_PATH (checked), else /usr/bin/chromium-headless-shell,
 * /usr/bin/chromium, else either name on PATH. `systemPaths` is replaceable for tests.
 */
export const findChromium = (
  env: ChromiumEnv,
  systemPaths: ReadonlyArray<string> = systemChromiumPaths
): Effect.Effect<Option.Option<string>, ChromiumPathError> => {
  const explicit = env.GLEANER_CHROMIUM_PATH?.trim() ?? ""
  if (explicit !== "") return Effect.map(checkChromiumPath(explicit), Option.some)
  return Effect.sync(() => {
    const onPath = (env.PATH ?? "").split(delimiter).filter((dir) => dir !== "")
    const candidates = [...systemPaths, ...names.flatMap((name) => onPath.map((dir) => join(dir, name)))]
    return Option.fromNullable(candidates.find(isExecutable))
  })
}
