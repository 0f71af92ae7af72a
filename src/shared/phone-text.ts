// The part of the phone module (shared/phone.ts, decision 205) that needs no library: a first screen with a size
// budget (the dashboard's recent leads) links and shows North American numbers without downloading libphonenumber-js.

/**
 * A stored North American number (+1 and ten digits, any extension) the way the app writes one: "905-555-1212 x123";
 * null for any other value, which only shared/phone.ts formatPhone can show.
 */
export function northAmericanPhoneText(stored: string | null | undefined): string | null {
  const match = /^\+1(\d{3})(\d{3})(\d{4})(?:;ext=(\d+))?$/.exec((stored ?? "").trim());
  if (!match) return null;
  return `${match[1]}-${match[2]}-${match[3]}${match[4] ? ` x${match[4]}` : ""}`;
}

/** The tel: link of a stored number: the stored form is already RFC 3966's ("tel:+19055551212;ext=123"). */
export function phoneHref(stored: string | null | undefined): string | null {
  const text = (stored ?? "").trim();
  if (/^\+\d{4,15}(;ext=\d+)?$/.test(text)) return `tel:${text}`;
  const digits = text.replace(/[^\d+]/g, "");
  return digits ? `tel:${digits}` : null;
}
