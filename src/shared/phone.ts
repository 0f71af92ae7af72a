// Phone numbers compared as numbers, not as typed (issue 14): "+1 (905) 555-1212", "1-905-555-1212" and
// "905-555-1212" are one number. The same rule as the client's paste handling (components/ui/phone-input.tsx) and as
// the leads.phone_normalized column that PostgreSQL keeps (src/server/db/schema/leads.ts).

/** The bare digits of a phone number without a leading country code 1 before ten digits; null when there are none. */
export function normalizePhone(phone: string | null | undefined): string | null {
  const digits = (phone ?? "").replace(/\D/g, "");
  const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return national === "" ? null : national;
}

/** An e-mail address as the duplicate check compares it: trimmed and lower-case; null when empty. */
export function normalizeEmail(email: string | null | undefined): string | null {
  const value = (email ?? "").trim().toLowerCase();
  return value === "" ? null : value;
}
