import { z } from "zod";
import { mergeResultSchema, possibleDuplicateSchema } from "../lead-duplicates";
import { messageSchema } from "./fields";

// What the duplicate and merge routes answer (src/server/leads/duplicate-routes.ts; decision 053).

export const responses = {
  "GET /api/leads/:id/duplicates": z.array(possibleDuplicateSchema),
  "POST /api/leads/:id/merge": mergeResultSchema,
  "DELETE /api/leads/:id/duplicates/:otherId": messageSchema,
} as const satisfies Record<string, z.ZodType>;
