import type { LookupAddress } from "node:dns"
import { parseCidrList } from "@gleaner/core"
import { describe, expect, it } from "vitest"
import { AddressRefusal, guardedConnector, guardedLookup, resolveChecked } from "../src/guard.js"

const loopback = parseCidrList(["127.0.0.0/8"]).networks

const lookupAll = (networks: typeof loopback, hostname: string, all: boolean) =>
  new Promise<{ error: unknown; address: string | ReadonlyArray<LookupAddress>; family: number | undefined }>((resolve) =>
    guardedLookup(networks)(hostname, { all }, (error, address, family) => resolve({ error, address, family })))

describe("the socket guard", () => {
  it("answers net.connect only with addresses it has checked", async () => {
    expect(await lookupAll(loopback, "localhost", true)).toMatchObject({ error: null, address: [{ address: "127.0.0.1", family: 4 }] })
    expect(await lookupAll(loopback, "localhost", false)).toMatchObject({ error: null, address: "127.0.0.1", family: 4 })
  })

  it("refuses a name when any of its addresses is refused", async () => {
    const { error } = await lookupAll([], "localhost", true)
    expect(error).toBeInstanceOf(AddressRefusal)
    expect(error).toMatchObject({ hostname: "localhost", address: "127.0.0.1", reason: "127.0.0.1 is a loopback address" })
  })

  it("checks IP literals, which never reach a lookup", async () => {
    await expect(resolveChecked("[::1]", loopback)).rejects.toBeInstanceOf(AddressRefusal)
    await expect(resolveChecked("127.0.0.1", loopback)).resolves.toEqual([{ address: "127.0.0.1", family: 4 }])
    const calls: Array<string> = []
    const connect = guardedConnector((options) => void calls.push(options.hostname), [])
    const refused = await new Promise<unknown>((resolve) =>
      connect({ hostname: "169.254.169.254", protocol: "http:", port: "80" }, (...args) => resolve(args[0])))
    expect(refused).toBeInstanceOf(AddressRefusal)
    connect({ hostname: "example.com", protocol: "http:", port: "80" }, () => undefined)
    expect(calls).toEqual(["example.com"])
  })
})
