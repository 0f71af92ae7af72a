import { z } from "zod";
import { dealershipMetricsSchema, leadSchema } from "../lead";
import { errorAnswerSchema } from "./errors";
import { entityId, messageSchema } from "./fields";

// What the leads routes answer (src/server/leads/routes.ts; decision 053). The Lead and metrics schemas live in
// lead.ts beside the requests, where the server's types have always come from.

export const leadListSchema = z.array(leadSchema);

/**
 * GET /api/leads/{id} of a lead merged into another (a bookmark, an old link): a 404 that names the kept lead, for a
 * viewer who may open it (decision 188). Anyone else gets the plain 404.
 */
export const leadRefusalSchema = errorAnswerSchema.extend({
  mergedInto: z.strictObject({ id: entityId, firstName: z.string(), lastName: z.string() }).optional(),
});
export type LeadRefusal = z.infer<typeof leadRefusalSchema>;

export const responses = {
  /** One page, newest first; the next page's URL is in the Link header (decision 012). */
  "GET /api/dealerships/:id/leads": leadListSchema,
  "POST /api/dealerships/:id/leads": leadSchema,
  "GET /api/leads/:id": leadSchema,
  "PATCH /api/leads/:id": leadSchema,
  "PATCH /api/leads/:id/status": leadSchema,
  "POST /api/leads/:id/claim": leadSchema,
  "DELETE /api/leads/:id": messageSchema,
  "POST /api/dealerships/:id/leads/remind-unattended": messageSchema,
  "GET /api/dealerships/:id/metrics": dealershipMetricsSchema,
} as const satisfies Record<string, z.ZodType>;
