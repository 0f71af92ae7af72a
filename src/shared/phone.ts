import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from "libphonenumber-js/min";
import { northAmericanPhoneText } from "./phone-text";

export { phoneHref } from "./phone-text";

// Phone numbers (issue 29, decision 205): read with libphonenumber-js (its smallest metadata, which still checks each
// country's lengths and leading digits), stored in E.164 with any extension after it as RFC 3966 writes one
// ("+19055551212;ext=123"), and shown in one of two forms: a number of the dealership's own numbering plan the way the
// app has always written one ("905-555-1212 x123"), any other in international format ("+44 20 7946 0958").
// Every write path reads a phone through storedPhone (the shared zod field leadPhoneField), every screen, e-mail, CSV
// export and calendar feed shows one through formatPhone.

/**
 * The region a number typed without a country code belongs to. Dealerships have no country of their own: the spec is
 * North American and the demo dealerships are Canadian, and Canada and the United States share one numbering plan
 * (+1), so reading with CA or US gives the same numbers (decision 205).
 */
export const HOME_REGION: CountryCode = "CA";
/** A North American number has all its ten digits: a 7-digit local number cannot be written in E.164. */
const NANP_DIGITS = 10;

function read(text: string, region: CountryCode): PhoneNumber | undefined {
  try {
    // extract: false, so "call me at 514-555-0199" or "514-555-0199 x12 ext 3" is not a phone number.
    return parsePhoneNumberFromString(text.trim(), { defaultCountry: region, extract: false });
  } catch {
    return undefined;
  }
}

/** The number belongs to the region's numbering plan (+1 for Canada: the United States and the Caribbean too). */
function ofHomePlan(number: PhoneNumber, region: CountryCode): boolean {
  return number.countryCallingCode === getCountryCallingCode(region);
}

/**
 * A typed number as it is stored: E.164, then ";ext=123" when it has an extension; null when it is not a phone number.
 * A number of the home plan needs all its digits (its fictional 555 numbers are accepted, as the spec's own example
 * 555-123-4567 is); any other needs a length its country uses.
 */
export function storedPhone(typed: string, region: CountryCode = HOME_REGION): string | null {
  const number = read(typed, region);
  if (!number || !number.isPossible()) return null;
  if (ofHomePlan(number, region) && number.countryCallingCode === "1" && number.nationalNumber.length !== NANP_DIGITS) return null;
  return number.ext ? `${number.number};ext=${number.ext}` : number.number;
}

/**
 * A stored number as people read it: "514-555-0199" (home plan), "905-555-1212 x123", "+44 20 7946 0958". A value
 * that is not a phone number (an old row the migration could not read) is shown as it was typed.
 */
export function formatPhone(stored: string | null | undefined, region: CountryCode = HOME_REGION): string {
  const text = (stored ?? "").trim();
  const e164 = storedPhone(text, region);
  const number = e164 === null ? undefined : read(e164, region);
  if (!number) return text;
  const extension = number.ext ? ` x${number.ext}` : "";
  if (ofHomePlan(number, region)) return northAmericanPhoneText(e164) ?? `${number.formatNational()}${extension}`;
  return `${read(number.number, region)?.formatInternational() ?? number.number}${extension}`;
}

/**
 * The digits a search means when it is typed as a phone number ("(514) 555-0199", "+1 514 555 0199", "555 0199"),
 * or null when it holds anything else (a name, an e-mail) or fewer than 3 digits. Stored numbers are E.164, so the
 * digits are looked for among the stored digits: "+1 514" and "514" both find +15145550199.
 */
export function phoneSearchDigits(query: string): string | null {
  const text = query.trim();
  if (!/^\+?[\d\s().\-/]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, "");
  return digits.length >= 3 ? digits : null;
}

/**
 * The key the duplicate check compares (issue 14, decision 137): the number's digits without its extension and
 * without a leading country code 1 before ten digits; null when there are none. The same rule as the
 * leads.phone_normalized column that PostgreSQL keeps (src/server/db/schema/leads.ts).
 */
export function normalizePhone(phone: string | null | undefined): string | null {
  const digits = (phone ?? "").split(";")[0]!.replace(/\D/g, "");
  const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return national === "" ? null : national;
}

/** An e-mail address as the duplicate check compares it: trimmed and lower-case; null when empty. */
export function normalizeEmail(email: string | null | undefined): string | null {
  const value = (email ?? "").trim().toLowerCase();
  return value === "" ? null : value;
}
