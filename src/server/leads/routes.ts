import type { FastifyInstance, FastifyRequest } from "fastify";
import { can } from "../../shared/permissions";
import { fullName } from "../../shared/format";
import { createLeadSchema, leadListQuerySchema, leadStatusChangeSchema, updateLeadSchema, type Lead } from "../../shared/schemas/lead";
import { leadRefusalSchema, responses } from "../../shared/schemas/responses/leads";
import { requireUser, signedInFirst } from "../auth/current-user";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, checkedFirst, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { forbidden, notFound } from "../http/errors";
import { cursorQuery } from "../http/page-cursor";
import {
  claimLead,
  dealershipMetrics,
  encodeCursor,
  findVisibleLead,
  leadCursorOf,
  listLeads,
  type LeadChanges,
} from "./queries";
import { changeLead, createLeadWithAssignee, removeLead } from "./commands";
import { keptLeadOf } from "./merge";
import { LEAD_NOT_FOUND, visibleLead } from "./visible-lead";
import { sendReminder } from "./send-reminder";

// Leads and the dashboard metrics (spec part 1 §2.3-2.6, §4, §6, §7; part 2 lead detail §7). Every rule the screens
// show is decided here from the session (decision 010); every write carries its condition in its own WHERE clause and
// publishes its domain event in the same transaction (decisions 050, 051).

export const ALREADY_CLAIMED = "This lead is already claimed by another user.";

/** The display name of the signed-in user, as a claim records it. */
function nameOf(user: { firstName: string | null; lastName: string | null; email: string }): string {
  return fullName({ firstName: user.firstName ?? "", lastName: user.lastName ?? "" }).trim() || user.email;
}

export async function leadRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const memberFirst = dealershipFirst();
  // The next page's Link repeats the query as it was sent, so the list keeps it before the schema parses it.
  const listFirst = checkedFirst(async (request) => {
    await requireDealershipAccess(request, (request.params as { id: string }).id);
    return request.query as Record<string, unknown>;
  });
  // Lists with search, status filter and keyset pages; Link rel="next" carries the cursor (decision 012).
  app.get("/api/dealerships/:id/leads", { schema: { params: dealershipPath, querystring: leadListQuerySchema, response: answers(responses["GET /api/dealerships/:id/leads"]) }, preValidation: listFirst.preValidation }, async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = request.query;
    const cursor = cursorQuery(query.cursor, 2, leadCursorOf);
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
      for (const [key, value] of Object.entries(listFirst.answer(request))) if (key !== "cursor" && typeof value === "string") params.set(key, value);
      params.set("cursor", encodeCursor(page.next));
      reply.header("link", `</api/dealerships/${encodeURIComponent(access.dealershipId)}/leads?${params.toString()}>; rel="next"`);
    }
    return page.leads;
  });

  app.post("/api/dealerships/:id/leads", { schema: { params: dealershipPath, body: createLeadSchema, response: answers(responses["POST /api/dealerships/:id/leads"]) }, preValidation: memberFirst }, async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const input = request.body;
    const assignee = input.assignedTo || null;
    const assigns = can(access.role, "assignLeads");
    // A sales user's lead is theirs at once; they cannot hand it to someone else.
    if (!assigns && assignee && assignee !== access.userId) throw forbidden("Only front desk and management can assign leads");
    const claimer = assigns ? assignee : access.userId;
    const lead = await createLeadWithAssignee(app.db, access, input, { assigns, assignee, claimer });
    return reply.code(201).send(lead);
  });

  app.get("/api/leads/:id", { schema: { params: pathOf("id"), response: answers(responses["GET /api/leads/:id"], leadRefusalSchema) } }, async (request, reply) => {
    const user = await requireUser(request);
    const found = await findVisibleLead(app.db, user.id, request.params.id);
    if (found) return found.lead;
    // A bookmark of a merged-away lead leads to the kept one, for a viewer who may open it (decision 188).
    const keptId = await keptLeadOf(app.db, user.id, request.params.id);
    const kept = keptId ? await findVisibleLead(app.db, user.id, keptId) : undefined;
    if (!kept) throw notFound(LEAD_NOT_FOUND);
    const { id, firstName, lastName } = kept.lead;
    return reply.code(404).send({ message: `This lead was merged into ${fullName(kept.lead)}`, mergedInto: { id, firstName, lastName } });
  });

  async function editLead(request: FastifyRequest, leadId: string, changes: LeadChanges): Promise<Lead> {
    const { viewer } = await visibleLead(request, leadId);
    const lead = await changeLead(app.db, viewer, leadId, changes);
    if (!lead) throw notFound(LEAD_NOT_FOUND);
    return lead;
  }

  app.patch("/api/leads/:id", { schema: { params: pathOf("id"), body: updateLeadSchema, response: answers(responses["PATCH /api/leads/:id"]) }, preValidation: signedInFirst }, async (request) => {
    await requireUser(request);
    return editLead(request, request.params.id, request.body);
  });

  app.patch("/api/leads/:id/status", { schema: { params: pathOf("id"), body: leadStatusChangeSchema, response: answers(responses["PATCH /api/leads/:id/status"]) }, preValidation: signedInFirst }, async (request) => {
    await requireUser(request);
    const { status, lostReason } = request.body;
    return editLead(request, request.params.id, { status, lostReason });
  });

  // One conditional UPDATE decides the winner; everyone else gets 409 (part 1 §8 "already claimed").
  app.post("/api/leads/:id/claim", { schema: { params: pathOf("id"), response: answers(responses["POST /api/leads/:id/claim"]) } }, async (request, reply) => {
    const user = await requireUser(request);
    const outcome = await claimLead(app.db, { id: user.id, name: nameOf(user) }, request.params.id);
    if (outcome.claimed) {
      app.events.committed(); // the claim's event is in the outbox: wake the dispatchers and listeners (decision 120)
      return outcome.claimed;
    }
    if (!outcome.found) throw notFound(LEAD_NOT_FOUND);
    return reply.code(409).send({ message: ALREADY_CLAIMED });
  });

  app.delete("/api/leads/:id", { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/leads/:id"]) } }, async (request) => {
    const { viewer } = await visibleLead(request, request.params.id);
    const deleted = await removeLead(app.db, viewer, request.params.id);
    if (!deleted) throw notFound(LEAD_NOT_FOUND);
    return { message: "Lead deleted successfully" };
  });

  // Send Reminder (part 1 §2.4, §6): front desk and management mail every active sales rep the leads still new.
  app.post("/api/dealerships/:id/leads/remind-unattended", { schema: { params: dealershipPath, response: answers(responses["POST /api/dealerships/:id/leads/remind-unattended"]) } }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "sendReminders", "Only front desk and management can send reminders");
    const outcome = await sendReminder(server, access);
    if (!outcome.sent && outcome.missing === "leads") return { message: "There are no new leads waiting, so no reminder was sent." };
    if (!outcome.sent) return { message: "There are no active sales reps to remind, so no reminder was sent." };
    const repWord = outcome.reps === 1 ? "sales rep" : "sales reps";
    const leadWord = outcome.leads === 1 ? "new lead" : "new leads";
    return { message: `Reminder sent to ${outcome.reps} ${repWord} about ${outcome.leads} ${leadWord}.` };
  });

  // Dashboard cards (part 1 §2.3, §3): today on the dealership's clock, change from yesterday (decision 014).
  app.get("/api/dealerships/:id/metrics", { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/metrics"]) } }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    return dealershipMetrics(app.db, access.dealershipId, new Date());
  });
}
