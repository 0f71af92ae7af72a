import type { DomainEvent } from "../../shared/events";
import type { FollowUpRules, FollowUpRulesUpdate } from "../../shared/schemas/follow-up-rules";
import type { Task } from "../../shared/schemas/responses/tasks";
import type { TaskType } from "../../shared/schemas/task";
import { actorIdOf, type Viewer, writeInDealership } from "../auth/tenancy";
import type { Db } from "../db/client";
import { publish } from "../events/outbox";
import { badRequest, conflict, notFound } from "../http/errors";
import { lockVisibleLead } from "../leads/queries";
import { saveFollowUpRules } from "./follow-ups";
import { insertTask, lockVisibleTask, mayBeAssigned, taskSnapshot, toTask, updateOpenTask, type TaskChanges, type TaskRow } from "./queries";

// The tasks' changes made by people (issue 25; issue 27, decisions 195-197, 200): each is the scoped write and its one
// domain event in one transaction that holds the dealership (decision 176). A change that changes nothing publishes
// nothing. The follow-up rules' tasks and the reminders are the system's (follow-ups.ts, reminders.ts).

export const TASK_NOT_FOUND = "Task not found";
const NOT_ASSIGNABLE = "must be a member of this dealership who may open the lead";

const notAssignable = () => badRequest(`assigneeId: ${NOT_ASSIGNABLE}`, { assigneeId: NOT_ASSIGNABLE });

/**
 * Creates a task on a lead (task.created). The lead stays locked until the task commits, so a claim by a colleague or
 * a deletion waits and sees the task; the assignee must be a member who may open the lead, else the 400 naming it.
 */
export function createTask(
  db: Db,
  viewer: Viewer,
  leadId: string,
  input: { type: TaskType; dueAt: Date; assigneeId: string; note: string | null },
): Promise<TaskRow> {
  return writeInDealership(db, viewer, async (tx) => {
    if (!(await lockVisibleLead(tx, viewer, leadId))) throw notFound("Lead not found");
    if (!(await mayBeAssigned(tx, viewer.dealershipId, leadId, input.assigneeId))) throw notAssignable();
    const task = await insertTask(tx, viewer, { leadId, ...input });
    await publish(tx, { type: "task.created", dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer), payload: { task: taskSnapshot(task) } });
    return task;
  });
}

/**
 * Closes, reschedules, reassigns or re-notes an open task (one event, eventOf); 404 when the viewer does not see it,
 * 409 when it is closed. The task is locked first, so what changes is decided against the row the UPDATE writes.
 */
export function changeTask(db: Db, viewer: Viewer, taskId: string, change: TaskChanges): Promise<Task> {
  return writeInDealership(db, viewer, async (tx) => {
    const before = await lockVisibleTask(tx, viewer, taskId);
    if (!before) throw notFound(TASK_NOT_FOUND);
    if (before.status !== "open") throw conflict(`This task is already ${before.status}`);
    const movesDue = change.dueAt !== undefined && change.dueAt.getTime() !== new Date(before.due_at).getTime();
    const reassigns = change.assigneeId !== undefined && change.assigneeId !== before.assignee_id;
    const notes = change.note !== undefined && change.note !== before.note;
    if (reassigns && !(await mayBeAssigned(tx, viewer.dealershipId, before.lead_id, change.assigneeId!))) throw notAssignable();
    if (!change.status && !movesDue && !reassigns && !notes) return toTask(before);
    const after = await updateOpenTask(tx, viewer, before.id, {
      ...(change.status ? { status: change.status } : {}),
      ...(movesDue ? { dueAt: change.dueAt } : {}),
      ...(reassigns ? { assigneeId: change.assigneeId } : {}),
      ...(notes ? { note: change.note } : {}),
    });
    if (!after) throw new Error("a task locked open in this transaction was not updated");
    await publish(tx, eventOf(viewer, before, after, { status: change.status, movesDue, reassigns }));
    return toTask(after);
  });
}

/** The one event of a change (decision 196): closing wins, then a new assignee, then a new due time, then the note. */
function eventOf(viewer: Viewer, before: TaskRow, after: TaskRow, what: { status?: "done" | "cancelled"; movesDue: boolean; reassigns: boolean }): DomainEvent {
  const task = taskSnapshot(after);
  const base = { dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer) };
  if (what.status === "done") return { ...base, type: "task.completed", payload: { task } };
  if (what.status === "cancelled") return { ...base, type: "task.cancelled", payload: { task } };
  const previousDueAt = new Date(before.due_at).toISOString();
  if (what.reassigns) return { ...base, type: "task.reassigned", payload: { task, previousAssigneeId: before.assignee_id, previousDueAt } };
  if (what.movesDue) return { ...base, type: "task.rescheduled", payload: { task, previousDueAt } };
  return { ...base, type: "task.note_changed", payload: { task } };
}

/** Saves management's change of the follow-up rules (follow_up_rules.updated when they differ) and answers the rules. */
export function changeFollowUpRules(db: Db, viewer: Viewer, change: FollowUpRulesUpdate): Promise<FollowUpRules> {
  return writeInDealership(db, viewer, async (tx) => {
    const { before, after } = await saveFollowUpRules(tx, viewer.dealershipId, viewer.userId, change);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await publish(tx, { type: "follow_up_rules.updated", dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer), payload: { rules: after, previous: before } });
    }
    return after;
  });
}
