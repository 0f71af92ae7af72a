import { describe, expect, it } from "vitest";
import { formatPhone } from "../../../shared/format";
import { pastedPhoneDigits } from "./phone-input";

describe("a pasted phone number (issue 12)", () => {
  it("drops a leading country code 1 instead of losing the last digit", () => {
    expect(formatPhone(pastedPhoneDigits("+1 (905) 555-1212"))).toBe("905-555-1212");
    expect(formatPhone(pastedPhoneDigits("1-905-555-1212"))).toBe("905-555-1212");
  });

  it("keeps a ten-digit number, whatever its punctuation", () => {
    expect(formatPhone(pastedPhoneDigits("(905) 555.1212"))).toBe("905-555-1212");
    expect(formatPhone(pastedPhoneDigits("1905555121"))).toBe("190-555-5121");
  });
});
