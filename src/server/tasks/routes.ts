import type { FastifyInstance, FastifyRequest } from "fastify";
import { responses } from "../../shared/schemas/responses/tasks";
import { agendaQuerySchema, taskInputSchema, taskListQuerySchema, taskUpdateSchema } from "../../shared/schemas/task";
import { localToday } from "../../shared/dealership-clock";
import { seesEveryLead } from "../access/leads";
import { dealershipTimezone } from "../dealerships/timezone";
import { requireUser } from "../auth/current-user";
import { requireDealershipAccess } from "../auth/tenancy";
import { answers, checkedFirst, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { forbidden, notFound } from "../http/errors";
import { visibleLead } from "../leads/visible-lead";
import { agendaOf } from "./agenda";
import { changeTask, createTask, TASK_NOT_FOUND } from "./commands";
import { dueInstant, findVisibleTask, listTasks, tasksOfLead, toTask } from "./queries";

// Follow-up tasks and the day's agenda (issue 27; decisions 195-197). Every change of a task publishes exactly one
// event in its transaction (commands.ts): task.created, task.completed, task.cancelled, task.reassigned,
// task.rescheduled or task.note_changed (decision 196).

const ONLY_OWN = "Only front desk and management can give a task to someone else";

export async function taskRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // Who asks, and whether they may open the lead or the task (401, 404), is answered before the body or query is
  // validated (decision 190).
  const leadFirst = checkedFirst((request) => visibleLead(request, (request.params as { id: string }).id));
  const taskFirst = checkedFirst(async (request) => {
    const user = await requireUser(request);
    const found = await findVisibleTask(app.db, user.id, (request.params as { id: string }).id);
    if (!found) throw notFound(TASK_NOT_FOUND);
    return found;
  });
  const memberFirst = async (request: FastifyRequest) => void (await requireDealershipAccess(request, (request.params as { id: string }).id));

  app.post("/api/leads/:id/tasks", { schema: { params: pathOf("id"), body: taskInputSchema, response: answers(responses["POST /api/leads/:id/tasks"]) }, preValidation: leadFirst.preValidation }, async (request, reply) => {
    const { lead, viewer } = leadFirst.answer(request);
    const input = request.body;
    // The lead's rep, or else whoever writes it (part of the contract).
    const assigneeId = input.assigneeId ?? lead.claimedBy ?? viewer.userId;
    if (assigneeId !== viewer.userId && !seesEveryLead(viewer.role)) throw forbidden(ONLY_OWN);
    const timezone = await dealershipTimezone(app.db, viewer.dealershipId);
    const row = await createTask(app.db, viewer, lead.id, { type: input.type, dueAt: dueInstant(input.dueAt, timezone), assigneeId, note: input.note || null });
    return reply.code(201).send(toTask(row));
  });

  // A lead's tasks, open first by due time, for its detail page: what the viewer may see of them.
  app.get("/api/leads/:id/tasks", { schema: { params: pathOf("id"), response: answers(responses["GET /api/leads/:id/tasks"]) } }, async (request) => {
    const { lead, viewer } = await visibleLead(request, request.params.id);
    return tasksOfLead(app.db, viewer, lead.id);
  });

  app.patch("/api/tasks/:id", { schema: { params: pathOf("id"), body: taskUpdateSchema, response: answers(responses["PATCH /api/tasks/:id"]) }, preValidation: taskFirst.preValidation }, async (request) => {
    const { viewer } = taskFirst.answer(request);
    const change = request.body;
    if (change.assigneeId !== undefined && change.assigneeId !== viewer.userId && !seesEveryLead(viewer.role)) throw forbidden(ONLY_OWN);
    const timezone = await dealershipTimezone(app.db, viewer.dealershipId);
    return changeTask(app.db, viewer, request.params.id, {
      ...(change.status ? { status: change.status } : {}),
      ...(change.dueAt !== undefined ? { dueAt: dueInstant(change.dueAt, timezone) } : {}),
      ...(change.assigneeId !== undefined ? { assigneeId: change.assigneeId } : {}),
      // An emptied note is no note.
      ...(change.note !== undefined ? { note: change.note || null } : {}),
    });
  });

  app.get("/api/dealerships/:id/tasks", { schema: { params: dealershipPath, querystring: taskListQuerySchema, response: answers(responses["GET /api/dealerships/:id/tasks"]) }, preValidation: memberFirst }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const filter = request.query;
    if (filter.scope === "all" && !seesEveryLead(access.role)) throw forbidden("Only front desk and management can list everyone's tasks");
    const timezone = await dealershipTimezone(app.db, access.dealershipId);
    return listTasks(app.db, access, filter, { now: new Date(), timezone });
  });

  app.get("/api/dealerships/:id/agenda", { schema: { params: dealershipPath, querystring: agendaQuerySchema, response: answers(responses["GET /api/dealerships/:id/agenda"]) }, preValidation: memberFirst }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = request.query;
    if (query.scope === "all" && !seesEveryLead(access.role)) throw forbidden("Only front desk and management can see everyone's agenda");
    const timezone = await dealershipTimezone(app.db, access.dealershipId);
    const now = new Date();
    return agendaOf(app.db, access, { date: query.date ?? localToday(timezone, now), scope: query.scope }, { now, timezone });
  });
}
