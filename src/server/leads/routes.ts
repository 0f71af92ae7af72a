import type { FastifyInstance, FastifyRequest } from "fastify";
import { can } from "../../shared/permissions";
import {
  createLeadSchema,
  leadListQuerySchema,
  leadStatusChangeSchema,
  updateLeadSchema,
  type Lead,
} from "../../shared/schemas/lead";
import { requireDealershipAccess, requireObjectAccess, requireCapability, type DealershipAccess } from "../auth/tenancy";
import { dealershipById } from "../dealerships/queries";
import { badRequest, forbidden, notFound, parseInput } from "../http/errors";
import { emailLeadClaimed, emailLeadCreated, emailLeadStatusChanged } from "../notifications/email-events";
import { notifyByEmail } from "../notifications/email-triggers";
import {
  activeSalesReps,
  canSeeLead,
  claimLead,
  createLead,
  dealershipMetrics,
  decodeCursor,
  deleteLead,
  encodeCursor,
  isActiveMember,
  leadById,
  leadWithClaimer,
  listLeads,
  unattendedLeads,
  updateLead,
  userName,
  type LeadRow,
  type Viewer,
} from "./queries";
import { REMINDER_LEADS_LISTED, reminderMail } from "./reminder-mail";

// Leads and the dashboard metrics (spec part 1 §2.3-2.6, §4, §6, §7; part 2 lead detail §7). Every rule the screens
// show is decided here from the session (decision 010).

export const ALREADY_CLAIMED = "This lead is already claimed by another user.";
const LEAD_NOT_FOUND = "Lead not found";

type DealershipParams = { Params: { id: string } };
type LeadParams = { Params: { id: string } };

const viewerOf = (access: DealershipAccess): Viewer => ({ userId: access.user.id, dealershipId: access.dealershipId, role: access.role });

/** A lead the caller may see, or 404 (another dealership, missing, or another rep's client for a sales user). */
async function visibleLead(request: FastifyRequest, id: string): Promise<{ access: DealershipAccess; row: LeadRow }> {
  const row = await leadById(request.server.db, id);
  const access = await requireObjectAccess(request, row, LEAD_NOT_FOUND);
  if (!row || !canSeeLead(viewerOf(access), row)) throw notFound(LEAD_NOT_FOUND);
  return { access, row };
}

async function answerLead(app: FastifyInstance, id: string): Promise<Lead> {
  const lead = await leadWithClaimer(app.db, id);
  if (!lead) throw notFound(LEAD_NOT_FOUND);
  return lead;
}

export async function leadRoutes(app: FastifyInstance): Promise<void> {
  // Lists with search, status filter and keyset pages; Link rel="next" carries the cursor (decision 012).
  app.get<DealershipParams & { Querystring: Record<string, string> }>("/api/dealerships/:id/leads", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = parseInput(leadListQuerySchema, request.query);
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    if (cursor === null) throw badRequest("cursor: is not a valid page cursor", { cursor: "is not a valid page cursor" });
    const page = await listLeads(app.db, viewerOf(access), {
      type: query.type,
      q: query.q || undefined,
      status: query.status,
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
    let claimer: string | null;
    if (can(access.role, "assignLeads")) {
      // Part 1 §6: front desk and management assign to a member of this dealership, or leave the lead unassigned.
      if (assignee && !(await isActiveMember(app.db, access.dealershipId, assignee))) {
        throw badRequest("assignedTo: Choose an active member of this dealership", {
          assignedTo: "Choose an active member of this dealership",
        });
      }
      claimer = assignee;
    } else {
      // A sales user's lead is theirs at once; they cannot hand it to someone else.
      if (assignee && assignee !== access.user.id) throw forbidden("Only front desk and management can assign leads");
      claimer = access.user.id;
    }
    const row = await createLead(
      app.db,
      access.dealershipId,
      { firstName: input.firstName, lastName: input.lastName, email: input.email || null, phone: input.phone || null, description: input.description || null },
      claimer,
    );
    await emailLeadCreated(app, row, access.user.id);
    if (claimer && claimer !== access.user.id) await emailLeadClaimed(app, row, await userName(app.db, claimer), access.user.id);
    return reply.code(201).send(await answerLead(app, row.id));
  });

  app.get<LeadParams>("/api/leads/:id", async (request) => {
    const { row } = await visibleLead(request, request.params.id);
    return answerLead(app, row.id);
  });

  app.patch<LeadParams>("/api/leads/:id", async (request) => {
    const { access, row } = await visibleLead(request, request.params.id);
    const input = parseInput(updateLeadSchema, request.body);
    const updated = await updateLead(app.db, row.id, input, access.user.id);
    if (!updated) throw notFound(LEAD_NOT_FOUND);
    if (updated.status !== row.status) await emailLeadStatusChanged(app, updated, access.user.id);
    return answerLead(app, row.id);
  });

  app.patch<LeadParams>("/api/leads/:id/status", async (request) => {
    const { access, row } = await visibleLead(request, request.params.id);
    const { status } = parseInput(leadStatusChangeSchema, request.body);
    const updated = await updateLead(app.db, row.id, { status }, access.user.id);
    if (!updated) throw notFound(LEAD_NOT_FOUND);
    if (updated.status !== row.status) await emailLeadStatusChanged(app, updated, access.user.id);
    return answerLead(app, row.id);
  });

  // One conditional UPDATE decides the winner; everyone else gets 409 (part 1 §8 "already claimed").
  app.post<LeadParams>("/api/leads/:id/claim", async (request, reply) => {
    const row = await leadById(app.db, request.params.id);
    const access = await requireObjectAccess(request, row, LEAD_NOT_FOUND);
    const claimed = await claimLead(app.db, request.params.id, access.user.id);
    if (!claimed) return reply.code(409).send({ message: ALREADY_CLAIMED });
    const lead = await answerLead(app, claimed.id);
    await emailLeadClaimed(app, claimed, lead.claimedByName ?? access.user.email, access.user.id);
    return lead;
  });

  app.delete<LeadParams>("/api/leads/:id", async (request) => {
    const { row } = await visibleLead(request, request.params.id);
    if (!(await deleteLead(app.db, row.id))) throw notFound(LEAD_NOT_FOUND);
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
    for (const rep of reps) {
      app.mailer.sendInBackground(
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
    await notifyByEmail(app, {
      dealershipId: access.dealershipId,
      trigger: "unattended_leads_reminder",
      subject: notice.subject,
      text: notice.text,
      html: notice.html,
      excludeUserIds: [access.user.id, ...reps.map((r) => r.id)],
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
