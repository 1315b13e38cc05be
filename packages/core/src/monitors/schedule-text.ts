/**
 * `schedule.text`: the plain-English schedules a monitor may be given instead of a cron
 * expression, turned into the cron expression the monitor keeps (and shows). The grammar is
 * small and exact; anything else is refused with the forms it knows, never guessed at.
 *
 *   every minute · every N minutes (1–59) · hourly · every hour · every N hours (1–23)
 *   daily · every day · daily at 9:00 · every day at 9am · every day at 18:30
 *   weekdays at 8:00 · every monday [at 9:00] · weekly · monthly
 */
import { Either } from "effect"
import { BadRequestError } from "../errors.js"

const days = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const

const forms = `"every 15 minutes", "hourly", "every 6 hours", "daily at 9:00", "weekdays at 8am", "every monday at 9:00", "weekly", "monthly"`

const refuse = (text: string) => {
  const message = `Cannot read the schedule "${text}". Give schedule.cron, or schedule.text in one of the forms ${forms}.`
  return new BadRequestError({ message, details: [{ path: ["schedule", "text"], message }] })
}

/** `9`, `9:30`, `9am`, `9:30 pm`, `21:05` → [hour, minute]. */
const timeOf = (raw: string): readonly [number, number] | undefined => {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(raw.trim())
  if (match === null) return undefined
  let hour = Number(match[1])
  const minute = match[2] === undefined ? 0 : Number(match[2])
  const half = match[3]
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined
    hour = (hour % 12) + (half === "pm" ? 12 : 0)
  }
  return hour <= 23 && minute <= 59 ? [hour, minute] : undefined
}

/** The cron expression a schedule text stands for, or a 400 naming the forms Gleaner reads. */
export const cronFromText = (text: string): Either.Either<string, BadRequestError> => {
  const t = text.trim().toLowerCase().replace(/\s+/g, " ")
  const [head = "", at] = t.split(" at ")
  const time = at === undefined ? ([0, 0] as const) : timeOf(at)
  if (time === undefined) return Either.left(refuse(text))
  const [hour, minute] = time
  const timed = at !== undefined

  if (!timed) {
    if (head === "every minute") return Either.right("* * * * *")
    const minutes = /^every (\d{1,2}) minutes?$/.exec(head)
    if (minutes !== null) {
      const n = Number(minutes[1])
      return n >= 1 && n <= 59 ? Either.right(n === 1 ? "* * * * *" : `*/${n} * * * *`) : Either.left(refuse(text))
    }
    if (head === "hourly" || head === "every hour") return Either.right("0 * * * *")
    const hours = /^every (\d{1,2}) hours?$/.exec(head)
    if (hours !== null) {
      const n = Number(hours[1])
      return n >= 1 && n <= 23 ? Either.right(n === 1 ? "0 * * * *" : `0 */${n} * * *`) : Either.left(refuse(text))
    }
    if (head === "monthly" || head === "every month") return Either.right("0 0 1 * *")
  }
  if (head === "daily" || head === "every day") return Either.right(`${minute} ${hour} * * *`)
  if (head === "weekdays" || head === "every weekday") return Either.right(`${minute} ${hour} * * 1-5`)
  if (head === "weekly" || head === "every week") return Either.right(`${minute} ${hour} * * 1`)
  const day = /^(?:every )?(sunday|monday|tuesday|wednesday|thursday|friday|saturday)s?$/.exec(head)
  if (day !== null) return Either.right(`${minute} ${hour} * * ${days.findIndex((d) => d === day[1])}`)
  return Either.left(refuse(text))
}
