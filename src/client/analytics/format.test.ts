import { describe, expect, it } from "vitest";
import { dailyVehiclesText } from "../../shared/schemas/analytics";
import { oneDecimalText, percentText, perDay, shortDateTime, shortMonthDay } from "./format";

describe("analytics figures (spec part 2 §9)", () => {
  it("writes a share of the leads by source as a whole percentage, a dash without leads", () => {
    expect(percentText(2, 3)).toBe("67%");
    expect(percentText(0, 4)).toBe("0%");
    expect(percentText(3, 3)).toBe("100%");
    expect(percentText(0, 0)).toBe("—");
  });

  it("writes averages to one decimal", () => {
    expect(oneDecimalText(2)).toBe("2.0");
    expect(oneDecimalText(2.25)).toBe("2.3");
    expect(oneDecimalText(1 / 3)).toBe("0.3");
    expect(oneDecimalText(Number.NaN)).toBe("0.0");
  });

  it("divides a period's total by its days for the daily average", () => {
    expect(perDay(45, 30)).toBe("1.5");
    expect(perDay(3, 7)).toBe("0.4");
    expect(perDay(0, 1)).toBe("0.0");
  });

  it("names two vehicles of a day, then counts the rest as '+N more'", () => {
    expect(dailyVehiclesText(["Civic", "Corolla", "Mustang", "F-150"])).toBe("Civic, Corolla +2 more");
    expect(dailyVehiclesText(["Civic"])).toBe("Civic");
  });

  it("shows a date in short month-day form, an instant on the dealership's clock", () => {
    expect(shortMonthDay("2026-11-02")).toBe("Nov 2");
    expect(shortMonthDay("2026-03-08T03:30:00Z", "America/Toronto")).toBe("Mar 7");
    expect(shortDateTime("2026-11-23T19:05:00Z", "America/Toronto")).toBe("Nov 23, 2:05 PM");
  });
});
