import { z } from "zod";

// What every API route answers when it refuses (ARCHITECTURE "A request, end to end"; decision 190): a sentence, and
// for a 400 the failing fields by name. The same shape for a schema's refusal on the route and for an HttpError
// thrown by the handler, so the client reads one shape.

export const errorAnswerSchema = z.strictObject({
  message: z.string().min(1),
  /** Each failing field by its path ("email", "items.0.name", "body" for the body as a whole), with why. */
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorAnswer = z.infer<typeof errorAnswerSchema>;
