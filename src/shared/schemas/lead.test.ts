import { describe, expect, it } from "vitest";
import { createLeadSchema, percentChange, updateLeadSchema } from "./lead";

describe("percentChange (decision 014)", () => {
  it("is the whole-percent change from yesterday", () => {
    expect(percentChange(3, 2)).toBe(50);
    expect(percentChange(1, 3)).toBe(-67);
    expect(percentChange(2, 2)).toBe(0);
    expect(percentChange(0, 4)).toBe(-100);
  });

  it("is +100 from a zero yesterday when there is anything today, else 0", () => {
    expect(percentChange(5, 0)).toBe(100);
    expect(percentChange(0, 0)).toBe(0);
  });
});

describe("lead form schema (decision 013)", () => {
  it("stores a phone in E.164 with its extension (issue 29, decision 205)", () => {
    const phone = (typed: string) => createLeadSchema.parse({ firstName: "A", lastName: "B", phone: typed }).phone;
    expect(phone("(416) 555 0123")).toBe("+14165550123");
    expect(phone("+44 20 7946 0958")).toBe("+442079460958");
    expect(phone("905-555-1212 x123")).toBe("+19055551212;ext=123");
    expect(phone("")).toBe("");
  });

  it("refuses what is not a phone number: too short, a local number without its area code, words", () => {
    for (const typed of ["12", "555-1234", "call 514-555-0199", "+44 20 7946"]) {
      expect(createLeadSchema.safeParse({ firstName: "A", lastName: "B", phone: typed }).success, typed).toBe(false);
    }
  });

  it("gives the spec's messages", () => {
    const result = createLeadSchema.safeParse({ firstName: "", lastName: " ", email: "nope", phone: "12" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join("."), i.message]));
    expect(messages).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Please enter a valid email",
      phone: "Please enter a valid phone number",
    });
  });

  it("accepts only the statuses of part 2 §4 in an edit", () => {
    expect(updateLeadSchema.safeParse({ status: "inProgress" }).success).toBe(true);
    expect(updateLeadSchema.safeParse({ status: "won" }).success).toBe(false);
  });
});
