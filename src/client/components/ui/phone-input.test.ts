import { describe, expect, it } from "vitest";
import { pastedPhone, typedPhone } from "./phone-input";

describe("a phone number as it is typed (part 1 §2.6, issue 29)", () => {
  it("shows a North American number as 3-3-4 with dashes, ten digits at most", () => {
    expect(["555", "5551", "5551234", "5551234567", "55512345678"].map(typedPhone)).toEqual(["555", "555-1", "555-123-4", "555-123-4567", "555-123-4567"]);
  });

  it("keeps an extension after the number as x123", () => {
    expect(typedPhone("905-555-1212x")).toBe("905-555-1212 x");
    expect(typedPhone("905-555-1212 x123")).toBe("905-555-1212 x123");
    expect(typedPhone("(905) 555-1212 ext. 9")).toBe("905-555-1212 x9");
  });

  it("leaves a number typed with + in international form", () => {
    expect(typedPhone("+44 20 7946 0958")).toBe("+44 20 7946 0958");
    expect(typedPhone("+33-1-42-68-53-00")).toBe("+33142685300");
  });
});

describe("a pasted phone number (issues 12, 29)", () => {
  it("drops a leading country code 1 instead of losing the last digit", () => {
    expect(typedPhone(pastedPhone("+1 (905) 555-1212"))).toBe("905-555-1212");
    expect(typedPhone(pastedPhone("1-905-555-1212"))).toBe("905-555-1212");
  });

  it("keeps a ten-digit number, whatever its punctuation, and its extension", () => {
    expect(typedPhone(pastedPhone("(905) 555.1212"))).toBe("905-555-1212");
    expect(typedPhone(pastedPhone("1905555121"))).toBe("190-555-5121");
    expect(typedPhone(pastedPhone("905.555.1212 #123"))).toBe("905-555-1212 x123");
  });

  it("keeps another country's number whole", () => {
    expect(typedPhone(pastedPhone("+44 20 7946 0958"))).toBe("+44 20 7946 0958");
  });
});
