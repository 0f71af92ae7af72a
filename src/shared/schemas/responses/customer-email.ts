import { z } from "zod";
import { activityActorSchema } from "../../activity";

// What the e-mail conversation and template routes answer (issue 26, decision 228; src/server/customer-mail/).

export const EMAIL_STATUSES = ["queued", "sent", "failed", "received"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const emailAttachmentSchema = z.strictObject({ name: z.string(), size: z.number().int().nonnegative() });

/** A mail of the lead's conversation, as the send route answers it. */
export const leadEmailSchema = z.strictObject({
  id: z.string(),
  leadId: z.string(),
  direction: z.enum(["out", "in"]),
  status: z.enum(EMAIL_STATUSES),
  subject: z.string(),
  body: z.string(),
  from: z.string(),
  to: z.string(),
  /** The lead's reply address the customer answers to (a sent mail), or null. */
  replyTo: z.string().nullable(),
  messageId: z.string(),
  attachments: z.array(emailAttachmentSchema),
  sentBy: activityActorSchema.nullable(),
  createdAt: z.string(),
});
export type LeadEmail = z.infer<typeof leadEmailSchema>;

export const emailTemplateSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;

/** A template filled in for one lead: what the composer starts from. */
export const emailDraftSchema = z.strictObject({ subject: z.string(), body: z.string() });

export const responses = {
  "POST /api/leads/:id/emails": leadEmailSchema,
  "GET /api/leads/:id/email-draft": emailDraftSchema,
  "GET /api/dealerships/:id/email-templates": z.array(emailTemplateSchema),
  "POST /api/dealerships/:id/email-templates": emailTemplateSchema,
  "PUT /api/dealerships/:id/email-templates/:templateId": emailTemplateSchema,
  "DELETE /api/dealerships/:id/email-templates/:templateId": z.strictObject({ id: z.string() }),
};
