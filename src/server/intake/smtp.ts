import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client";
import { ADF_MAX_BYTES } from "./adf";
import { adfInBody, CharsetError, decodeDocument } from "./charset";
import { credentialByMailbox, type CredentialRow } from "./credentials";
import { keepRefusedDocument, receiveAdf } from "./receive";
import { plainTextPart } from "./mail-body";
import { receiveReply, resolveReplyRecipient, type ReplyRecipient } from "../customer-mail/receiving";
import { replyRecipient } from "../customer-mail/reply-address";

// The optional e-mail intake (issue 14; decision 134): many lead providers can only e-mail ADF. With INTAKE_SMTP_PORT
// set, this listener takes mail for leads+<mailbox>@INTAKE_DOMAIN, refuses any other recipient at RCPT, and feeds an
// ADF body or .xml attachments, decoded by their charset (decision 180), into the same path as POST /api/intake/adf.
// It also takes customers' replies to the leads' reply addresses, reply+<token>@REPLY_DOMAIN (issue 26, decision 229):
// a token nobody was given is refused at RCPT like any other unknown recipient.

/** A whole message: a 1 MB document grows by a third in base64, plus headers and a text part. */
export const INTAKE_MAIL_MAX_BYTES = 2 * ADF_MAX_BYTES;
/** A customer's reply may carry photos or a PDF: up to 25 MB, as the common mail services send. */
export const REPLY_MAIL_MAX_BYTES = 25 * 1024 * 1024;

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

/** One ADF document a mail carries: its text, or why it could not be read (decision 180). */
export type MailDocument = { xml: string } | { refused: string };

function read(bytes: Buffer, charset: string | null, inBody: boolean): MailDocument | null {
  try {
    const text = decodeDocument(bytes, charset);
    const xml = inBody ? adfInBody(text) : text;
    return xml === null ? null : { xml };
  } catch (error) {
    if (error instanceof CharsetError) return { refused: error.message };
    throw error;
  }
}

/**
 * The ADF documents a mail carries: .xml (or XML-typed) attachments, else the ADF document in its text body (a line
 * before it and a signature after it are left out). Each is decoded from its bytes and its part's charset.
 */
export async function adfDocumentsIn(message: Buffer, mail: ParsedMail): Promise<MailDocument[]> {
  const attached = mail.attachments
    .filter((a) => /\.xml$/i.test(a.filename ?? "") || /xml/i.test(a.contentType))
    .map((a) => read(a.content, (a.headers.get("content-type") as { params?: { charset?: string } } | undefined)?.params?.charset ?? null, false));
  if (attached.length > 0) return attached.filter((d): d is MailDocument => d !== null);
  const part = await plainTextPart(message);
  // A mail with only an HTML body: mailparser's text of it (already decoded) is what there is.
  const body = part ? read(part.bytes, part.charset, true) : read(Buffer.from(mail.text ?? "", "utf8"), "utf-8", true);
  return body ? [body] : [];
}

/** Reads the message into memory up to `limit`; past it the rest is drained and the message is too large. */
async function readMessage(stream: AsyncIterable<Buffer>, limit: number): Promise<{ message: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return { message: Buffer.concat(chunks), tooLarge: size > limit };
}

type Session = SMTPServerSession & { credentials?: CredentialRow[]; replies?: ReplyRecipient[] };

export async function startIntakeSmtp(options: {
  db: Db;
  logger: FastifyBaseLogger;
  port: number;
  host: string;
  domain: string;
  /** The leads' reply addresses' domain (default: `domain`). */
  replyDomain?: string;
}): Promise<IntakeSmtp> {
  const { db, logger, domain } = options;
  const replyDomain = options.replyDomain ?? domain;
  const server = new SMTPServer({
    name: domain,
    banner: "Showroom lead intake",
    authOptional: true,
    disabledCommands: ["AUTH"],
    hideSTARTTLS: true,
    size: REPLY_MAIL_MAX_BYTES,
    logger: false,
    onRcptTo(address: SMTPServerAddress, session: Session, callback: (err?: Error | null) => void) {
      const reply = replyRecipient(address.address, replyDomain);
      if (reply) {
        resolveReplyRecipient(db, address.address, reply).then(
          (recipient) => {
            if (!recipient) return callback(smtpError(550, "No such address"));
            session.replies = [...(session.replies ?? []), recipient];
            callback();
          },
          (error: unknown) => {
            logger.error({ err: error }, "reply recipient lookup failed");
            callback(smtpError(451, "Try again later"));
          },
        );
        return;
      }
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
        const replies = session.replies ?? [];
        const { message, tooLarge } = await readMessage(stream, replies.length > 0 ? REPLY_MAIL_MAX_BYTES : INTAKE_MAIL_MAX_BYTES);
        if (tooLarge) {
          for (const credential of credentials) await keepRefusedDocument(db, credential, "email", INTAKE_MAIL_MAX_BYTES, "The message is larger than the intake accepts");
          return callback(smtpError(552, "The message is larger than the intake accepts"));
        }
        let mail: ParsedMail;
        try {
          mail = await simpleParser(message);
        } catch {
          return callback(smtpError(554, "The message could not be read"));
        }
        const errors: string[] = [];
        let accepted = 0;
        for (const recipient of replies) {
          const outcome = await receiveReply(db, recipient, mail);
          if (outcome.accepted) accepted += 1;
          else errors.push(outcome.message);
        }
        if (credentials.length > 0) {
          const documents = await adfDocumentsIn(message, mail);
          if (documents.length === 0) {
            for (const credential of credentials) await keepRefusedDocument(db, credential, "email", mail.text?.length ?? 0, "The mail carries no ADF document");
            errors.push("The mail carries no ADF document (an <adf> body or an .xml attachment)");
          }
          for (const credential of credentials) {
            for (const document of documents) {
              if ("refused" in document) {
                // Refused before it could be read: listed like any refused document, a permanent 550 to the sender.
                await keepRefusedDocument(db, credential, "email", message.length, document.refused);
                errors.push(document.refused);
                continue;
              }
              const outcome = await receiveAdf(db, credential, document.xml, "email");
              if (outcome.accepted) accepted += 1;
              else errors.push(outcome.error);
            }
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
