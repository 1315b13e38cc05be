import { describe, expect, it } from "vitest"
import { displayPrefix, generateApiKey, hashApiKey, isApiKey, isUuid, periodOf, uuidv7At } from "@gleaner/core"

describe("ids", () => {
  it("makes UUIDv7s that sort by time and carry the version", () => {
    const a = uuidv7At(Date.UTC(2026, 0, 1))
    const b = uuidv7At(Date.UTC(2026, 0, 2))
    expect(isUuid(a)).toBe(true)
    expect(a[14]).toBe("7")
    expect(["8", "9", "a", "b"]).toContain(a[19])
    expect(a < b).toBe(true)
  })
})

describe("API keys", () => {
  it("look like the SDK's keys and are stored only as hashes", () => {
    const key = generateApiKey()
    expect(key).toMatch(/^fc-[0-9a-f]{32}$/)
    expect(isApiKey(key)).toBe(true)
    expect(isApiKey("fc-xyz")).toBe(false)
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/)
    expect(hashApiKey(key)).not.toContain(key.slice(3))
    expect(displayPrefix(key)).toBe(`${key.slice(0, 9)}…`)
    expect(generateApiKey()).not.toBe(key)
  })
})

describe("billing periods", () => {
  it("are calendar months in UTC", () => {
    const p = periodOf(Date.UTC(2026, 10, 22, 13, 5))
    expect(new Date(p.start).toISOString()).toBe("2026-11-01T00:00:00.000Z")
    expect(new Date(p.end).toISOString()).toBe("2026-12-01T00:00:00.000Z")
    expect(periodOf(Date.UTC(2026, 11, 31, 23, 59)).end).toBe(Date.UTC(2027, 0, 1))
  })
})
