import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Db, Tx } from "../db/client";
import { emailsLog } from "../db/schema/notifications";
import type { MailResult, OutgoingMail } from "./mailer";

// One delivery attempt and its record. With SMTP_URL the mail goes out through nodemailer; without it nothing leaves
// the machine: the mail is printed to the log and kept in emails_log with its body, so a local user can read it.

export interface Delivery {
  /** Hands the mail to SMTP (or to the log); never throws for a delivery failure: the result says failed. */
  attempt(mail: OutgoingMail): Promise<MailResult>;
  /** Records an outcome in emails_log, through `executor` so it can commit with other work. */
  record(executor: Db | Tx, mail: OutgoingMail, result: MailResult): Promise<void>;
  close(): void;
}

export function createDelivery(options: { logger: Logger; smtpUrl?: string; from: string }): Delivery {
  const transport: Transporter | null = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 })
    : null;

  return {
    async attempt(mail) {
      if (!transport) {
        options.logger.info({ to: mail.to, subject: mail.subject, emailType: mail.emailType, body: mail.text }, "mail recorded (no SMTP_URL)");
        return { status: "sent" };
      }
      try {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        return { status: "sent" };
      } catch (error) {
        return { status: "failed", errorMessage: error instanceof Error ? error.message : String(error) };
      }
    },
    async record(executor, mail, result) {
      await executor.insert(emailsLog).values({
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
    },
    close() {
      transport?.close();
    },
  };
}
