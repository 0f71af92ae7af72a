import { z } from "zod";
import { LEAD_SOURCES } from "../../lead-source";
import { errorAnswerSchema } from "./errors";
import { entityId, messageSchema, timestamp } from "./fields";

// What the lead intake and CSV routes answer (src/server/intake/routes.ts, src/server/leads/csv-routes.ts; decision 053).

export const intakeCredentialSchema = z.strictObject({
  id: entityId,
  name: z.string(),
  /** The intake e-mail address (leads+<mailbox>@INTAKE_DOMAIN), or null while revoked. */
  mailAddress: z.string().nullable(),
  createdAt: timestamp,
  rotatedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
});
export type IntakeCredential = z.infer<typeof intakeCredentialSchema>;

/** Creation and rotation: the secret, shown this once (only its hash is kept; decision 131). */
export const intakeCredentialWithSecretSchema = z.strictObject({
  credential: intakeCredentialSchema,
  secret: z.string(),
});
export type IntakeCredentialWithSecret = z.infer<typeof intakeCredentialWithSecretSchema>;

export const intakeDocumentSchema = z.strictObject({
  id: entityId,
  receivedAt: timestamp,
  channel: z.enum(["http", "email"]),
  outcome: z.enum(["accepted", "rejected"]),
  leadsCreated: z.number().int().nonnegative(),
  error: z.string().nullable(),
  sizeBytes: z.number().int().nonnegative(),
  credentialName: z.string().nullable(),
});
export type IntakeDocument = z.infer<typeof intakeDocumentSchema>;

export const adfReceiptSchema = z.strictObject({
  message: z.string(),
  documentId: entityId,
  leadIds: z.array(entityId),
});
export type AdfReceipt = z.infer<typeof adfReceiptSchema>;

/** A refused ADF document (400) names the stored document on the dealership's audit list; other refusals do not. */
export const adfRefusalSchema = errorAnswerSchema.extend({ documentId: entityId.optional() });

/** One row of an import file that cannot become a lead: its line in the file and what is wrong, per field. */
export const importRowErrorSchema = z.strictObject({
  line: z.number().int().positive(),
  fields: z.record(z.string(), z.string()),
});

export const importLeadFieldSchema = z.enum(["firstName", "lastName", "email", "phone", "description", "source"]);
export type ImportLeadField = z.infer<typeof importLeadFieldSchema>;

/** POST .../leads/import/preview: the file's columns, the mapping guessed from them, sample rows, errors. */
export const importPreviewSchema = z.strictObject({
  columns: z.array(z.string()),
  mapping: z.record(z.string(), importLeadFieldSchema.nullable()),
  rows: z.number().int().nonnegative(),
  sample: z.array(
    z.strictObject({
      line: z.number().int().positive(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      description: z.string().nullable(),
      source: z.enum(LEAD_SOURCES),
    }),
  ),
  errors: z.array(importRowErrorSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** An import with bad rows (400) lists them; nothing was imported. */
export const importRefusalSchema = errorAnswerSchema.extend({ errors: z.array(importRowErrorSchema).optional() });

export const importResultSchema = z.strictObject({ message: z.string(), imported: z.number().int().nonnegative() });
export type ImportResult = z.infer<typeof importResultSchema>;

export const responses = {
  "GET /api/dealerships/:id/intake/credentials": z.array(intakeCredentialSchema),
  "POST /api/dealerships/:id/intake/credentials": intakeCredentialWithSecretSchema,
  "POST /api/dealerships/:id/intake/credentials/:credentialId/rotate": intakeCredentialWithSecretSchema,
  "DELETE /api/dealerships/:id/intake/credentials/:credentialId": messageSchema,
  "GET /api/dealerships/:id/intake/documents": z.array(intakeDocumentSchema),
  "POST /api/intake/adf": adfReceiptSchema,
  "POST /api/dealerships/:id/leads/import/preview": importPreviewSchema,
  "POST /api/dealerships/:id/leads/import": importResultSchema,
  // GET /api/dealerships/:id/leads/export answers text/csv (tests/api/responses.test.ts NOT_JSON).
} as const satisfies Record<string, z.ZodType>;
