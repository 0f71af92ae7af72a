import nodemailer, { type Transporter } from "nodemailer";
import addressparser from "nodemailer/lib/addressparser/index.js";
import SMTPPool from "nodemailer/lib/smtp-pool/index.js";
import type { Logger } from "pino";
import type { Db, Tx } from "../db/client";
import { emailsLog } from "../db/schema/notifications";
import type { MailResult, OutgoingMail } from "./mailer";

// Delivery attempts and their record. With SMTP_URL the mail goes out through nodemailer; without it nothing leaves
// the machine: the mail is printed to the log and kept in emails_log with its body, so a local user can read it.
//
// Connections to the SMTP server are pooled and kept open: each carries up to `maxMessages` mails without a new
// handshake (decision 173). Mail a person waits for has a pool of its own, so it never waits inside nodemailer behind
// a batch of notifications being sent.

/** Notifications: a queue worker's batch goes out over these at once. */
export const NOTIFICATION_POOL = { maxConnections: 4, maxMessages: 100 };
/** Codes, invitations, password resets: rarely more than one at a time. */
export const URGENT_POOL = { maxConnections: 2, maxMessages: 100 };
/** Connect, greeting, then inactivity: a try takes at most about 40 s before it counts as failed. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export interface Outcome {
  mail: OutgoingMail;
  result: MailResult;
}

export interface Delivery {
  /** Hands the mail to SMTP (or to the log); never throws for a delivery failure: the result says failed. */
  attempt(mail: OutgoingMail): Promise<MailResult>;
  /** Records outcomes in emails_log (one statement), through `executor` so they commit with other work. */
  record(executor: Db | Tx, outcomes: Outcome[]): Promise<void>;
  /** Closes the pooled connections; mail waiting for one fails (and is tried again by the queue). */
  close(): void;
}

function pooled(smtpUrl: string, pool: { maxConnections: number; maxMessages: number }): Transporter {
  // The pool is made here, not by createTransport(url, options): given a URL, createTransport reads its options from
  // the URL alone. Options the URL itself carries win over these.
  return nodemailer.createTransport(new SMTPPool({ url: smtpUrl, pool: true, ...pool, ...TIMEOUTS }));
}

/** The address of MAIL_FROM ("Showroom <no-reply@example.com>" or a bare address). */
export function addressOf(from: string): string {
  const [first] = addressparser(from, { flatten: true });
  return first?.address || from;
}

export function createDelivery(options: { logger: Logger; smtpUrl?: string; from: string }): Delivery {
  const fromAddress = addressOf(options.from);
  const transports = options.smtpUrl ? { urgent: pooled(options.smtpUrl, URGENT_POOL), notification: pooled(options.smtpUrl, NOTIFICATION_POOL) } : null;

  return {
    async attempt(mail) {
      if (!transports) {
        options.logger.info({ to: mail.to, subject: mail.subject, emailType: mail.emailType, body: mail.text }, "mail recorded (no SMTP_URL)");
        return { status: "sent" };
      }
      const transport = mail.notification ? transports.notification : transports.urgent;
      try {
        await transport.sendMail({
          from: mail.fromName ? { name: mail.fromName, address: fromAddress } : options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          ...(mail.messageId ? { messageId: `<${mail.messageId}>` } : {}),
          ...(mail.inReplyTo ? { inReplyTo: `<${mail.inReplyTo}>`, references: [`<${mail.inReplyTo}>`] } : {}),
        });
        return { status: "sent" };
      } catch (error) {
        return { status: "failed", errorMessage: error instanceof Error ? error.message : String(error) };
      }
    },
    async record(executor, outcomes) {
      if (outcomes.length === 0) return;
      await executor.insert(emailsLog).values(
        outcomes.map(({ mail, result }) => ({
          to: mail.to,
          from: options.from,
          subject: mail.subject,
          // The body (which may hold a sign-up code) is kept only when it is the sole copy: without SMTP. Once mail
          // really goes out, the database does not keep a second, readable copy of every code and link.
          body: transports ? null : mail.text,
          emailType: mail.emailType,
          dealershipId: mail.dealershipId ?? null,
          status: result.status,
          errorMessage: result.errorMessage ?? null,
        })),
      );
    },
    close() {
      transports?.urgent.close();
      transports?.notification.close();
    },
  };
}
