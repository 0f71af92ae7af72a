import { describe, expect, it } from "vitest";
import { codeDigits } from "./code-input";

describe("what a one-time code box keeps", () => {
  it("keeps only the digits, whatever was typed or pasted around them", () => {
    expect(codeDigits("12a3 4-56", 6)).toBe("123456");
    expect(codeDigits("abc", 6)).toBe("");
  });

  it("keeps no more digits than the code has", () => {
    expect(codeDigits("1234567", 6)).toBe("123456");
  });
});
