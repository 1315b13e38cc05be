import { describe, expect, it } from "vitest"
import { checkAddress, checkUrlShape, classifyAddress, embeddedIpv4, ipLiteralOfHost, parseCidr, parseCidrList, parseIp } from "@gleaner/core"

const classOf = (text: string) => {
  const ip = parseIp(text)
  if (ip === undefined) throw new Error(`${text} must parse`)
  return classifyAddress(ip)
}

describe("parseIp", () => {
  it("reads IPv4 in dotted-quad form only", () => {
    expect(parseIp("127.0.0.1")).toEqual({ family: 4, value: 0x7f000001n })
    expect(parseIp("255.255.255.255")?.value).toBe(0xffffffffn)
    for (const bad of ["0x7f000001", "2130706433", "127.1", "0177.0.0.1", "256.0.0.1", "1.2.3", "1.2.3.4.5", "", "a.b.c.d"]) {
      expect(parseIp(bad), bad).toBeUndefined()
    }
  })

  it("reads IPv6 in every text form", () => {
    expect(parseIp("::")?.value).toBe(0n)
    expect(parseIp("::1")?.value).toBe(1n)
    expect(parseIp("[::1]")?.value).toBe(1n)
    expect(parseIp("fe80::1%eth0")?.value).toBe((0xfe80n << 112n) | 1n)
    expect(parseIp("2001:db8:0:0:0:0:0:1")).toEqual(parseIp("2001:db8::1"))
    expect(parseIp("::ffff:127.0.0.1")).toEqual(parseIp("::ffff:7f00:1"))
    expect(parseIp("1:2:3:4:5:6:7::")?.family).toBe(6)
    for (const bad of [":::", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "12345::", "::1.2.3.4:5", "1.2.3.4::", "g::1"]) {
      expect(parseIp(bad), bad).toBeUndefined()
    }
  })
})

describe("parseCidr", () => {
  it("parses ranges of both families, clearing host bits", () => {
    expect(parseCidr("127.0.0.0/8")).toEqual({ family: 4, base: 0x7f000000n, prefix: 8 })
    expect(parseCidr("127.1.2.3/8")).toEqual({ family: 4, base: 0x7f000000n, prefix: 8 })
    expect(parseCidr("10.0.0.1")).toEqual({ family: 4, base: 0x0a000001n, prefix: 32 })
    expect(parseCidr("fc00::/7")).toEqual({ family: 6, base: 0xfcn << 120n, prefix: 7 })
    expect(parseCidr(" ::1/128 ")?.prefix).toBe(128)
  })

  it("refuses what is not a range", () => {
    for (const bad of ["127.0.0.0/33", "::/129", "localhost", "999.1.1.1/8", "1.2.3.4/8/9", "1.2.3.4/x", "/8"]) {
      expect(parseCidr(bad), bad).toBeUndefined()
    }
    expect(parseCidrList(["10.0.0.0/8", "nope", "::1/128"]).invalid).toEqual(["nope"])
  })
})

describe("classifyAddress", () => {
  it("names the special-purpose IPv4 ranges", () => {
    const cases: Array<[string, string | undefined]> = [
      ["0.0.0.0", "unspecified"],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["172.31.255.255", "private"],
      ["172.32.0.1", undefined],
      ["192.168.1.1", "private"],
      ["100.64.0.1", "shared"],
      ["127.0.0.1", "loopback"],
      ["127.255.255.254", "loopback"],
      ["169.254.1.1", "link-local"],
      ["169.254.169.254", "cloud-metadata"],
      ["192.0.2.1", "documentation"],
      ["198.51.100.7", "documentation"],
      ["203.0.113.9", "documentation"],
      ["198.18.0.1", "benchmarking"],
      ["224.0.0.1", "multicast"],
      ["240.0.0.1", "reserved"],
      ["255.255.255.255", "broadcast"],
      ["8.8.8.8", undefined],
      ["93.184.215.14", undefined]
    ]
    for (const [ip, expected] of cases) expect(classOf(ip), ip).toBe(expected)
  })

  it("names the special-purpose IPv6 ranges", () => {
    const cases: Array<[string, string | undefined]> = [
      ["::", "unspecified"],
      ["::1", "loopback"],
      ["fe80::1", "link-local"],
      ["febf::1", "link-local"],
      ["fc00::1", "unique-local"],
      ["fd12:3456::1", "unique-local"],
      ["fd00:ec2::254", "cloud-metadata"],
      ["ff02::1", "multicast"],
      ["2001:db8::1", "documentation"],
      ["::127.0.0.1", "reserved"],
      ["2606:4700:4700::1111", undefined],
      ["2a00:1450:4001::200e", undefined]
    ]
    for (const [ip, expected] of cases) expect(classOf(ip), ip).toBe(expected)
  })

  it("judges IPv6 forms of IPv4 addresses by the IPv4 address inside", () => {
    expect(classOf("::ffff:127.0.0.1")).toBe("loopback")
    expect(classOf("::ffff:a9fe:a9fe")).toBe("cloud-metadata")
    expect(classOf("::ffff:8.8.8.8")).toBeUndefined()
    expect(classOf("64:ff9b::10.0.0.1")).toBe("private")
    expect(classOf("64:ff9b::8.8.8.8")).toBeUndefined()
    expect(classOf("2002:7f00:1::1")).toBe("loopback")
    expect(classOf("2002:0808:0808::1")).toBeUndefined()
    const mapped = parseIp("::ffff:192.168.0.1")
    expect(mapped && embeddedIpv4(mapped)).toEqual(parseIp("192.168.0.1"))
  })
})

