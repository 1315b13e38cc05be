import { describe, expect, it } from "vitest"
import { checkThreatProtection } from "../../src/transform/formats/threat-protection.js"

describe("checkThreatProtection", () => {
  const allowed = { allowed: true }

  it("blocks blacklisted domains and their subdomains", () => {
    const options = { blacklist: ["evil.example"] }
    expect(checkThreatProtection("https://evil.example/x", options)).toMatchObject({ allowed: false })
    expect(checkThreatProtection("https://a.b.EVIL.example./x", options)).toMatchObject({ allowed: false, reason: expect.stringContaining("a.b.evil.example") })
    expect(checkThreatProtection("https://notevil.example/", options)).toEqual(allowed)
  })

  it("supports globs and entries written as URLs", () => {
    expect(checkThreatProtection("https://cdn.risky.example/", { blacklist: ["*.risky.example"] })).toMatchObject({ allowed: false })
    expect(checkThreatProtection("https://risky.example/", { blacklist: ["*.risky.example"] })).toEqual(allowed)
    expect(checkThreatProtection("http://shop.example/a", { blacklist: ["https://shop.example/some/path"] })).toMatchObject({ allowed: false })
    expect(checkThreatProtection("https://bücher.example/", { blacklist: ["*.xn--bcher-kva.example", "bücher.example"] })).toMatchObject({ allowed: false })
  })

  it("blocks TLDs at label boundaries", () => {
    const options = { blockedTlds: [".zip", "co.uk"] }
    expect(checkThreatProtection("https://files.zip/", options)).toMatchObject({ allowed: false, reason: expect.stringContaining(".zip") })
    expect(checkThreatProtection("https://shop.co.uk/", options)).toMatchObject({ allowed: false })
    expect(checkThreatProtection("https://xzip.com/", options)).toEqual(allowed)
    expect(checkThreatProtection("https://example.uk/", options)).toEqual(allowed)
  })

  it("lets the whitelist win and mode off skip every check", () => {
    expect(checkThreatProtection("https://good.files.zip/", { blockedTlds: ["zip"], blacklist: ["files.zip"], whitelist: ["good.files.zip"] })).toEqual(allowed)
    expect(checkThreatProtection("https://evil.example/", { mode: "off", blacklist: ["evil.example"] })).toEqual(allowed)
    expect(checkThreatProtection("https://evil.example/", { mode: "normal", blacklist: ["evil.example"] })).toMatchObject({ allowed: false })
  })

  it("matches other spellings of an IP address", () => {
    expect(checkThreatProtection("http://2130706433/", { blacklist: ["127.0.0.1"] })).toMatchObject({ allowed: false })
    expect(checkThreatProtection("http://0x7f.0.0.1/", { blacklist: ["127.0.0.1"] })).toMatchObject({ allowed: false })
  })

  it("refuses a URL without a host", () => {
    expect(checkThreatProtection("not a url", { blacklist: [] })).toMatchObject({ allowed: false })
  })
})
