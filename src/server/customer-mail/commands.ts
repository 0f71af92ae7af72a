import type { EmailTemplateInput, SendEmailInput } from "../../shared/schemas/customer-email";
import type { EmailTemplate, LeadEmail } from "../../shared/schemas/responses/customer-email";
import { actorIdOf, type Viewer, writeInDealership } from "../auth/tenancy";
import type { Db } from "../db/client";
import { publish } from "../events/outbox";
import { badRequest, notFound } from "../http/errors";
import { lockedLead } from "../leads/visible-lead";
import { emailSnapshot, writeOutgoingEmail, type SendingSetup } from "./sending";
import { deleteTemplate, insertTemplate, TEMPLATE_NOT_FOUND, templateSnapshot, toTemplate, updateTemplate } from "./templates";

// Customer mail's changes made by people (issue 25; issue 26, decision 228): each is the scoped write and its one
// domain event in one transaction that holds the dealership (decision 176). A delivery's outcome and a customer's
// reply are not a viewer's: the mail queue's hook and the intake listener write them (sending.ts, receiving.ts).

const NO_CUSTOMER_EMAIL = "the lead has no e-mail address: add one to the lead first";

/**
 * Sends an e-mail to the lead's customer (email.sent): the lead locked until the send commits (a deletion waits), its
 * lead_emails row and its queued mail written with the event, so all three land together or not at all.
 */
export function sendCustomerEmail(db: Db, viewer: Viewer, leadId: string, input: SendEmailInput, setup: SendingSetup): Promise<LeadEmail> {
  return writeInDealership(db, viewer, async (tx) => {
    const lead = await lockedLead(tx, viewer, leadId);
    if (!lead.email?.trim()) throw badRequest(`email: ${NO_CUSTOMER_EMAIL}`, { email: NO_CUSTOMER_EMAIL });
    const { row, email } = await writeOutgoingEmail(setup, tx, viewer, { id: lead.id, email: lead.email }, input);
    await publish(tx, { type: "email.sent", dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer), payload: { lead, email: emailSnapshot(row) } });
    return email;
  });
}

const by = (viewer: Viewer) => ({ dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer) });

/** Adds a template to the viewer's dealership (email_template.created). */
export function addEmailTemplate(db: Db, viewer: Viewer, input: EmailTemplateInput): Promise<EmailTemplate> {
  return writeInDealership(db, viewer, async (tx) => {
    const row = await insertTemplate(tx, viewer, input);
    await publish(tx, { ...by(viewer), type: "email_template.created", payload: { template: templateSnapshot(row) } });
    return toTemplate(row);
  });
}

/** Rewrites a template of the viewer's dealership (email_template.updated), or the 404. */
export function editEmailTemplate(db: Db, viewer: Viewer, templateId: string, input: EmailTemplateInput): Promise<EmailTemplate> {
  return writeInDealership(db, viewer, async (tx) => {
    const row = await updateTemplate(tx, viewer, templateId, input);
    if (!row) throw notFound(TEMPLATE_NOT_FOUND);
    await publish(tx, { ...by(viewer), type: "email_template.updated", payload: { template: templateSnapshot(row) } });
    return toTemplate(row);
  });
}

/** Deletes a template of the viewer's dealership (email_template.deleted), or the 404. */
export function removeEmailTemplate(db: Db, viewer: Viewer, templateId: string): Promise<void> {
  return writeInDealership(db, viewer, async (tx) => {
    const row = await deleteTemplate(tx, viewer, templateId);
    if (!row) throw notFound(TEMPLATE_NOT_FOUND);
    await publish(tx, { ...by(viewer), type: "email_template.deleted", payload: { template: templateSnapshot(row) } });
  });
}
