/**
 * @gleaner/scheduler-croner — the Scheduler port on croner: five-field cron expressions, next
 * runs computed in an IANA time zone, DST as Vixie cron handles it.
 */
export { CronScheduler } from "./cron-scheduler.js"
