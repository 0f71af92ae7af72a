import { TAKE_OUT_MESSAGES, type ClientType, type TestDriveVehicleType } from "../../shared/schemas/test-drive";

// The take-out rules of spec part 2 §5, in the order the spec lists them, on what the dialog holds while it is filled
// in. The take-out button stays disabled while `takeOutProblem` answers a message (shown under the button); the shared
// schema (createTestDriveSchema) checks the same on submit and on the server.

export interface TakeOutDraft {
  clientType: ClientType;
  /** new client: one "full name" field, split by splitFullName (shared/schemas/test-drive). */
  fullName: string;
  email: string;
  phone: string;
  /** existing client: the chosen lead. */
  leadId: string;
  vehicleType: TestDriveVehicleType;
  /** the inventory vehicle or the test-drive unit chosen. */
  vehicleId: string;
  tduId: string;
  /** manual entry. */
  stockNumber: string;
  make: string;
  model: string;
}

const blank = (value: string) => value.trim() === "";

/** The first rule the draft breaks, as the spec words it; null when the drive may be taken out. */
export function takeOutProblem(draft: TakeOutDraft): string | null {
  if (draft.vehicleType === "vehicle" && blank(draft.vehicleId)) return TAKE_OUT_MESSAGES.noVehicle;
  if (draft.vehicleType === "tdu" && blank(draft.tduId)) return TAKE_OUT_MESSAGES.noVehicle;
  if (draft.vehicleType === "manual" && (blank(draft.stockNumber) || blank(draft.make) || blank(draft.model))) return TAKE_OUT_MESSAGES.vehicleInformation;
  if (draft.clientType === "new" && (blank(draft.fullName) || blank(draft.email) || blank(draft.phone))) return TAKE_OUT_MESSAGES.clientInformation;
  if (draft.clientType === "existing" && blank(draft.leadId)) return TAKE_OUT_MESSAGES.existingClient;
  return null;
}

export const emptyDraft: TakeOutDraft = {
  clientType: "new",
  fullName: "",
  email: "",
  phone: "",
  leadId: "",
  vehicleType: "vehicle",
  vehicleId: "",
  tduId: "",
  stockNumber: "",
  make: "",
  model: "",
};
