import { z } from "zod";
import { distributionSettingsSchema, repAvailabilitySchema } from "../distribution";

// Answers of lead distribution, availability and lost reasons (issue 27, decisions 201, 202).

export const availabilityListSchema = z.array(repAvailabilitySchema);

export const responses = {
  "GET /api/dealerships/:id/distribution": distributionSettingsSchema,
  "PUT /api/dealerships/:id/distribution": distributionSettingsSchema,
  "GET /api/dealerships/:id/availability": availabilityListSchema,
  "PUT /api/dealerships/:id/availability": repAvailabilitySchema,
  "GET /api/dealerships/:id/lost-reasons": z.array(z.string()),
  "PUT /api/dealerships/:id/lost-reasons": z.array(z.string()),
} as const satisfies Record<string, z.ZodType>;
