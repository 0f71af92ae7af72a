import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server on 127.0.0.1 and a free port, keeping every message it receives, parsed. The app under test
// is started with smtpUrl pointing at it, so mail goes through nodemailer and the network like in production.

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The headers a conversation needs (issue 26): Message-ID (with its brackets), the From and Reply-To addresses. */
  messageId?: string;
  fromHeader?: string;
  replyTo?: string;
  inReplyTo?: string;
}

export interface SmtpReceiver {
  url: string;
  port: number;
  inbox: ReceivedMail[];
  /** Waits for the first mail to `to` (and matching `subject` when given) that arrives after `since` mails. */
  waitFor(to: string, options?: { subject?: RegExp; timeoutMs?: number; since?: number }): Promise<ReceivedMail>;
  /** Mails received for an address so far. */
  mailsTo(to: string): ReceivedMail[];
  /** SMTP connections opened to this server so far. */
  connections(): number;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const inbox: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          inbox.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            messageId: parsed.messageId,
            fromHeader: parsed.from?.text,
            replyTo: parsed.replyTo?.value[0]?.address,
            inReplyTo: parsed.inReplyTo,
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;

  const mailsTo = (to: string) => inbox.filter((m) => m.to.includes(to.toLowerCase()));

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    inbox,
    mailsTo,
    connections: () => connections,
    waitFor(to, { subject, timeoutMs = 10_000, since = 0 } = {}) {
      const find = () => mailsTo(to).slice(since).find((m) => !subject || subject.test(m.subject));
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = find();
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ""} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code in a verification mail. */
export function codeIn(mail: ReceivedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1]!;
}

/** A port on 127.0.0.1 where nothing listens (for "SMTP is down"). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
