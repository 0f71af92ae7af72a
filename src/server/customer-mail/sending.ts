import { and, desc, eq } from "drizzle-orm";
import type { EmailSnapshot } from "../../shared/events";
import { fullName } from "../../shared/format";
import type { SendEmailInput } from "../../shared/schemas/customer-email";
import type { LeadEmail } from "../../shared/schemas/responses/customer-email";
import type { Viewer } from "../auth/tenancy";
import type { Config } from "../config";
import type { Tx } from "../db/client";
import { leadEmails } from "../db/schema/customer-mail";
import { dealerships } from "../db/schema/dealerships";
import { users } from "../db/schema/users";
import { publish } from "../events/outbox";
import { replyDomain } from "../intake-config";
import { leadRowById } from "../leads/lead-rows";
import { leadSnapshot } from "../leads/queries";
import { addressOf } from "../mail/delivery";
import type { Mailer, MailResult, OutgoingMail } from "../mail/mailer";
import { currentReplyToken, newMessageIdPart, replyAddress } from "./reply-address";

// Sending an e-mail to the customer from the lead page (issue 26, decision 228). The mail is queued in the send's
// transaction with its lead_emails row and its email.sent event (commands.ts), so all three commit together or not
// at all; the mail queue retries it, and its final outcome (sent, or failed after the last try) updates the row and
// publishes email.delivery_updated in the transaction that records it.

export type EmailRow = typeof leadEmails.$inferSelect;

export function emailSnapshot(row: EmailRow): EmailSnapshot {
  return {
    id: row.id,
    direction: row.direction,
    subject: row.subject,
    body: row.body,
    from: row.fromAddress,
    to: row.toAddress,
    messageId: row.messageId,
    inReplyToId: row.inReplyToId,
    attachments: row.attachments,
  };
}

/** What a send needs of the app: its mail queue, and the settings that give the From, Reply-To and Message-ID. */
export interface SendingSetup {
  mailer: Pick<Mailer, "queue">;
  config: Pick<Config, "intake" | "appUrl" | "mailFrom">;
}

/** Who may answer: the lead's reply address when the intake listener takes mail, else whoever wrote it. */
function replyToOf(setup: SendingSetup, token: string, sender: { email: string }): string {
  const listening = setup.config.intake?.smtpPort !== undefined;
  return listening ? replyAddress(token, replyDomain(setup.config.intake, setup.config.appUrl)) : sender.email;
}

/**
 * Writes a customer e-mail of the viewer on a lead locked by the caller: its lead_emails row ("queued") and its mail in
 * the queue, in the caller's transaction. Answers the row (for the event) and the e-mail as the route answers it.
 */
export async function writeOutgoingEmail(
  setup: SendingSetup,
  tx: Tx,
  viewer: Viewer,
  lead: { id: string; email: string },
  input: SendEmailInput,
): Promise<{ row: EmailRow; email: LeadEmail }> {
  const [sender] = await tx.select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, viewer.userId));
  const [dealership] = await tx.select({ name: dealerships.name }).from(dealerships).where(eq(dealerships.id, viewer.dealershipId));
  const token = await currentReplyToken(tx, { id: lead.id, dealershipId: viewer.dealershipId });
  const replyTo = replyToOf(setup, token, sender!);
  // The customer's latest reply, if any: this mail answers it, so their mail program threads the conversation.
  const [answered] = await tx
    .select({ id: leadEmails.id, messageId: leadEmails.messageId })
    .from(leadEmails)
    .where(and(eq(leadEmails.leadId, lead.id), eq(leadEmails.direction, "in")))
    .orderBy(desc(leadEmails.createdAt))
    .limit(1);
  const senderName = fullName(sender!).trim();
  const fromName = senderName ? `${senderName} at ${dealership!.name}` : dealership!.name;
  const [row] = await tx
    .insert(leadEmails)
    .values({
      leadId: lead.id,
      dealershipId: viewer.dealershipId,
      direction: "out",
      status: "queued",
      messageId: `${newMessageIdPart()}@${replyDomain(setup.config.intake, setup.config.appUrl)}`,
      inReplyToId: answered?.id ?? null,
      fromAddress: addressOf(setup.config.mailFrom),
      toAddress: lead.email.trim(),
      subject: input.subject,
      body: input.body,
      sentBy: viewer.userId,
    })
    .returning();
  const email = row!;
  const mail: OutgoingMail = {
    to: email.toAddress,
    subject: email.subject,
    text: email.body,
    emailType: "customer_email",
    dealershipId: viewer.dealershipId,
    fromName,
    replyTo,
    messageId: email.messageId,
    ...(answered ? { inReplyTo: answered.messageId } : {}),
    leadEmailId: email.id,
  };
  await setup.mailer.queue(mail, tx);
  return {
    row: email,
    email: {
      id: email.id,
      leadId: email.leadId,
      direction: email.direction,
      status: email.status,
      subject: email.subject,
      body: email.body,
      from: email.fromAddress,
      to: email.toAddress,
      replyTo,
      messageId: email.messageId,
      attachments: email.attachments,
      sentBy: { id: sender!.id, firstName: sender!.firstName ?? "", lastName: sender!.lastName ?? "" },
      createdAt: email.createdAt.toISOString(),
    },
  };
}

/**
 * The mail queue's final outcomes of customer e-mails (Mailer.afterDelivery): each row leaves "queued" once, and its
 * email.delivery_updated is published in the same transaction. A mail whose lead was deleted meanwhile changes nothing.
 */
export async function recordDeliveries(tx: Tx, outcomes: Array<{ mail: OutgoingMail; result: MailResult }>): Promise<void> {
  const ours = outcomes.filter((o) => o.mail.leadEmailId);
  if (ours.length === 0) return;
  for (const { mail, result } of ours) {
    const error = result.status === "failed" ? (result.errorMessage ?? "delivery failed").slice(0, 1000) : null;
    const [row] = await tx
      .update(leadEmails)
      .set({ status: result.status, error })
      .where(and(eq(leadEmails.id, mail.leadEmailId!), eq(leadEmails.status, "queued")))
      .returning({ id: leadEmails.id, leadId: leadEmails.leadId, dealershipId: leadEmails.dealershipId });
    if (!row) continue;
    const lead = await leadRowById(tx, row.leadId);
    if (!lead) continue;
    await publish(tx, {
      type: "email.delivery_updated",
      dealershipId: row.dealershipId,
      actorId: null,
      payload: { lead: leadSnapshot(lead), email: { id: row.id, status: result.status, error } },
    });
  }
}
