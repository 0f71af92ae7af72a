import { z } from "zod";
import { activityEntrySchema, CALL_OUTCOMES, noteSchema } from "../../activity";

// What the lead's timeline, notes and calls routes answer (issue 26; src/server/leads/timeline-routes.ts).

export const callSchema = z.strictObject({
  id: z.string(),
  leadId: z.string(),
  outcome: z.enum(CALL_OUTCOMES),
  notes: z.string().nullable(),
  createdAt: z.string(),
});
export type Call = z.infer<typeof callSchema>;

export const responses = {
  "GET /api/leads/:id/activity": z.array(activityEntrySchema),
  "POST /api/leads/:id/notes": noteSchema,
  "PATCH /api/notes/:id": noteSchema,
  "DELETE /api/notes/:id": z.strictObject({ id: z.string() }),
  "POST /api/leads/:id/calls": callSchema,
};
