import { ConfigProvider, Effect, Exit, Layer, LogLevel, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { databaseUrlOf, GleanerConfig, settings } from "@gleaner/core"

const read = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    GleanerConfig.pipe(Effect.provide(GleanerConfig.fromEnv.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))))
  )

describe("GleanerConfig", () => {
  it("defaults to the embedded mode", async () => {
    const exit = await read({})
    if (Exit.isFailure(exit)) throw new Error("defaults must parse")
    const c = exit.value
    expect(c.port).toBe(3002)
    expect(c.dataDir).toBe("./data")
    expect(c.auth).toBe("on")
    expect(c.allowedNetworks).toEqual([])
    expect(c.logLevel).toBe(LogLevel.Info)
    expect(Option.isNone(c.apiKey)).toBe(true)
    expect(databaseUrlOf(c)).toBe("./data/gleaner.db")
  })

  it("reads every setting from the environment", async () => {
    const exit = await read({
      PORT: "4000",
      GLEANER_DATA_DIR: "/var/lib/gleaner/",
      GLEANER_API_KEY: "fc-0123456789abcdef0123456789abcdef",
      GLEANER_ALLOWED_NETWORKS: "127.0.0.0/8, 10.0.0.0/8",
      GLEANER_AUTH: "off",
      GLEANER_DATABASE_URL: "postgres://x@h/db",
      GLEANER_LOG_LEVEL: "warning"
    })
    if (Exit.isFailure(exit)) throw new Error("must parse")
    const c = exit.value
    expect(c.port).toBe(4000)
    expect(c.allowedNetworks).toEqual(["127.0.0.0/8", "10.0.0.0/8"])
    expect(c.auth).toBe("off")
    expect(c.logLevel).toBe(LogLevel.Warning)
    expect(Option.map(c.apiKey, Redacted.value)).toEqual(Option.some("fc-0123456789abcdef0123456789abcdef"))
    expect(databaseUrlOf(c)).toBe("postgres://x@h/db")
    expect(databaseUrlOf({ ...c, databaseUrl: Option.none() })).toBe("/var/lib/gleaner/gleaner.db")
  })

  it("refuses values that do not parse, naming the variable", async () => {
    for (const [name, value] of [["GLEANER_API_KEY", "secret"], ["GLEANER_ALLOWED_NETWORKS", "localhost"], ["GLEANER_ALLOWED_NETWORKS", "999.1.1.1/8"], ["PORT", "http"], ["GLEANER_AUTH", "maybe"], ["GLEANER_LOG_LEVEL", "loud"]] as const) {
      const exit = await read({ [name]: value })
      expect(Exit.isFailure(exit), name).toBe(true)
      if (Exit.isFailure(exit)) expect(String(exit.cause)).toContain(name)
    }
  })

  it("never shows a pinned key when printed", async () => {
    const exit = await read({ GLEANER_API_KEY: "fc-0123456789abcdef0123456789abcdef" })
    if (Exit.isFailure(exit)) throw new Error("must parse")
    expect(String(Option.getOrThrow(exit.value.apiKey))).not.toContain("0123456789abcdef")
  })

  it("declares each setting once", () => {
    const names = Object.values(settings).map((s) => s.name)
    expect(new Set(names).size).toBe(names.length)
  })
})
