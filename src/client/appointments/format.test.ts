import { describe, expect, it } from "vitest";
import { formatSlot, formatTimeInZone, isoFromDate, dateFromIso, matchesSearch, statusBadge } from "./format";

describe("appointment status badges (spec part 1 §2.3)", () => {
  it.each([
    ["scheduled", "primary", "Scheduled"],
    ["confirmed", "primary", "Confirmed"],
    ["arrived", "warning", "Arrived"],
    ["completed", "success", "Completed"],
    ["cancelled", "destructive", "Cancelled"],
    ["no-show", "destructive", "No Show"],
  ])("shows %s as %s", (status, variant, label) => {
    expect(statusBadge(status)).toEqual({ variant, label });
  });

  it.each([undefined, null, "", "postponed"])("treats an unknown or missing status (%s) as scheduled", (status) => {
    expect(statusBadge(status)).toEqual({ variant: "primary", label: "Scheduled" });
  });
});

describe("appointment search (name, e-mail or phone, case-insensitive)", () => {
  const a = { firstName: "Aisha", lastName: "Rahman", email: "Aisha.Rahman@example.com", phone: "416-555-0146" };
  it.each(["aisha", "HA RAH", "rahman@EXAMPLE", "555-01", "4165550146", "(416) 555"])("finds %s", (q) => {
    expect(matchesSearch(a, q)).toBe(true);
  });
  it.each(["bob", "999", "aisha.rahman@other"])("does not find %s", (q) => {
    expect(matchesSearch(a, q)).toBe(false);
  });
  it("matches everything with an empty search", () => {
    expect(matchesSearch({ ...a, email: null, phone: null }, "  ")).toBe(true);
  });
});

describe("times and days", () => {
  it("writes slots on a 12-hour clock", () => {
    expect(formatSlot("09:00")).toBe("9:00 AM");
    expect(formatSlot("12:30")).toBe("12:30 PM");
    expect(formatSlot("17:30")).toBe("5:30 PM");
  });

  it("writes an arrival time on the dealership's clock, not the browser's", () => {
    expect(formatTimeInZone("2026-11-22T15:07:00Z", "America/Toronto")).toBe("10:07 AM");
    expect(formatTimeInZone("2026-07-15T15:07:00Z", "America/Toronto")).toBe("11:07 AM");
  });

  it("round-trips a calendar day without shifting it", () => {
    for (const day of ["2026-01-01", "2026-03-08", "2026-11-01", "2026-12-31"]) expect(isoFromDate(dateFromIso(day))).toBe(day);
  });
});
