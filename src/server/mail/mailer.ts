import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Db } from "../db/client";
import { emailsLog } from "../db/schema/notifications";

// The one way any area sends mail. With SMTP_URL mail goes out through nodemailer; without it, each mail is
// recorded in emails_log with its body and printed to the log, so a local user can still read it.
// Every attempt is recorded in emails_log as sent or failed.

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What kind of mail this is (invitation, verification, lead_reminder, ...), kept in emails_log. */
  emailType: string;
  dealershipId?: string | null;
}

export interface MailResult {
  status: "sent" | "failed";
  errorMessage?: string;
}

export interface Mailer {
  /** Delivers and records; never throws for a delivery failure (the result says failed). */
  send(mail: OutgoingMail): Promise<MailResult>;
  /** Sends without holding up the caller; the work is awaited by `drain` at shutdown. */
  sendInBackground(mail: OutgoingMail): void;
  drain(): Promise<void>;
  close(): void;
}

export function createMailer(options: { db: Db; logger: Logger; smtpUrl?: string; from: string }): Mailer {
  const transport: Transporter | null = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 })
    : null;
  const pending = new Set<Promise<unknown>>();

  async function send(mail: OutgoingMail): Promise<MailResult> {
    let result: MailResult = { status: "sent" };
    if (transport) {
      try {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      } catch (error) {
        result = { status: "failed", errorMessage: error instanceof Error ? error.message : String(error) };
        options.logger.warn({ to: mail.to, emailType: mail.emailType, err: result.errorMessage }, "mail delivery failed");
      }
    } else {
      options.logger.info({ to: mail.to, subject: mail.subject, emailType: mail.emailType, body: mail.text }, "mail recorded (no SMTP_URL)");
    }
    await options.db.insert(emailsLog).values({
      to: mail.to,
      from: options.from,
      subject: mail.subject,
      // The body (which may hold a sign-up code) is kept only when it is the sole copy: without SMTP. Once mail
      // really goes out, the database does not keep a second, readable copy of every code and link.
      body: transport ? null : mail.text,
      emailType: mail.emailType,
      dealershipId: mail.dealershipId ?? null,
      status: result.status,
      errorMessage: result.errorMessage ?? null,
    });
    return result;
  }

  return {
    send,
    sendInBackground(mail) {
      const p = send(mail)
        .catch((error: unknown) => options.logger.error({ err: error }, "mail could not be recorded"))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async drain() {
      await Promise.allSettled([...pending]);
    },
    close() {
      transport?.close();
    },
  };
}
