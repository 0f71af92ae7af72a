import { and, desc, eq, inArray } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import type { Db } from "../db/client";
import { leadEmails } from "../db/schema/customer-mail";
import { publish } from "../events/outbox";
import { lockLeadInService } from "../leads/lead-rows";
import { leadSnapshot } from "../leads/queries";
import { leadOfReplyToken, newMessageIdPart } from "./reply-address";
import { withoutQuotedHistory } from "./reply-text";
import { emailSnapshot } from "./sending";

// A customer's reply, received by the intake listener (issue 26, decision 229). The lead is the reply address's; a
// mail to the bare reply@ address (a forward that dropped "+<token>") is threaded by In-Reply-To/References alone,
// onto the lead of the mail it answers. The reply is one lead_emails row ("in") and one email.received event, whose
// timeline entry and bell/push for the lead's rep follow from it.

/** What a recipient of the reply listener resolved to at RCPT. */
export type ReplyRecipient = { address: string } & ({ token: string; leadId: string } | { bare: true });

export type ReplyOutcome = { accepted: true; emailId: string } | { accepted: false; code: number; message: string };

/** A reply's subject and text as kept: no control characters but line breaks and tabs, within bounds. */
const SUBJECT_MAX = 500;
const BODY_MAX = 50_000;
// eslint-disable-next-line no-control-regex -- PostgreSQL refuses NUL in text; other controls are noise on screen
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const clean = (text: string, max: number) => text.replace(CONTROL, "").slice(0, max);

/** The Message-IDs a reply names (In-Reply-To, then References, newest first), without their angle brackets. */
function answeredIds(mail: ParsedMail): string[] {
  const references = Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : [];
  const named = [mail.inReplyTo ?? "", ...[...references].reverse()].flatMap((value) => value.split(/\s+/));
  return [...new Set(named.map((id) => id.trim().replace(/^<|>$/g, "")).filter((id) => id.length > 0 && id.length <= 250))].slice(0, 50);
}

export async function receiveReply(db: Db, recipient: ReplyRecipient, mail: ParsedMail): Promise<ReplyOutcome> {
  const answered = answeredIds(mail);
  return db.transaction(async (tx) => {
    // The mail of the conversation it answers: on the address's lead, or (bare address) on any lead.
    const candidates = answered.length
      ? await tx
          .select({ id: leadEmails.id, leadId: leadEmails.leadId, messageId: leadEmails.messageId })
          .from(leadEmails)
          .where(and(inArray(leadEmails.messageId, answered), "leadId" in recipient ? eq(leadEmails.leadId, recipient.leadId) : undefined))
          .orderBy(desc(leadEmails.createdAt))
      : [];
    // In-Reply-To first, then References from the newest.
    const thread = answered.map((id) => candidates.find((c) => c.messageId === id)).find((c) => c !== undefined);
    const leadId = "leadId" in recipient ? recipient.leadId : thread?.leadId;
    if (!leadId) return { accepted: false, code: 550, message: "No conversation found for this reply" } as const;
    const lead = await lockLeadInService(tx, leadId);
    if (!lead) return { accepted: false, code: 550, message: "No such address" } as const;
    const messageId = mail.messageId?.trim().replace(/^<|>$/g, "").slice(0, 250) || `${newMessageIdPart()}@received.invalid`;
    // The sender's server may deliver the same message again (it did not hear our answer): once is enough.
    const [again] = await tx
      .select({ id: leadEmails.id })
      .from(leadEmails)
      .where(and(eq(leadEmails.leadId, lead.id), eq(leadEmails.direction, "in"), eq(leadEmails.messageId, messageId)));
    if (again) return { accepted: true, emailId: again.id } as const;
    const text = withoutQuotedHistory(mail.text ?? "");
    const [row] = await tx
      .insert(leadEmails)
      .values({
        leadId: lead.id,
        dealershipId: lead.dealershipId,
        direction: "in",
        status: "received",
        messageId,
        inReplyToId: thread?.id ?? null,
        fromAddress: clean(mail.from?.value[0]?.address ?? "", 320),
        toAddress: clean(recipient.address, 320),
        subject: clean(mail.subject?.trim() || "(no subject)", SUBJECT_MAX),
        body: clean(text, BODY_MAX),
        attachments: mail.attachments.map((a) => ({ name: clean(a.filename ?? "attachment", 255), size: a.size })),
      })
      .returning();
    await publish(tx, { type: "email.received", dealershipId: lead.dealershipId, actorId: null, payload: { lead: leadSnapshot(lead), email: emailSnapshot(row!) } });
    return { accepted: true, emailId: row!.id } as const;
  });
}

/** The recipient a reply address names, or null when nobody was given it (refused at RCPT). */
export async function resolveReplyRecipient(db: Db, address: string, parsed: { token: string } | { bare: true }): Promise<ReplyRecipient | null> {
  if ("bare" in parsed) return { address, bare: true };
  const found = await leadOfReplyToken(db, parsed.token);
  return found ? { address, token: parsed.token, leadId: found.leadId } : null;
}
