import { splitFullName, type CreateTestDriveInput } from "../../shared/schemas/test-drive";
import { emptyDraft, type TakeOutDraft } from "./take-out-rules";

// What the take-out dialog and the booking screen hold, and the POST /api/test-drives body made from it (spec part 2
// §2, §7): the full name split at its first space, the vehicle by its source, a booking's date and time.

export interface TestDriveFormValues extends TakeOutDraft {
  /** Book a Test Drive only: the dealership-clock date and time of a scheduled drive. */
  testDriveDate: string;
  testDriveTime: string;
  notes: string;
}

export const emptyTestDriveForm: TestDriveFormValues = { ...emptyDraft, testDriveDate: "", testDriveTime: "", notes: "" };

/** The body of POST /api/test-drives for these values: taken out now ("out") or booked ("scheduled"). */
export function testDriveRequest(values: TestDriveFormValues, dealershipId: string, status: "out" | "scheduled"): CreateTestDriveInput {
  const client =
    values.clientType === "new"
      ? { clientType: "new" as const, ...splitFullName(values.fullName), email: values.email, phone: values.phone, leadId: null }
      : { clientType: "existing" as const, leadId: values.leadId };
  const vehicle =
    values.vehicleType === "vehicle"
      ? { vehicleType: "vehicle" as const, vehicleId: values.vehicleId }
      : values.vehicleType === "tdu"
        ? { vehicleType: "tdu" as const, tduId: values.tduId }
        : {
            vehicleType: "manual" as const,
            stockNumber: values.stockNumber,
            make: values.make,
            model: values.model,
            vehicleDriven: `${values.make.trim()} ${values.model.trim()}`.trim(),
          };
  return {
    dealershipId,
    ...client,
    ...vehicle,
    status,
    ...(status === "scheduled" ? { testDriveDate: values.testDriveDate, testDriveTime: values.testDriveTime } : {}),
    notes: values.notes || null,
  };
}
