import { z } from "zod";

// Requests of the lead intake (issue 14): credentials the admin panel's Lead intake card manages.

export const INTAKE_CREDENTIAL_NAME_MAX = 80;
/** The Lead intake card lists this many received documents, newest first. */
export const INTAKE_DOCUMENTS_SHOWN = 20;

/** POST /api/dealerships/{id}/intake/credentials: a name that says who sends with it ("Website", "AutoTrader"). */
export const createIntakeCredentialSchema = z.object({
  name: z
    .string({ message: "Name is required" })
    .trim()
    .min(1, { message: "Name is required" })
    .max(INTAKE_CREDENTIAL_NAME_MAX, { message: `Name must be at most ${INTAKE_CREDENTIAL_NAME_MAX} characters` }),
});
export type CreateIntakeCredentialInput = z.input<typeof createIntakeCredentialSchema>;

/** Query of the CSV import and its preview: the column mapping as JSON (decision 135), read by the handler. */
export const csvImportQuerySchema = z.object({ mapping: z.string().optional() });
