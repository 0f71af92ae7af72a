import { z } from "zod";
import { leadSchema, leadStatusSchema } from "./lead";
import { entityId, timestamp } from "./responses/fields";

// Recently deleted leads (issue 30, decision 214): management's list of leads deleted or merged away in the last 30
// days, each with what a restore brings back, and the answer of a restore.

const person = z.strictObject({ id: entityId, firstName: z.string(), lastName: z.string() });

/** What a restore puts back with the lead: appointments, test drives, tasks, notes, calls and timeline entries. */
export const restoredCountsSchema = z.strictObject({
  appointments: z.number().int().nonnegative(),
  testDrives: z.number().int().nonnegative(),
  tasks: z.number().int().nonnegative(),
  notes: z.number().int().nonnegative(),
  calls: z.number().int().nonnegative(),
  emails: z.number().int().nonnegative(),
  entries: z.number().int().nonnegative(),
});
export type RestoredCounts = z.infer<typeof restoredCountsSchema>;

export const deletedLeadSchema = z.strictObject({
  id: entityId,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: leadStatusSchema,
  deletedAt: timestamp,
  /** When it can no longer be restored (deletedAt + 30 days). */
  restorableUntil: timestamp,
  /** Who deleted or merged it; null when that account is gone. */
  deletedBy: person.nullable(),
  /** Merged away into this lead (null: deleted). */
  mergedInto: person.nullable(),
});
export type DeletedLead = z.infer<typeof deletedLeadSchema>;

export const restoreResultSchema = z.strictObject({
  message: z.string().min(1),
  lead: leadSchema,
  restored: restoredCountsSchema,
});
export type RestoreResult = z.infer<typeof restoreResultSchema>;
