import { describe, expect, it } from "vitest";
import { onDealershipClock } from "./dealership-clock";

describe("a moment on the dealership's clock (issue 29: Created and Claimed At on lead detail)", () => {
  it("reads the same moment on each dealership's own clock, its zone named, whatever the device's zone", () => {
    const at = "2026-11-27T21:24:00.000Z";
    expect(onDealershipClock(at, "America/Toronto")).toBe("Nov 27, 2026, 4:24 PM EST");
    expect(onDealershipClock(at, "America/Regina")).toBe("Nov 27, 2026, 3:24 PM CST");
    expect(onDealershipClock(new Date(at), "America/Halifax")).toBe("Nov 27, 2026, 5:24 PM AST");
  });
});
