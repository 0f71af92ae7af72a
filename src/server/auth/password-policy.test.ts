import { describe, expect, it } from "vitest";
import { PASSWORD_BLANK, PASSWORD_IS_EMAIL, PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT } from "../../shared/schemas/password";
import { registerSchema } from "../../shared/schemas/auth";
import { isCommonPassword, passwordProblem } from "./password-policy";

// The policy for a password being set (decision 009), without the HTTP around it.

describe("the password policy", () => {
  it("refuses the most common passwords whatever their case and surrounding spaces", () => {
    for (const p of ["123456", "password", "PASSWORD", " qwerty123 ", "iloveyou", "password1"]) expect(isCommonPassword(p), p).toBe(true);
  });

  it("accepts the demo password and passwords off the list", () => {
    for (const p of ["showroom123", "rightpass", "tall-green-ladder-42"]) expect(passwordProblem(p, "someone@example.com"), p).toBeNull();
  });

  it("checks only the list's 10,000 most common passwords long enough to pass the length rule", () => {
    // "secret123" is on the package's list, but far down it.
    expect(isCommonPassword("secret123")).toBe(false);
  });

  it("refuses a too short, an all-blank and an e-mail password with the shared messages", () => {
    expect(passwordProblem("abc", "dana@example.com")).toBe(PASSWORD_TOO_SHORT);
    expect(passwordProblem("\u00a0\u3000      ", "dana@example.com")).toBe(PASSWORD_BLANK);
    expect(passwordProblem("Dana.Dealer@Example.com", "dana.dealer@example.com")).toBe(PASSWORD_IS_EMAIL);
    expect(passwordProblem("dana.dealer", "dana.dealer@example.com")).toBe(PASSWORD_IS_EMAIL);
    expect(passwordProblem("123456", "dana@example.com")).toBe(PASSWORD_TOO_COMMON);
  });

  it("counts the length after NFC, so a decomposed accent is one character", () => {
    const decomposed = "éééèè".normalize("NFD");
    expect(decomposed.length).toBe(10);
    expect(passwordProblem(decomposed, "dana@example.com")).toBe(PASSWORD_TOO_SHORT);
  });

  it("is the same on the client's form for every rule except the common list", () => {
    const form = (password: string, email = "dana@example.com") =>
      registerSchema.safeParse({ firstName: "D", lastName: "D", email, password, confirmPassword: password, dealershipName: "D" });
    const message = (password: string, email?: string) => {
      const result = form(password, email);
      return result.success ? null : result.error.issues.find((i) => i.path[0] === "password")?.message;
    };
    expect(message("      ")).toBe(PASSWORD_BLANK);
    expect(message("dana@example.com")).toBe(PASSWORD_IS_EMAIL);
    expect(message("abc")).toBe(PASSWORD_TOO_SHORT);
    expect(message("123456")).toBeNull();
  });
});
