import { z } from "zod";
import { deletedLeadSchema, restoreResultSchema } from "../deleted-leads";

// What the Recently deleted routes answer (src/server/leads/recently-deleted-routes.ts; decision 053).

export const responses = {
  "GET /api/dealerships/:id/deleted-leads": z.array(deletedLeadSchema),
  "POST /api/leads/:id/restore": restoreResultSchema,
} as const satisfies Record<string, z.ZodType>;
