import { z } from "zod";
import { followUpRulesSchema } from "../follow-up-rules";
import { TASK_STATUSES, TASK_TYPES } from "../task";
import { calendarDate, entityId, timestamp } from "./fields";

// What the task and agenda routes answer (src/server/tasks/routes.ts; issue 27, decision 195).

export const taskSchema = z.strictObject({
  id: entityId,
  leadId: entityId,
  /** The lead's customer, for a list without a second request. */
  leadName: z.string(),
  type: z.enum(TASK_TYPES),
  /** An instant, ISO 8601 in UTC. */
  dueAt: timestamp,
  /** Null when the assignee's account was deleted. */
  assignee: z.strictObject({ id: entityId, name: z.string() }).nullable(),
  status: z.enum(TASK_STATUSES),
  note: z.string().nullable(),
  completedAt: timestamp.nullable(),
  createdAt: timestamp,
});
export type Task = z.infer<typeof taskSchema>;

export const AGENDA_ITEM_TYPES = ["task", "appointment", "test_drive"] as const;

/** One line of a day's agenda: a task, an appointment or a test drive, at an instant (issue 27). */
export const agendaItemSchema = z.strictObject({
  type: z.enum(AGENDA_ITEM_TYPES),
  id: entityId,
  /** When it is due or booked, ISO 8601 in UTC. */
  at: timestamp,
  leadId: entityId.nullable(),
  title: z.string(),
  /** The customer's name. */
  name: z.string(),
  /** The item's own status (task: open/done; appointment and test drive: theirs). */
  status: z.string(),
  /** Whose it is: the task's assignee, the appointment's assigned rep, the drive's rep. */
  assignee: z.strictObject({ id: entityId, name: z.string() }).nullable(),
  /** Tasks only: call, email, visit or other; and whether it was due before the day began or before now. */
  taskType: z.enum(TASK_TYPES).nullable(),
  /** Tasks only: the note (the title is the type and the note). */
  note: z.string().nullable(),
  /** Appointments only: minutes booked (a booked test drive holds one 30-minute slot); null otherwise (decision 230). */
  duration: z.number().int().positive().nullable(),
  overdue: z.boolean(),
});
export type AgendaItem = z.infer<typeof agendaItemSchema>;

export const agendaSchema = z.strictObject({
  date: calendarDate,
  timezone: z.string(),
  items: z.array(agendaItemSchema),
});
export type Agenda = z.infer<typeof agendaSchema>;

export const responses = {
  "POST /api/leads/:id/tasks": taskSchema,
  "GET /api/leads/:id/tasks": z.array(taskSchema),
  "PATCH /api/tasks/:id": taskSchema,
  "GET /api/dealerships/:id/tasks": z.array(taskSchema),
  "GET /api/dealerships/:id/agenda": agendaSchema,
  "GET /api/dealerships/:id/follow-up-rules": followUpRulesSchema,
  "PUT /api/dealerships/:id/follow-up-rules": followUpRulesSchema,
} as const satisfies Record<string, z.ZodType>;
