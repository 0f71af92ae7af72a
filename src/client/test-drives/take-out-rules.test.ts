import { describe, expect, it } from "vitest";
import { splitFullName, TAKE_OUT_MESSAGES } from "../../shared/schemas/test-drive";
import { emptyDraft, takeOutProblem, type TakeOutDraft } from "./take-out-rules";

const ready: TakeOutDraft = { ...emptyDraft, clientType: "new", fullName: "Ada Lovelace", email: "ada@example.com", phone: "416-555-0101", vehicleType: "vehicle", vehicleId: "v1" };

describe("take-out rules (spec part 2 §5)", () => {
  it("allows a new client with name, e-mail and phone on a chosen inventory vehicle", () => {
    expect(takeOutProblem(ready)).toBeNull();
  });

  it("refuses without a chosen vehicle or unit", () => {
    expect(takeOutProblem({ ...ready, vehicleId: "" })).toBe(TAKE_OUT_MESSAGES.noVehicle);
    expect(takeOutProblem({ ...ready, vehicleType: "tdu", tduId: "" })).toBe("No vehicle selected");
  });

  it.each(["stockNumber", "make", "model"] as const)("refuses manual entry without %s", (field) => {
    const manual = { ...ready, vehicleType: "manual" as const, stockNumber: "S-1", make: "Honda", model: "Civic" };
    expect(takeOutProblem(manual)).toBeNull();
    expect(takeOutProblem({ ...manual, [field]: "  " })).toBe("Please fill in all vehicle information");
  });

  it.each(["fullName", "email", "phone"] as const)("refuses a new client without %s", (field) => {
    expect(takeOutProblem({ ...ready, [field]: "" })).toBe("Please fill in all client information");
  });

  it("refuses an existing-client drive until a lead is chosen", () => {
    const existing = { ...ready, clientType: "existing" as const, fullName: "", email: "", phone: "" };
    expect(takeOutProblem(existing)).toBe("Please select an existing client");
    expect(takeOutProblem({ ...existing, leadId: "lead-1" })).toBeNull();
  });

  it("names the vehicle problem before the client problem, as the spec lists them", () => {
    expect(takeOutProblem({ ...emptyDraft })).toBe("No vehicle selected");
  });
});

describe("splitting a new client's full name (spec part 2 §2)", () => {
  it("splits at the first space: first name, then the remainder", () => {
    expect(splitFullName("Mary Ann van der Berg")).toEqual({ firstName: "Mary", lastName: "Ann van der Berg" });
  });

  it("uses the first name as the last name when there is no remainder", () => {
    expect(splitFullName("  Cher ")).toEqual({ firstName: "Cher", lastName: "Cher" });
  });
});
