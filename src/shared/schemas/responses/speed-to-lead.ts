import type { z } from "zod";
import { firstResponseSchema, speedToLeadSchema, speedToLeadSettingsResponseSchema } from "../speed-to-lead";

// What the speed-to-lead routes answer (src/server/leads/speed-to-lead-routes.ts; decision 053).

export const responses = {
  "GET /api/dealerships/:id/speed-to-lead": speedToLeadSchema,
  "PUT /api/dealerships/:id/speed-to-lead/settings": speedToLeadSettingsResponseSchema,
  "POST /api/leads/:id/call": firstResponseSchema,
} as const satisfies Record<string, z.ZodType>;
