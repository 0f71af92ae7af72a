import { and, asc, eq } from "drizzle-orm";
import { fullName } from "../../shared/format";
import { fillPlaceholders, type EmailTemplateInput, type TemplatePlaceholder } from "../../shared/schemas/customer-email";
import type { EmailTemplate } from "../../shared/schemas/responses/customer-email";
import type { Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { emailTemplates } from "../db/schema/customer-mail";
import { dealerships } from "../db/schema/dealerships";
import { users } from "../db/schema/users";
import { notFound } from "../http/errors";
import { lastVehicleDriven } from "../test-drives/queries";

// Management's e-mail templates per dealership (issue 26, decision 228), and a template filled in for one lead: what
// the lead page's composer starts from. Each change publishes one email_template.* event (commands.ts).

export const TEMPLATE_NOT_FOUND = "E-mail template not found";

export type TemplateRow = typeof emailTemplates.$inferSelect;

export function toTemplate(row: TemplateRow): EmailTemplate {
  return { id: row.id, name: row.name, subject: row.subject, body: row.body, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export async function templatesOf(db: Db | Tx, dealershipId: string): Promise<EmailTemplate[]> {
  const rows = await db.select().from(emailTemplates).where(eq(emailTemplates.dealershipId, dealershipId)).orderBy(asc(emailTemplates.name), asc(emailTemplates.id));
  return rows.map(toTemplate);
}

export async function templateOf(db: Db | Tx, dealershipId: string, templateId: string): Promise<TemplateRow> {
  if (templateId.length > 64) throw notFound(TEMPLATE_NOT_FOUND);
  const [row] = await db.select().from(emailTemplates).where(and(eq(emailTemplates.id, templateId), eq(emailTemplates.dealershipId, dealershipId)));
  if (!row) throw notFound(TEMPLATE_NOT_FOUND);
  return row;
}

export const templateSnapshot = (row: TemplateRow) => ({ id: row.id, name: row.name });

export async function insertTemplate(tx: Tx, viewer: Viewer, input: EmailTemplateInput): Promise<TemplateRow> {
  const [row] = await tx.insert(emailTemplates).values({ dealershipId: viewer.dealershipId, createdBy: viewer.userId, ...input }).returning();
  return row!;
}

/** Rewrites a template of the viewer's dealership; undefined when it has none of that id. */
export async function updateTemplate(tx: Tx, viewer: Viewer, templateId: string, input: EmailTemplateInput): Promise<TemplateRow | undefined> {
  const [row] = await tx
    .update(emailTemplates)
    .set(input)
    .where(and(eq(emailTemplates.id, templateId), eq(emailTemplates.dealershipId, viewer.dealershipId)))
    .returning();
  return row;
}

/** Deletes a template of the viewer's dealership; undefined when it has none of that id. */
export async function deleteTemplate(tx: Tx, viewer: Viewer, templateId: string): Promise<TemplateRow | undefined> {
  if (templateId.length > 64) return undefined;
  const [row] = await tx.delete(emailTemplates).where(and(eq(emailTemplates.id, templateId), eq(emailTemplates.dealershipId, viewer.dealershipId))).returning();
  return row;
}

/** The ADF intake's "Vehicle of interest: ..." line of the description (decision 206), without its details. */
export function vehicleOfInterestIn(description: string | null): string | null {
  const line = /^Vehicle of interest:\s*(.+)$/im.exec(description ?? "");
  return line ? line[1]!.replace(/\s*\(.*\)\s*$/, "").trim() || null : null;
}

/**
 * A template filled in for a lead: the customer's first name, the lead's rep (whoever writes, for a lead nobody has
 * claimed), the dealership's name, the vehicle of interest (the description's ADF line, else the lead's latest test
 * drive, else nothing).
 */
export async function draftFor(
  db: Db,
  lead: { id: string; firstName: string; description: string | null; claimedBy: string | null; dealershipId: string },
  writerId: string,
  template: TemplateRow,
): Promise<{ subject: string; body: string }> {
  const [rep] = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, lead.claimedBy ?? writerId));
  const [dealership] = await db.select({ name: dealerships.name }).from(dealerships).where(eq(dealerships.id, lead.dealershipId));
  const vehicle = vehicleOfInterestIn(lead.description) || (await lastVehicleDriven(db, lead.id));
  const values: Record<TemplatePlaceholder, string> = {
    firstName: lead.firstName,
    repName: fullName(rep ?? null).trim(),
    dealershipName: dealership?.name ?? "",
    vehicle: vehicle ?? "",
  };
  return { subject: fillPlaceholders(template.subject, values).replace(/\s+/g, " ").trim(), body: fillPlaceholders(template.body, values) };
}
