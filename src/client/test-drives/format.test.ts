import { describe, expect, it } from "vitest";
import { formatDuration } from "../../shared/schemas/analytics";
import { formatMileage, formatPrice, minutesBetween } from "./format";

describe("test-drive durations (spec part 2 §2: 'Nm' or 'Nh Nm')", () => {
  it.each([
    [0, "0m"],
    [7, "7m"],
    [59, "59m"],
    [60, "1h 0m"],
    [65, "1h 5m"],
    [135, "2h 15m"],
    [1500, "25h 0m"],
  ])("shows %i minutes as %s", (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });

  it.each([null, undefined])("shows a dash for an unknown length (%s)", (minutes) => {
    expect(formatDuration(minutes)).toBe("—");
  });

  it("counts whole minutes between taking out and returning", () => {
    expect(minutesBetween("2026-03-08T06:50:00Z", "2026-03-08T08:05:59Z")).toBe(75);
    expect(minutesBetween("2026-03-08T08:00:00Z", new Date("2026-03-08T07:00:00Z"))).toBe(0);
  });
});

describe("vehicle figures", () => {
  it("shows a price kept in cents as dollars", () => {
    expect(formatPrice(2_450_000)).toBe("$24,500");
    expect(formatPrice(1_999_950)).toBe("$19,999.50");
    expect(formatPrice(null)).toBeNull();
  });

  it("groups the mileage without inventing a unit", () => {
    expect(formatMileage(45210)).toBe("45,210");
    expect(formatMileage(0)).toBe("0");
    expect(formatMileage(undefined)).toBeNull();
  });
});
