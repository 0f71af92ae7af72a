import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client";
import { ADF_MAX_BYTES } from "./adf";
import { credentialByMailbox, type CredentialRow } from "./credentials";
import { keepRefusedDocument, receiveAdf } from "./receive";

// The optional e-mail intake (issue 14; decision 134): many lead providers can only e-mail ADF. With INTAKE_SMTP_PORT
// set, this listener takes mail for leads+<mailbox>@INTAKE_DOMAIN, refuses any other recipient at RCPT, and feeds an
// ADF body or .xml attachments into the same path as POST /api/intake/adf.

/** A whole message: a 1 MB document grows by a third in base64, plus headers and a text part. */
export const INTAKE_MAIL_MAX_BYTES = 2 * ADF_MAX_BYTES;

export interface IntakeSmtp {
  port: number;
  close(): Promise<void>;
}

type SmtpError = Error & { responseCode?: number };

function smtpError(code: number, message: string): SmtpError {
  return Object.assign(new Error(message), { responseCode: code });
}

/** The credential tags of a recipient: leads+<mailbox>@<domain>, case-insensitive. */
export function mailboxOf(address: string, domain: string): string | null {
  const match = /^leads\+([a-z0-9]+)@(.+)$/i.exec(address.trim());
  if (!match || match[2]!.toLowerCase() !== domain.toLowerCase()) return null;
  return match[1]!.toLowerCase();
}

/** The ADF documents a mail carries: .xml (or XML-typed) attachments, else a body that is an ADF document itself. */
export function adfDocumentsIn(mail: ParsedMail): string[] {
  const attached = mail.attachments
    .filter((a) => /\.xml$/i.test(a.filename ?? "") || /xml/i.test(a.contentType))
    .map((a) => a.content.toString("utf8"));
  if (attached.length > 0) return attached;
  const body = mail.text?.trim() ?? "";
  return body.includes("<adf") ? [body] : [];
}

type Session = SMTPServerSession & { credentials?: CredentialRow[] };

export async function startIntakeSmtp(options: { db: Db; logger: FastifyBaseLogger; port: number; host: string; domain: string }): Promise<IntakeSmtp> {
  const { db, logger, domain } = options;
  const server = new SMTPServer({
    name: domain,
    banner: "Showroom lead intake",
    authOptional: true,
    disabledCommands: ["AUTH"],
    hideSTARTTLS: true,
    size: INTAKE_MAIL_MAX_BYTES,
    logger: false,
    onRcptTo(address: SMTPServerAddress, session: Session, callback: (err?: Error | null) => void) {
      const mailbox = mailboxOf(address.address, domain);
      const lookup = mailbox ? credentialByMailbox(db, mailbox) : Promise.resolve(undefined);
      lookup.then(
        (credential) => {
          if (!credential) return callback(smtpError(550, "No such intake address"));
          session.credentials = [...(session.credentials ?? []), credential];
          callback();
        },
        (error: unknown) => {
          logger.error({ err: error }, "intake recipient lookup failed");
          callback(smtpError(451, "Try again later"));
        },
      );
    },
    onData(stream, session: Session, callback) {
      void (async () => {
        const credentials = session.credentials ?? [];
        let mail: ParsedMail;
        try {
          mail = await simpleParser(stream);
        } catch {
          return callback(smtpError(554, "The message could not be read"));
        }
        if ((stream as { sizeExceeded?: boolean }).sizeExceeded) {
          for (const credential of credentials) await keepRefusedDocument(db, credential, "email", INTAKE_MAIL_MAX_BYTES, "The message is larger than the intake accepts");
          return callback(smtpError(552, "The message is larger than the intake accepts"));
        }
        const documents = adfDocumentsIn(mail);
        if (documents.length === 0) {
          for (const credential of credentials) await keepRefusedDocument(db, credential, "email", mail.text?.length ?? 0, "The mail carries no ADF document");
          return callback(smtpError(550, "The mail carries no ADF document (an <adf> body or an .xml attachment)"));
        }
        const errors: string[] = [];
        let accepted = 0;
        for (const credential of credentials) {
          for (const xml of documents) {
            const outcome = await receiveAdf(db, credential, xml, "email");
            if (outcome.accepted) accepted += 1;
            else errors.push(outcome.error);
          }
        }
        if (accepted === 0) return callback(smtpError(550, errors[0] ?? "The ADF document was refused"));
        callback();
      })().catch((error: unknown) => {
        logger.error({ err: error }, "intake mail failed");
        callback(smtpError(451, "Try again later"));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error) => logger.warn({ err: error }, "intake SMTP error"));
  const port = (server.server.address() as AddressInfo).port;
  logger.info({ port, domain }, "lead intake listening for mail");
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
