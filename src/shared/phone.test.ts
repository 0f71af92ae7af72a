import { describe, expect, it } from "vitest";
import { formatPhone, normalizePhone, phoneHref, phoneSearchDigits, storedPhone } from "./phone";
import { northAmericanPhoneText } from "./phone-text";

// Issue 29: numbers from Canada, the United States, the United Kingdom and France, with and without an extension,
// typed the ways people type them. Each row: typed, stored (E.164 + ";ext="), shown.
const NUMBERS: [string, string, string][] = [
  ["+1 514 555 0199", "+15145550199", "514-555-0199"],
  ["1-905-555-0166", "+19055550166", "905-555-0166"],
  ["(514) 555-0199", "+15145550199", "514-555-0199"],
  ["514.555.0199", "+15145550199", "514-555-0199"],
  ["5145550199", "+15145550199", "514-555-0199"],
  ["905-555-1212 x123", "+19055551212;ext=123", "905-555-1212 x123"],
  ["905-555-1212 ext. 123", "+19055551212;ext=123", "905-555-1212 x123"],
  ["(905) 555-1212 #45", "+19055551212;ext=45", "905-555-1212 x45"],
  ["+1 212 555 0100", "+12125550100", "212-555-0100"],
  ["(212) 555-0100 extension 7", "+12125550100;ext=7", "212-555-0100 x7"],
  ["555-123-4567", "+15551234567", "555-123-4567"],
  ["+44 20 7946 0958", "+442079460958", "+44 20 7946 0958"],
  ["+44 (0)20 7946 0958", "+442079460958", "+44 20 7946 0958"],
  ["011 44 20 7946 0958", "+442079460958", "+44 20 7946 0958"],
  ["+44 20 7946 0958 ext 12", "+442079460958;ext=12", "+44 20 7946 0958 x12"],
  ["+33 1 42 68 53 00", "+33142685300", "+33 1 42 68 53 00"],
  ["+33 6 12 34 56 78 x9", "+33612345678;ext=9", "+33 6 12 34 56 78 x9"],
];

describe("phone numbers stored in E.164 and shown in two forms (issue 29)", () => {
  it.each(NUMBERS)("%s is stored as %s and shown as %s", (typed, stored, shown) => {
    expect(storedPhone(typed)).toBe(stored);
    expect(formatPhone(stored)).toBe(shown);
    // What is shown reads back as the same number (the CSV export imports back unchanged).
    expect(storedPhone(shown)).toBe(stored);
  });

  it("writes a North American number the same way without the library (the dashboard's first screen)", () => {
    for (const [, stored, shown] of NUMBERS) {
      expect(northAmericanPhoneText(stored), stored).toBe(stored.startsWith("+1") ? shown : null);
    }
    expect(northAmericanPhoneText("555-1234")).toBeNull();
  });

  it("is not the first ten digits shown as a 10-digit number (the bug: 151-455-5019, 190-555-5016)", () => {
    expect(formatPhone(storedPhone("+1 514 555 0199"))).not.toBe("151-455-5019");
    expect(formatPhone(storedPhone("1-905-555-0166"))).not.toBe("190-555-5016");
  });

  it("refuses what is not a number: too short, a local number without its area code, words, unknown country codes", () => {
    for (const typed of ["", "12", "555-1234", "call 514-555-0199", "514-555-0199 please", "+44 20 7946", "+999 123456", "abc"]) {
      expect(storedPhone(typed), typed).toBeNull();
    }
  });

  it("shows an old value that is not a number as it was typed", () => {
    expect(formatPhone("555-1234")).toBe("555-1234");
    expect(formatPhone(null)).toBe("");
  });

  it("links a number to dial, extension included (RFC 3966)", () => {
    expect(phoneHref("+19055551212;ext=123")).toBe("tel:+19055551212;ext=123");
    expect(phoneHref("+442079460958")).toBe("tel:+442079460958");
    expect(phoneHref(null)).toBeNull();
  });

  it("reads a search typed as a phone number as its digits, and anything else as no number", () => {
    expect(phoneSearchDigits("(514) 555-0199")).toBe("5145550199");
    expect(phoneSearchDigits("+1 514 555 0199")).toBe("15145550199");
    expect(phoneSearchDigits("555 01")).toBe("55501");
    expect(phoneSearchDigits("Smith")).toBeNull();
    expect(phoneSearchDigits("a@b.ca")).toBeNull();
    expect(phoneSearchDigits("51")).toBeNull();
  });

  it("compares numbers for duplicates without their extension or a leading 1", () => {
    expect(normalizePhone("+19055551212;ext=123")).toBe("9055551212");
    expect(normalizePhone("+19055551212")).toBe("9055551212");
    expect(normalizePhone("+442079460958")).toBe("442079460958");
  });
});
