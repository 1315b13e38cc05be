import { describe, expect, it } from "vitest"
import { redactPii, type RedactPiiOptions } from "../../src/transform/formats/pii.js"

const tag = (text: string, entities?: RedactPiiOptions["entities"]) =>
  redactPii(text, entities === undefined ? {} : { entities }).text

describe("redactPii: detectors", () => {
  it("redacts e-mail addresses, including mailto targets, but not image names", () => {
    expect(tag("Write to jane.doe@example.com or [sales](mailto:sales@example.org).")).toBe(
      "Write to [EMAIL] or [sales](mailto:[EMAIL])."
    )
    expect(tag("The retina logo is logo@2x.png, the host is user@localhost.")).toBe("The retina logo is logo@2x.png, the host is user@localhost.")
  })

  it("redacts international and national phone numbers", () => {
    const text = [
      "+1 (415) 555-2671", "415-555-2671", "(415) 555-2671", "+44 20 7946 0958", "0044 20 7946 0958",
      "030 12345678", "07700 900123", "01 23 45 67 89", "phone: 5552671", "Tel.: 555 1234", "call us at 555-1234"
    ].join("; ")
    const result = redactPii(text, { entities: ["PHONE"] })
    expect(result.counts).toEqual({ PHONE: 11 })
    expect(result.text).not.toMatch(/\d{3}/)
  })

  it("leaves dates, versions, prices, IPs, ISBNs and order numbers alone", () => {
    const text = [
      "Published 2024-01-15, updated 15.01.2024 and 01/02/2024.",
      "Version 1.2.3.4 on 192.168.100.200.",
      "Price $1,299.00, or 1 299 000 € wholesale, 12.5% off.",
      "ISBN 978-3-16-148410-0, also 0-306-40615-2 and 0-8044-2957-X.",
      "Order #4111111111111112, invoice 2024-000123, ref 0301234567, SKU 55512345.",
      "Between 1990 2000 there were 12345678 visitors."
    ].join("\n")
    const result = redactPii(text)
    expect(result.text).toBe(text)
    expect(Object.values(result.counts).every((n) => n === 0)).toBe(true)
  })

  it("redacts payment cards that pass Luhn and an issuer check, and valid IBANs", () => {
    const text = "Cards 4111 1111 1111 1111, 5500-0000-0000-0004 and 378282246310005. " +
      "Not 4111 1111 1111 1112 (Luhn) nor 1234 5678 9012 3452 (no issuer). " +
      "IBAN DE89 3704 0044 0532 0130 00 and GB82WEST12345698765432; not DE89 3704 0044 0532 0130 01."
    expect(tag(text, ["FINANCIAL"])).toBe(
      "Cards [FINANCIAL], [FINANCIAL] and [FINANCIAL]. Not 4111 1111 1111 1112 (Luhn) nor 1234 5678 9012 3452 (no issuer). " +
        "IBAN [FINANCIAL] and [FINANCIAL]; not DE89 3704 0044 0532 0130 01."
    )
  })

  it("redacts US SSNs outside the never-issued ranges, and labelled unformatted ones", () => {
    expect(tag("SSN 123-45-6789; not 000-12-3456, 666-12-3456, 912-34-5678 or 078-05-1120; ssn: 123456789.", ["FINANCIAL"])).toBe(
      "SSN [FINANCIAL]; not 000-12-3456, 666-12-3456, 912-34-5678 or 078-05-1120; ssn: [FINANCIAL]."
    )
  })

  it("redacts API keys, tokens, JWTs, private keys and labelled high-entropy values", () => {
    const text = [
      "OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz012345",
      "gh: ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "aws AKIAIOSFODNN7EXAMPLE",
      "slack xoxb-123456789012-abcdefghij",
      "firecrawl fc-0123456789abcdef0123456789abcdef",
      "api_key = 'x9F2kLm0Qz7Rt5Vb8Nc1Wd4'",
      "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      "password: hunter2!x",
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"
    ].join("\n")
    const result = redactPii(text, { entities: ["SECRET"] })
    expect(result.counts).toEqual({ SECRET: 9 })
    expect(result.text).toContain("api_key = '[SECRET]'")
    expect(result.text).toContain("Bearer [SECRET]")
    expect(result.text).not.toContain("PRIVATE KEY")
  })

  it("leaves ordinary words after secret-ish labels alone", () => {
    const text = "token: short\npassword: Must be at least eight characters\nThe secret: ingredient is love"
    expect(tag(text, ["SECRET"])).toBe(text)
  })

  it("finds people and places only after explicit cues, and says so", () => {
    const text = "Name: John Smith\nDear Alice Walker,\nMr. Bob Jones met Dr. Jane Roe.\nAddress: 221B Baker Street, London\n" +
      "Ship to 1600 Pennsylvania Avenue NW.\nJohn lives near Paris."
    const result = redactPii(text, { entities: ["PERSON", "LOCATION"] })
    expect(result.text).toBe(
      "Name: [PERSON]\nDear [PERSON],\nMr. [PERSON] met Dr. [PERSON].\nAddress: [LOCATION]\nShip to [LOCATION] NW.\nJohn lives near Paris."
    )
    expect(result.limited).toEqual(["PERSON", "LOCATION"])
    expect(redactPii(text, { entities: ["EMAIL"] }).limited).toEqual([])
  })
})

describe("redactPii: markdown and URLs", () => {
  it("never changes the scheme, host or path of a URL, nor link syntax", () => {
    const text = "![card](/images/4111111111111111.png) [call](/orders/415-555-2671) <a href=\"/u/jane@example.com\">x</a> " +
      "https://example.com/users/jane.doe@example.com/profile and www.example.com/4111111111111111"
    expect(redactPii(text).text).toBe(text)
  })

  it("redacts query strings and fragments", () => {
    expect(tag("[me](https://example.com/p?email=bob@example.net&key=sk-abcdefghijklmnopqrstuvwx#tel:+14155552671)")).toBe(
      "[me](https://example.com/p?email=[EMAIL]&key=[SECRET]#tel:[PHONE])"
    )
  })
})

describe("redactPii: replace styles and counts", () => {
  const text = "Card 4111 1111 1111 1111, mail a.b@example.co, call +44 20 7946 0958."

  it("tags by default", () => {
    expect(redactPii(text)).toEqual({
      text: "Card [FINANCIAL], mail [EMAIL], call [PHONE].",
      counts: { EMAIL: 1, PHONE: 1, FINANCIAL: 1, SECRET: 0, PERSON: 0, LOCATION: 0 },
      limited: ["PERSON", "LOCATION"]
    })
  })

  it("masks with the same length, keeping a card's last four digits and the spacing", () => {
    expect(redactPii(text, { replaceStyle: "mask" }).text).toBe("Card **** **** **** 1111, mail **************, call *** ** **** ****.")
  })

  it("removes, touching only the requested entities", () => {
    expect(redactPii(text, { replaceStyle: "remove", entities: ["EMAIL"] })).toEqual({
      text: "Card 4111 1111 1111 1111, mail , call +44 20 7946 0958.",
      counts: { EMAIL: 1 },
      limited: []
    })
  })
})
