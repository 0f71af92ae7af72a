import type { FastifyInstance, FastifyRequest } from "fastify";
import { can } from "../../shared/permissions";
import { fullName } from "../../shared/format";
import { createLeadSchema, leadListQuerySchema, leadStatusChangeSchema, updateLeadSchema, type Lead } from "../../shared/schemas/lead";
import { requireUser } from "../auth/current-user";
import { requireCapability, requireDealershipAccess, type Viewer } from "../auth/tenancy";
import { dealershipById } from "../dealerships/queries";
import { publish } from "../events/outbox";
import { badRequest, forbidden, notFound, parseInput } from "../http/errors";
import { notifyByEmail } from "../notifications/email-triggers";
import {
  activeSalesReps,
  claimLead,
  createLead,
  dealershipMetrics,
  decodeCursor,
  deleteLead,
  encodeCursor,
  findVisibleLead,
  leadSnapshot,
  leadWithClaimer,
  listLeads,
  lockActiveMember,
  unattendedLeads,
  updateLead,
  userName,
  type LeadChanges,
} from "./queries";
import { REMINDER_LEADS_LISTED, reminderMail } from "./reminder-mail";

// Leads and the dashboard metrics (spec part 1 §2.3-2.6, §4, §6, §7; part 2 lead detail §7). Every rule the screens
// show is decided here from the session (decision 010); every write carries its condition in its own WHERE clause and
// publishes its domain event in the same transaction (decisions 050, 051).

export const ALREADY_CLAIMED = "This lead is already claimed by another user.";
const LEAD_NOT_FOUND = "Lead not found";

type DealershipParams = { Params: { id: string } };
type LeadParams = { Params: { id: string } };

/** A lead the caller may see and the viewer it is seen as, or 404 (another dealership, missing, another rep's client). */
export async function visibleLead(request: FastifyRequest, id: string): Promise<{ lead: Lead; viewer: Viewer }> {
  const user = await requireUser(request);
  const found = await findVisibleLead(request.server.db, user.id, id);
  if (!found) throw notFound(LEAD_NOT_FOUND);
  return found;
}

/** The display name of the signed-in user, as a claim records it. */
function nameOf(user: { firstName: string | null; lastName: string | null; email: string }): string {
  return fullName({ firstName: user.firstName ?? "", lastName: user.lastName ?? "" }).trim() || user.email;
}

