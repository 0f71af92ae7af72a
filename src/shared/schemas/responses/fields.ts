import { z } from "zod";
import { DEALERSHIP_ROLES, ID_LENGTH } from "../../constants";

// Building blocks of the response schemas (decision 053). Every object is z.strictObject: a field the schema does not
// name (a password hash, a token) fails the response test instead of reaching the browser unnoticed.

/** A generated identifier (part 1 §3: 21 characters). */
export const entityId = z.string().length(ID_LENGTH);

/** An instant as JSON carries a Date: ISO 8601 in UTC ("2026-11-22T14:30:00.000Z"). */
export const timestamp = z.iso.datetime();

/** A calendar date on the dealership's clock, YYYY-MM-DD. */
export const calendarDate = z.iso.date();

/** A slot time, HH:MM. */
export const slotTime = z.string().regex(/^\d{2}:\d{2}$/);

export const dealershipRole = z.enum(DEALERSHIP_ROLES);

/** The answer of an action whose result is a sentence for a toast. */
export const messageSchema = z.strictObject({ message: z.string().min(1) });
export type MessageResponse = z.infer<typeof messageSchema>;
