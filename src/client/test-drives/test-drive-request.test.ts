import { describe, expect, it } from "vitest";
import { createTestDriveSchema } from "../../shared/schemas/test-drive";
import { emptyTestDriveForm, testDriveRequest } from "./test-drive-request";

const TODAY = "2026-11-23";
const schema = createTestDriveSchema(TODAY);
const newClient = { ...emptyTestDriveForm, clientType: "new" as const, fullName: "Mary Ann Smith", email: "mary@example.com", phone: "416-555-0101", vehicleId: "v1" };

describe("the take-out and booking request (spec part 2 §2, §7)", () => {
  it("splits a new client's full name at the first space and takes the vehicle out now", () => {
    expect(testDriveRequest(newClient, "d1", "out")).toMatchObject({
      dealershipId: "d1",
      clientType: "new",
      firstName: "Mary",
      lastName: "Ann Smith",
      email: "mary@example.com",
      phone: "416-555-0101",
      vehicleType: "vehicle",
      vehicleId: "v1",
      status: "out",
    });
    expect(schema.safeParse(testDriveRequest(newClient, "d1", "out")).success).toBe(true);
  });

  it("sends only the chosen lead for an existing client", () => {
    const body = testDriveRequest({ ...newClient, clientType: "existing", leadId: "lead-1" }, "d1", "out");
    expect(body).toMatchObject({ clientType: "existing", leadId: "lead-1" });
    expect("firstName" in body).toBe(false);
  });

  it("names a vehicle typed in by hand by its make and model", () => {
    const body = testDriveRequest({ ...newClient, vehicleType: "manual", stockNumber: "S-9", make: "Ford", model: " Mustang " }, "d1", "out");
    expect(body).toMatchObject({ vehicleType: "manual", stockNumber: "S-9", make: "Ford", vehicleDriven: "Ford Mustang" });
    expect("vehicleId" in body).toBe(false);
  });

  it("sends a demo unit by its id", () => {
    expect(testDriveRequest({ ...newClient, vehicleType: "tdu", tduId: "u1" }, "d1", "out")).toMatchObject({ vehicleType: "tdu", tduId: "u1" });
  });

  it("books for a date and time, which the shared schema requires and keeps from the past", () => {
    const booking = { ...newClient, testDriveDate: "2026-11-24", testDriveTime: "14:00" };
    expect(testDriveRequest(booking, "d1", "scheduled")).toMatchObject({ status: "scheduled", testDriveDate: "2026-11-24", testDriveTime: "14:00" });
    expect(schema.safeParse(testDriveRequest(booking, "d1", "scheduled")).success).toBe(true);
    const past = schema.safeParse(testDriveRequest({ ...booking, testDriveDate: "2026-11-22" }, "d1", "scheduled"));
    expect(past.error?.issues.map((i) => i.message)).toContain("Date cannot be in the past");
    const noTime = schema.safeParse(testDriveRequest({ ...booking, testDriveTime: "" }, "d1", "scheduled"));
    expect(noTime.error?.issues.map((i) => i.path[0])).toEqual(["testDriveTime"]);
  });

  it("does not send a date or time when the vehicle goes out now", () => {
    const body = testDriveRequest({ ...newClient, testDriveDate: "2026-11-24", testDriveTime: "14:00" }, "d1", "out");
    expect("testDriveDate" in body).toBe(false);
  });
});
