/**
 * @gleaner/mailer-smtp — the Mailer port on SMTP: monitors' e-mail goes to the relay named in
 * `GLEANER_SMTP_URL`, spoken to directly over `node:net`/`node:tls` (no mail library).
 */
export { buildMessage, SmtpMailer, type SmtpMailerOptions } from "./smtp-mailer.js"
