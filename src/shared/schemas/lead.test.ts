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
  it("stores a 10-digit phone as 555-123-4567 and keeps other valid numbers as typed", () => {
    expect(createLeadSchema.parse({ firstName: "A", lastName: "B", phone: "(416) 555 0123" }).phone).toBe("416-555-0123");
    expect(createLeadSchema.parse({ firstName: "A", lastName: "B", phone: "+44 20 7946 0958" }).phone).toBe("+44 20 7946 0958");
    expect(createLeadSchema.parse({ firstName: "A", lastName: "B", phone: "" }).phone).toBe("");
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
