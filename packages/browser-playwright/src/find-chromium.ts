/**
 * Where the Chromium binary is. An operator's GLEANER_CHROMIUM_PATH wins and must point at an
 * executable file (a typo there is an error, not a silent fallback); otherwise the Debian
 * packages' binaries are tried, headless-shell first because it starts in a third of the time
 * and needs less than half the memory, then the same two names on PATH. `None` means this
 * machine has no system browser: the layer then falls back to `bundledChromium` (the npm package
 * @sparticuz/chromium, so `pnpm install` alone brings a browser), and without that to
 * `Browser.unavailable`.
 */
import { accessSync, constants, statSync } from "node:fs"
import { delimiter, join } from "node:path"
import { Config, Data, Effect, Option } from "effect"

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

/**
 * The Chromium shipped inside the npm package @sparticuz/chromium: unpacked (brotli) into the temp
 * directory on first use, 2–3 s, then reused. `None` when the package is missing or cannot
 * unpack or run here; the reason is logged.
 */
export const bundledChromium: Effect.Effect<Option.Option<string>> = Effect.tryPromise(async () => {
  const { default: Chromium } = await import("@sparticuz/chromium")
  return Chromium.executablePath()
}).pipe(
  Effect.map((path) => (isExecutable(path) ? Option.some(path) : Option.none())),
  Effect.catchAll((error) =>
    Effect.as(Effect.logWarning("The Chromium of @sparticuz/chromium could not be unpacked", error.cause), Option.none())
  )
)

/**
 * The Chromium to use: an explicit path (checked; `origin` names where it came from in the
 * error), else the system's (Debian's paths, then PATH as the current ConfigProvider has it),
 * else the one bundled with @sparticuz/chromium unless `bundled` is off.
 */
export const locateChromium = (
  explicit: string | undefined,
  options: { readonly bundled: boolean; readonly origin?: string }
): Effect.Effect<Option.Option<string>, ChromiumPathError> =>
  explicit !== undefined
    ? Effect.map(checkChromiumPath(explicit, options.origin), Option.some)
    : Effect.gen(function*() {
      const PATH = yield* Config.string("PATH").pipe(Config.option, Effect.orDie)
      const system = yield* findChromium({ PATH: Option.getOrUndefined(PATH) })
      if (Option.isSome(system) || !options.bundled) return system
      const fallback = yield* bundledChromium
      if (Option.isSome(fallback)) {
        yield* Effect.logInfo(`No system Chromium: using the one bundled with @sparticuz/chromium (${fallback.value}). apt-get install -y chromium-headless-shell gives a newer one.`)
      }
      return fallback
    })
