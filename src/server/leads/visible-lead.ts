import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Lead } from "../../shared/schemas/lead";
import { requireUser } from "../auth/current-user";
import type { PersonViewer, Viewer } from "../auth/tenancy";
import type { Tx } from "../db/client";
import { leads } from "../db/schema/leads";
import { notFound } from "../http/errors";
import { findVisibleLead, leadSnapshot, lockVisibleLead } from "./queries";

// The leads area's answer to "which lead may this request open?" (and "lock it for my change"), for its own routes
// and for other areas that take a lead id (appointments, test drives, tasks, customer mail): not a route file, so no
// route imports another.

export const LEAD_NOT_FOUND = "Lead not found";

/** A lead the caller may see and the viewer it is seen as, or 404 (another dealership, missing, another rep's client). */
export async function visibleLead(request: FastifyRequest, id: string): Promise<{ lead: Lead; viewer: PersonViewer }> {
  const user = await requireUser(request);
  const found = await findVisibleLead(request.server.db, user.id, id);
  if (!found) throw notFound(LEAD_NOT_FOUND);
  return found;
}

/** The lead as its events carry it, locked (shared) until the change commits: a claim or deletion waits. */
export async function lockedLead(tx: Tx, viewer: Viewer, leadId: string) {
  if (!(await lockVisibleLead(tx, viewer, leadId))) throw notFound(LEAD_NOT_FOUND);
  const [row] = await tx.select().from(leads).where(eq(leads.id, leadId));
  if (!row) throw notFound(LEAD_NOT_FOUND);
  return leadSnapshot(row);
}
