import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { DomainEvent } from "../../shared/events";
import { responses, type Task } from "../../shared/schemas/responses/tasks";
import { agendaQuerySchema, taskInputSchema, taskListQuerySchema, taskUpdateSchema } from "../../shared/schemas/task";
import { localToday } from "../../shared/dealership-clock";
import { seesEveryLead } from "../access/leads";
import { dealershipTimezone } from "../dealerships/timezone";
import { requireUser } from "../auth/current-user";
import { requireDealershipAccess, writeInDealership } from "../auth/tenancy";
import { tasks } from "../db/schema/tasks";
import { publish } from "../events/outbox";
import { answers, checkedFirst, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { badRequest, conflict, forbidden, notFound } from "../http/errors";
import { lockVisibleLead } from "../leads/queries";
import { visibleLead } from "../leads/visible-lead";
import { agendaOf } from "./agenda";
import {
  dueInstant,
  findVisibleTask,
  listTasks,
  lockVisibleTask,
  mayBeAssigned,
  taskById,
  tasksOfLead,
  taskSnapshot,
  toTask,
  type TaskRow,
} from "./queries";

// Follow-up tasks and the day's agenda (issue 27; decisions 195-197). Every change of a task publishes exactly one
// event in its transaction: task.created, task.completed, task.cancelled, task.reassigned, task.rescheduled or
// task.note_changed (decision 196).

const TASK_NOT_FOUND = "Task not found";
const ONLY_OWN = "Only front desk and management can give a task to someone else";
const NOT_ASSIGNABLE = "must be a member of this dealership who may open the lead";

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
    const dueAt = dueInstant(input.dueAt, timezone);
    const row = await writeInDealership(app.db, viewer, async (tx) => {
      // Held until the task commits: a claim by a colleague or a deletion waits, and sees the task.
      if (!(await lockVisibleLead(tx, viewer, lead.id))) throw notFound("Lead not found");
      if (!(await mayBeAssigned(tx, viewer.dealershipId, lead.id, assigneeId))) {
        throw badRequest(`assigneeId: ${NOT_ASSIGNABLE}`, { assigneeId: NOT_ASSIGNABLE });
      }
      const [created] = await tx
        .insert(tasks)
        .values({
          dealershipId: viewer.dealershipId,
          leadId: lead.id,
          type: input.type,
          dueAt,
          assigneeId,
          createdBy: viewer.userId,
          note: input.note || null,
        })
        .returning({ id: tasks.id });
      const task = (await taskById(tx, created!.id))!;
      await publish(tx, { type: "task.created", dealershipId: viewer.dealershipId, actorId: viewer.userId, payload: { task: taskSnapshot(task) } });
      return task;
    });
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
    const dueAt = change.dueAt === undefined ? undefined : dueInstant(change.dueAt, timezone);
    const body: Task = await writeInDealership(app.db, viewer, async (tx) => {
      const before = await lockVisibleTask(tx, viewer, request.params.id);
      if (!before) throw notFound(TASK_NOT_FOUND);
      if (before.status !== "open") throw conflict(`This task is already ${before.status}`);
      const movesDue = dueAt !== undefined && dueAt.getTime() !== new Date(before.due_at).getTime();
      const reassigns = change.assigneeId !== undefined && change.assigneeId !== before.assignee_id;
      const notes = change.note !== undefined && (change.note || null) !== before.note;
      if (reassigns && !(await mayBeAssigned(tx, viewer.dealershipId, before.lead_id, change.assigneeId!))) {
        throw badRequest(`assigneeId: ${NOT_ASSIGNABLE}`, { assigneeId: NOT_ASSIGNABLE });
      }
      if (!change.status && !movesDue && !reassigns && !notes) return toTask(before);
      await tx
        .update(tasks)
        .set({
          ...(change.status ? { status: change.status, completedAt: new Date() } : {}),
          ...(movesDue ? { dueAt } : {}),
          ...(reassigns ? { assigneeId: change.assigneeId } : {}),
          ...(notes ? { note: change.note || null } : {}),
          // A new time or a new person: the reminder is due again.
          ...(movesDue || reassigns ? { remindedAt: null } : {}),
        })
        .where(eq(tasks.id, before.id));
      const after = (await taskById(tx, before.id))!;
      await publish(tx, eventOf(viewer.dealershipId, viewer.userId, before, after, { status: change.status, movesDue, reassigns }));
      return toTask(after);
    });
    return body;
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

/** The one event of a change (decision 196): closing wins, then a new assignee, then a new due time, then the note. */
function eventOf(
  dealershipId: string,
  actorId: string,
  before: TaskRow,
  after: TaskRow,
  what: { status?: "done" | "cancelled"; movesDue: boolean; reassigns: boolean },
): DomainEvent {
  const task = taskSnapshot(after);
  const base = { dealershipId, actorId };
  if (what.status === "done") return { ...base, type: "task.completed", payload: { task } };
  if (what.status === "cancelled") return { ...base, type: "task.cancelled", payload: { task } };
  const previousDueAt = new Date(before.due_at).toISOString();
  if (what.reassigns) return { ...base, type: "task.reassigned", payload: { task, previousAssigneeId: before.assignee_id, previousDueAt } };
  if (what.movesDue) return { ...base, type: "task.rescheduled", payload: { task, previousDueAt } };
  return { ...base, type: "task.note_changed", payload: { task } };
}
