import { z } from "zod";
import { plainText } from "../activity";

// E-mail with the customer (issue 26, decision 228): what the lead page's composer sends, what a mail of the
// conversation looks like, and management's templates with their placeholders.

export const EMAIL_SUBJECT_MAX = 200;
export const EMAIL_BODY_MAX = 20_000;
export const TEMPLATE_NAME_MAX = 100;

// eslint-disable-next-line no-control-regex -- a header line: CR or LF would start another header (injection)
const HEADER_CONTROL = /[\u0000-\u001f\u007f]/;

/** One line of text for a mail header (a subject, a name): no CR, LF, NUL or other control character. */
const oneLine = (max: number) =>
  z
    .string("must be text")
    .refine((value) => !HEADER_CONTROL.test(value), "must be one line without control characters")
    .transform((value) => value.trim())
    .pipe(z.string().min(1, "must not be empty").max(max, `must be at most ${max} characters`));

export const sendEmailSchema = z.strictObject({
  subject: oneLine(EMAIL_SUBJECT_MAX),
  body: plainText(EMAIL_BODY_MAX),
});
export type SendEmailInput = z.infer<typeof sendEmailSchema>;

/**
 * The placeholders a template may use, each filled from the lead when the composer takes the template: the customer's
 * first name, the lead's rep (or whoever writes, for a lead nobody has claimed), the dealership, the vehicle of
 * interest (the ADF "Vehicle of interest" line of the description, else the lead's latest test drive).
 */
export const TEMPLATE_PLACEHOLDERS = ["firstName", "repName", "dealershipName", "vehicle"] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];
export const PLACEHOLDER_LABELS: Record<TemplatePlaceholder, string> = {
  firstName: "customer's first name",
  repName: "rep's name",
  dealershipName: "dealership's name",
  vehicle: "vehicle of interest",
};

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders a text names that are not ours (a typo such as {{firstname}} would be sent as written). */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name));
}

/** The text with each {{placeholder}} replaced by its value; an empty value leaves nothing behind. */
export function fillPlaceholders(text: string, values: Record<TemplatePlaceholder, string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => ((TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name) ? values[name as TemplatePlaceholder] : whole));
}

const knownPlaceholders = <S extends z.ZodType<string>>(schema: S) =>
  schema.refine((value) => unknownPlaceholders(value).length === 0, {
    message: `may only use the placeholders ${TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ")}`,
  });

export const emailTemplateInputSchema = z.strictObject({
  name: oneLine(TEMPLATE_NAME_MAX),
  subject: knownPlaceholders(oneLine(EMAIL_SUBJECT_MAX)),
  body: knownPlaceholders(plainText(EMAIL_BODY_MAX)),
});
export type EmailTemplateInput = z.infer<typeof emailTemplateInputSchema>;

export const emailDraftQuerySchema = z.strictObject({ templateId: z.string().min(1, "must be a template id").max(64, "must be a template id") });