describe("checkAddress", () => {
  it("allows global addresses and refuses the rest, saying why", () => {
    expect(checkAddress("8.8.8.8", [])).toEqual({ allowed: true })
    expect(checkAddress("127.0.0.1", [])).toEqual({
      allowed: false,
      addressClass: "loopback",
      reason: "127.0.0.1 is a loopback address"
    })
    expect(checkAddress("169.254.169.254", [])).toMatchObject({ allowed: false, addressClass: "cloud-metadata" })
    expect(checkAddress("::ffff:127.0.0.1", [])).toMatchObject({ allowed: false, addressClass: "loopback" })
    expect(checkAddress("localhost", [])).toMatchObject({ allowed: false, addressClass: "invalid" })
    expect(checkAddress("2130706433", [])).toMatchObject({ allowed: false, addressClass: "invalid" })
  })

  it("exempts the operator's ranges, and only those", () => {
    const allowed = ["127.0.0.0/8", "fd00::/8"]
    expect(checkAddress("127.0.0.1", allowed)).toEqual({ allowed: true })
    expect(checkAddress("::ffff:127.0.0.1", allowed)).toEqual({ allowed: true })
    expect(checkAddress("fd12::1", allowed)).toEqual({ allowed: true })
    expect(checkAddress("::1", allowed)).toMatchObject({ allowed: false })
    expect(checkAddress("169.254.169.254", ["127.0.0.1/32"])).toMatchObject({ allowed: false })
    expect(checkAddress("127.0.0.2", ["127.0.0.1/32"])).toMatchObject({ allowed: false })
    expect(checkAddress("10.0.0.1", ["garbage", "10.0.0.0/8"])).toEqual({ allowed: true })
    const cidr = parseCidr("10.0.0.0/8")
    expect(cidr && checkAddress("10.9.9.9", [cidr])).toEqual({ allowed: true })
  })
})

describe("checkUrlShape", () => {
  it("accepts http and https URLs", () => {
    const verdict = checkUrlShape("https://example.com/a?b=c")
    expect(verdict.allowed && verdict.url.hostname).toBe("example.com")
  })

  it("refuses other schemes, credentials and garbage", () => {
    for (const [input, words] of [
      ["file:///etc/passwd", "unsupported protocol (file:)"],
      ["ftp://example.com/", "unsupported protocol (ftp:)"],
      ["javascript:alert(1)", "unsupported protocol"],
      ["http://user:pw@example.com/", "embedded credentials"],
      ["http://user@example.com/", "embedded credentials"],
      ["not a url", "Invalid URL"]
    ] as const) {
      const verdict = checkUrlShape(input)
      expect(verdict.allowed, input).toBe(false)
      if (!verdict.allowed) expect(verdict.reason).toContain(words)
    }
  })

  it("sees numeric host forms as the IPv4 address they denote", () => {
    for (const input of ["http://0x7f000001/", "http://2130706433/", "http://127.1/", "http://0177.0.0.1/"]) {
      const verdict = checkUrlShape(input)
      expect(verdict.allowed && verdict.url.hostname, input).toBe("127.0.0.1")
    }
    expect(ipLiteralOfHost("[::1]")).toBe("::1")
    expect(ipLiteralOfHost("127.0.0.1")).toBe("127.0.0.1")
    expect(ipLiteralOfHost("example.com")).toBeUndefined()
  })
})
