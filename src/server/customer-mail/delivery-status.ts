import { eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client";
import { leadEmails } from "../db/schema/customer-mail";

// What the lead's timeline and merge (leads/activity.ts) need of the lead's e-mail: customer mail owns lead_emails (eslint/tenant-tables.js, decision 248). Imports no other area.

/** The sent e-mail's status or error for a timeline entry, as SQL: null unless the entry is an `email.sent`. */
export function sentEmailSql(field: "status" | "error", entry: { type: AnyColumn; payload: AnyColumn }): SQL<string | null> {
  const column = field === "status" ? leadEmails.status : leadEmails.error;
  return sql<string | null>`(select ${column} from ${leadEmails} where ${entry.type} = 'email.sent' and ${leadEmails.id} = ${entry.payload}->'email'->>'id')`;
}

/** A merge moves the merged-away lead's e-mail conversation to the kept lead; answers the moved ids (decision 214). */
export async function moveLeadEmails(tx: Tx, fromLeadId: string, toLeadId: string): Promise<string[]> {
  const moved = await tx.update(leadEmails).set({ leadId: toLeadId }).where(eq(leadEmails.leadId, fromLeadId)).returning({ id: leadEmails.id });
  return moved.map((r) => r.id);
}