export async function leadRoutes(app: FastifyInstance): Promise<void> {
  // Lists with search, status filter and keyset pages; Link rel="next" carries the cursor (decision 012).
  app.get<DealershipParams & { Querystring: Record<string, string> }>("/api/dealerships/:id/leads", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = parseInput(leadListQuerySchema, request.query);
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    if (cursor === null) throw badRequest("cursor: is not a valid page cursor", { cursor: "is not a valid page cursor" });
    const page = await listLeads(app.db, access, {
      type: query.type,
      q: query.q || undefined,
      status: query.status,
      source: query.source,
      limit: query.limit,
      cursor,
    });
    if (page.next) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(request.query)) if (key !== "cursor" && typeof value === "string") params.set(key, value);
      params.set("cursor", encodeCursor(page.next));
      reply.header("link", `</api/dealerships/${encodeURIComponent(access.dealershipId)}/leads?${params.toString()}>; rel="next"`);
    }
    return page.leads;
  });

  app.post<DealershipParams>("/api/dealerships/:id/leads", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const input = parseInput(createLeadSchema, request.body);
    const assignee = input.assignedTo || null;
    const assigns = can(access.role, "assignLeads");
    // A sales user's lead is theirs at once; they cannot hand it to someone else.
    if (!assigns && assignee && assignee !== access.userId) throw forbidden("Only front desk and management can assign leads");
    const claimer = assigns ? assignee : access.userId;
    const lead = await app.db.transaction(async (tx) => {
      let claimerName: string | null = null;
      if (assigns && assignee) {
        // Part 1 §6: front desk and management assign to an active member of this dealership; the membership row stays
        // locked until the lead commits, so a removal cannot slip in between.
        claimerName = await lockActiveMember(tx, access.dealershipId, assignee);
        if (claimerName === null) {
          throw badRequest("assignedTo: Choose an active member of this dealership", {
            assignedTo: "Choose an active member of this dealership",
          });
        }
      }
      const row = await createLead(
        tx,
        access,
        { firstName: input.firstName, lastName: input.lastName, email: input.email || null, phone: input.phone || null, description: input.description || null, source: input.source },
        claimer,
      );
      const event = { dealershipId: access.dealershipId, actorId: access.userId };
      await publish(tx, { ...event, type: "lead.created", payload: { lead: leadSnapshot(row) } });
      if (claimer && claimer !== access.userId) {
        await publish(tx, { ...event, type: "lead.claimed", payload: { lead: leadSnapshot(row), claimedBy: { id: claimer, name: claimerName ?? "" } } });
      }
      return leadWithClaimer(tx, access, row.id);
    });
    return reply.code(201).send(lead);
  });

  app.get<LeadParams>("/api/leads/:id", async (request) => (await visibleLead(request, request.params.id)).lead);

  async function editLead(request: FastifyRequest, leadId: string, changes: LeadChanges): Promise<Lead> {
    const { viewer } = await visibleLead(request, leadId);
    const lead = await app.db.transaction(async (tx) => {
      const updated = await updateLead(tx, viewer, leadId, changes);
      if (!updated) return undefined;
      if (updated.row.status !== updated.previousStatus) {
        await publish(tx, {
          type: "lead.status_changed",
          dealershipId: viewer.dealershipId,
          actorId: viewer.userId,
          payload: { lead: leadSnapshot(updated.row), previousStatus: updated.previousStatus },
        });
      }
      return leadWithClaimer(tx, viewer, leadId);
    });
    if (!lead) throw notFound(LEAD_NOT_FOUND);
    return lead;
  }

  app.patch<LeadParams>("/api/leads/:id", async (request) => {
    await requireUser(request);
    return editLead(request, request.params.id, parseInput(updateLeadSchema, request.body));
  });

  app.patch<LeadParams>("/api/leads/:id/status", async (request) => {
    await requireUser(request);
    const { status } = parseInput(leadStatusChangeSchema, request.body);
    return editLead(request, request.params.id, { status });
  });

  // One conditional UPDATE decides the winner; everyone else gets 409 (part 1 §8 "already claimed").
  app.post<LeadParams>("/api/leads/:id/claim", async (request, reply) => {
    const user = await requireUser(request);
    const outcome = await claimLead(app.db, { id: user.id, name: nameOf(user) }, request.params.id);
    if (outcome.claimed) {
      app.events.committed(); // the claim's event is in the outbox: wake the dispatchers and listeners (decision 120)
      return outcome.claimed;
    }
    if (!outcome.found) throw notFound(LEAD_NOT_FOUND);
    return reply.code(409).send({ message: ALREADY_CLAIMED });
  });

  app.delete<LeadParams>("/api/leads/:id", async (request) => {
    const { viewer } = await visibleLead(request, request.params.id);
    const deleted = await app.db.transaction(async (tx) => {
      const row = await deleteLead(tx, viewer, request.params.id);
      if (row) {
        await publish(tx, { type: "lead.deleted", dealershipId: viewer.dealershipId, actorId: viewer.userId, payload: { lead: leadSnapshot(row) } });
      }
      return row;
    });
    if (!deleted) throw notFound(LEAD_NOT_FOUND);
    return { message: "Lead deleted successfully" };
  });

  // Send Reminder (part 1 §2.4, §6): front desk and management mail every active sales rep the leads still new.
  app.post<DealershipParams>("/api/dealerships/:id/leads/remind-unattended", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "sendReminders", "Only front desk and management can send reminders");
    const pool = await unattendedLeads(app.db, access.dealershipId, REMINDER_LEADS_LISTED);
    if (pool.total === 0) return { message: "There are no new leads waiting, so no reminder was sent." };
    const reps = await activeSalesReps(app.db, access.dealershipId);
    if (reps.length === 0) return { message: "There are no active sales reps to remind, so no reminder was sent." };
    const dealership = await dealershipById(app.db, access.dealershipId);
    const sentByName = await userName(app.db, access.user.id);
    const link = `${app.config.appUrl}/email-redirect?to=${encodeURIComponent("/leads/new")}`;
    const now = new Date();
    // All the reminder's mails are queued in one transaction: every rep is reminded, or (on failure) none is.
    await app.db.transaction(async (tx) => {
    for (const rep of reps) {
      await app.mailer.queue(
        reminderMail({
          to: rep.email,
          repFirstName: rep.firstName,
          dealershipName: dealership?.name ?? "your dealership",
          dealershipId: access.dealershipId,
          sentByName,
          total: pool.total,
          leads: pool.listed,
          link,
          now,
        }),
        tx,
      );
    }
    // Whoever subscribed to the "Unattended Leads Reminder" trigger and is not a rep hears that one went out.
    const notice = reminderMail({
      to: "",
      repFirstName: null,
      dealershipName: dealership?.name ?? "your dealership",
      dealershipId: access.dealershipId,
      sentByName,
      total: pool.total,
      leads: pool.listed,
      link,
      now,
    });
    await notifyByEmail(tx, app.mailer, {
      dealershipId: access.dealershipId,
      trigger: "unattended_leads_reminder",
      subject: notice.subject,
      text: notice.text,
      html: notice.html,
      excludeUserIds: [access.user.id, ...reps.map((r) => r.id)],
    });
    });
    const repWord = reps.length === 1 ? "sales rep" : "sales reps";
    const leadWord = pool.total === 1 ? "new lead" : "new leads";
    return { message: `Reminder sent to ${reps.length} ${repWord} about ${pool.total} ${leadWord}.` };
  });

  // Dashboard cards (part 1 §2.3, §3): today on the dealership's clock, change from yesterday (decision 014).
  app.get<DealershipParams>("/api/dealerships/:id/metrics", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    return dealershipMetrics(app.db, access.dealershipId, new Date());
  });
}
