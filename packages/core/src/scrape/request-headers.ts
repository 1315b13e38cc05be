/**
 * The headers a scrape sends: a current desktop or mobile Chrome user agent, Accept and
 * Accept-Language from `location`, then the caller's own headers on top (theirs win).
 */
const DESKTOP_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const MOBILE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"

/** The main language of a country (ISO 3166 alpha-2), for Accept-Language when none is given. */
const countryLanguages: Readonly<Record<string, string>> = {
  us: "en-US", gb: "en-GB", au: "en-AU", ca: "en-CA", ie: "en-IE", nz: "en-NZ", in: "en-IN", de: "de-DE", at: "de-AT",
  ch: "de-CH", fr: "fr-FR", be: "fr-BE", es: "es-ES", mx: "es-MX", ar: "es-AR", it: "it-IT", nl: "nl-NL", pt: "pt-PT",
  br: "pt-BR", pl: "pl-PL", se: "sv-SE", no: "nb-NO", dk: "da-DK", fi: "fi-FI", cz: "cs-CZ", ru: "ru-RU", ua: "uk-UA",
  tr: "tr-TR", gr: "el-GR", jp: "ja-JP", kr: "ko-KR", cn: "zh-CN", tw: "zh-TW", hk: "zh-HK", il: "he-IL", sa: "ar-SA",
  ae: "ar-AE", eg: "ar-EG", th: "th-TH", vn: "vi-VN", id: "id-ID", my: "ms-MY", ph: "en-PH", za: "en-ZA", ng: "en-NG"
}

export const languagesOfCountry = (country: string | undefined): ReadonlyArray<string> => {
  const language = country === undefined ? undefined : countryLanguages[country.toLowerCase()]
  return language === undefined ? [] : [language]
}

/** A country's main IANA time zone, for a rendered page's clock (`location.country`). */
const countryTimezones: Readonly<Record<string, string>> = {
  us: "America/New_York", gb: "Europe/London", au: "Australia/Sydney", ca: "America/Toronto", ie: "Europe/Dublin",
  nz: "Pacific/Auckland", in: "Asia/Kolkata", de: "Europe/Berlin", at: "Europe/Vienna", ch: "Europe/Zurich",
  fr: "Europe/Paris", be: "Europe/Brussels", es: "Europe/Madrid", mx: "America/Mexico_City", ar: "America/Argentina/Buenos_Aires",
  it: "Europe/Rome", nl: "Europe/Amsterdam", pt: "Europe/Lisbon", br: "America/Sao_Paulo", pl: "Europe/Warsaw",
  se: "Europe/Stockholm", no: "Europe/Oslo", dk: "Europe/Copenhagen", fi: "Europe/Helsinki", cz: "Europe/Prague",
  ru: "Europe/Moscow", ua: "Europe/Kyiv", tr: "Europe/Istanbul", gr: "Europe/Athens", jp: "Asia/Tokyo", kr: "Asia/Seoul",
  cn: "Asia/Shanghai", tw: "Asia/Taipei", hk: "Asia/Hong_Kong", il: "Asia/Jerusalem", sa: "Asia/Riyadh", ae: "Asia/Dubai",
  eg: "Africa/Cairo", th: "Asia/Bangkok", vn: "Asia/Ho_Chi_Minh", id: "Asia/Jakarta", my: "Asia/Kuala_Lumpur",
  ph: "Asia/Manila", za: "Africa/Johannesburg", ng: "Africa/Lagos", sg: "Asia/Singapore"
}

export const timezoneOfCountry = (country: string | undefined): string | undefined =>
  country === undefined ? undefined : countryTimezones[country.toLowerCase()]

const acceptLanguage = (languages: ReadonlyArray<string>): string => {
  const list = languages.length > 0 ? languages : ["en-US"]
  const withBase = list.flatMap((l) => (l.includes("-") ? [l, l.split("-")[0] ?? l] : [l]))
  const unique = [...new Set(withBase)]
  return unique.map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(",")
}

export const requestHeaders = (options: {
  readonly mobile: boolean
  readonly languages: ReadonlyArray<string>
  readonly headers: Readonly<Record<string, string>>
}): Record<string, string> => {
  const own = Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k.toLowerCase(), v]))
  return {
    "user-agent": options.mobile ? MOBILE_UA : DESKTOP_UA,
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,application/pdf;q=0.8,*/*;q=0.7",
    "accept-language": acceptLanguage(options.languages),
    ...own
  }
}
