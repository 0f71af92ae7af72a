import { z } from "zod";

// Follow-up tasks (issue 27): what a rep must do next on a lead, by when, and who. Shared by the routes and the forms.

export const TASK_TYPES = ["call", "email", "visit", "other"] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const TASK_TYPE_LABELS: Record<TaskType, string> = { call: "Call", email: "E-mail", visit: "Visit", other: "Other" };

export const TASK_STATUSES = ["open", "done", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A note is a line or a short paragraph, not a document. */
export const TASK_NOTE_MAX = 2000;

/**
 * An ISO 8601 date and time. With an offset or Z it is that instant; without one ("2026-11-28T10:00") it is the
 * dealership's wall-clock time, which the server places in the dealership's time zone.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;

export const taskDueAt = z
  .string()
  .trim()
  .refine((value) => {
    const m = ISO_DATE_TIME.exec(value);
    if (!m) return false;
    const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
    // A real calendar date and clock time, within the years the app works with (decision 037).
    const probe = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s || 0));
    return y! >= 2000 && y! <= 2100 && probe.getUTCMonth() === mo! - 1 && probe.getUTCDate() === d! && h! < 24 && mi! < 60 && (s || 0) < 60;
  }, "must be an ISO 8601 date and time, e.g. 2026-11-28T10:00");

const note = z.string().trim().max(TASK_NOTE_MAX, `must be at most ${TASK_NOTE_MAX} characters`);
const assigneeId = z.string().min(1, "must be a user id").max(64, "must be a user id");

export const taskInputSchema = z.strictObject({
  type: z.enum(TASK_TYPES, "must be one of call, email, visit, other"),
  dueAt: taskDueAt,
  assigneeId: assigneeId.optional(),
  note: note.nullish(),
});
export type TaskInput = z.infer<typeof taskInputSchema>;

export const taskUpdateSchema = z
  .strictObject({
    status: z.enum(["done", "cancelled"], "must be done or cancelled").optional(),
    dueAt: taskDueAt.optional(),
    assigneeId: assigneeId.optional(),
    note: note.nullable().optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), { message: "nothing to change", path: ["body"] });
export type TaskUpdate = z.infer<typeof taskUpdateSchema>;

export const TASK_SCOPES = ["mine", "all"] as const;
export const TASK_DUE_FILTERS = ["overdue", "today", "upcoming"] as const;
export type TaskDueFilter = (typeof TASK_DUE_FILTERS)[number];

export const taskListQuerySchema = z.strictObject({
  scope: z.enum(TASK_SCOPES, "must be mine or all").default("mine"),
  due: z.enum(TASK_DUE_FILTERS, "must be overdue, today or upcoming").optional(),
  status: z.enum(["open", "done"], "must be open or done").default("open"),
});

export const agendaQuerySchema = z.strictObject({
  date: z.iso.date("must be YYYY-MM-DD").refine((d) => d >= "2000-01-01" && d <= "2100-12-31", "must be between 2000 and 2100").optional(),
  scope: z.enum(TASK_SCOPES, "must be mine or all").default("mine"),
});
