import { describe, expect, it } from "vitest";
import { clockText, zoneCity } from "./format";

describe("the booking screen's clock (spec part 2 §9: Toronto time)", () => {
  it("shows the dealership's wall-clock time with seconds, not the browser's", () => {
    const now = new Date("2026-11-23T19:05:09Z");
    expect(clockText(now, "America/Toronto")).toEqual({ date: "Monday, November 23, 2026", time: "2:05:09 PM EST" });
    // Los Angeles, not Vancouver: British Columbia stays on daylight time from November 2026 (tzdata 2026, which Node 22 carries).
    expect(clockText(now, "America/Los_Angeles").time).toBe("11:05:09 AM PST");
  });

  it("follows daylight saving time", () => {
    expect(clockText(new Date("2026-07-01T16:00:00Z"), "America/Toronto").time).toBe("12:00:00 PM EDT");
  });

  it("is still on yesterday's date in Toronto shortly after midnight UTC", () => {
    expect(clockText(new Date("2026-11-24T02:30:00Z"), "America/Toronto").date).toBe("Monday, November 23, 2026");
  });

  it("names the clock by its city", () => {
    expect(zoneCity("America/Toronto")).toBe("Toronto");
    expect(zoneCity("America/St_Johns")).toBe("St Johns");
  });
});
