import { z } from "zod";
import { closedOn, DEFAULT_BUSINESS_HOURS, type BusinessHours } from "../business-hours";
import { EARLIEST_DATE, isCalendarDate, isIsoDate, LATEST_DATE } from "../dealership-clock";
import { optionalPhoneField } from "./lead";
import { entityId, messageSchema, timestamp } from "./responses/fields";

// Test drives (spec part 2 §2 take-out dialog, Book a Test Drive, Test Drive Details; §3 Test drive; §4; §5; §7).
// The take-out and booking forms and the server validate with these same objects; the answers are strict schemas
// (decision 053). How the detail screen's statuses map onto the stored ones: decision 063.

export const CLIENT_TYPES = ["new", "existing"] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/** Part 2 §3 vehicleType: an inventory vehicle, a test-drive unit, or a vehicle typed in by hand. */
export const TEST_DRIVE_VEHICLE_TYPES = ["vehicle", "tdu", "manual"] as const;
export type TestDriveVehicleType = (typeof TEST_DRIVE_VEHICLE_TYPES)[number];

/**
 * Stored statuses: the spec's out, completed, cancelled, plus scheduled (a booked drive not yet taken out) and no_show
 * (a booked client who never came). Decision 063.
 */
export const TEST_DRIVE_STATUSES = ["scheduled", "out", "completed", "cancelled", "no_show"] as const;
export type TestDriveStatus = (typeof TEST_DRIVE_STATUSES)[number];

/** The detail screen's dropdown (part 2 §2), any of them in any order (§4). in_progress is the stored "out". */
export const TEST_DRIVE_DETAIL_STATUSES = ["scheduled", "in_progress", "completed", "cancelled", "no_show"] as const;
export type TestDriveDetailStatus = (typeof TEST_DRIVE_DETAIL_STATUSES)[number];

export const TEST_DRIVE_DETAIL_STATUS_LABELS: Record<TestDriveDetailStatus, string> = {
  scheduled: "Scheduled",
  in_progress: "In Progress",
  completed: "Completed",
  cancelled: "Cancelled",
  no_show: "No Show",
};

/** The dropdown's value for a stored status. */
export function detailStatusOf(status: TestDriveStatus): TestDriveDetailStatus {
  return status === "out" ? "in_progress" : status;
}

/** The stored status a dropdown value means. */
export function storedStatusOf(status: TestDriveDetailStatus): TestDriveStatus {
  return status === "in_progress" ? "out" : status;
}

/** Part 2 §5 take-out messages, shown by the dialog and answered by the server alike. */
export const TAKE_OUT_MESSAGES = {
  noVehicle: "No vehicle selected",
  vehicleInformation: "Please fill in all vehicle information",
  clientInformation: "Please fill in all client information",
  existingClient: "Please select an existing client",
  firstName: "First name is required",
  lastName: "Last name is required",
  email: "Please enter a valid email",
  date: "Please choose a date for the test drive",
  dateFormat: "Date must be a valid date (YYYY-MM-DD)",
  datePast: "Date cannot be in the past",
  time: "Please choose a time for the test drive",
  timeFormat: "Time must be HH:MM (24-hour)",
} as const;

/** Server answers the client shows as they are (part 2 §8 shows "the message"). */
export const TEST_DRIVE_ERRORS = {
  vehicleOut: "This vehicle is already out on a test drive",
  unitOut: "This test-drive unit is already out",
  vehicleNotFound: "Vehicle not found",
  unitNotFound: "Test-drive unit not found",
  vehicleUnavailable: "This vehicle is not available for test drives",
  notOut: "This test drive is not out, so there is nothing to return",
  vehicleNotOut: "This vehicle is not out on a test drive",
  unitNotOut: "This test-drive unit is not out",
  testDriveNotFound: "Test drive not found",
  leadNotFound: "Lead not found",
  removeWhileOut: "This vehicle is out on a test drive: return it before removing it",
  removeUnitWhileOut: "This test-drive unit is out: return it before removing it",
  takeOutWithTestDrive: "A vehicle goes out with a test drive: use Take Out Demo",
} as const;

/** "John Smith Jr" -> John / Smith Jr; "Cher" -> Cher / Cher (part 2 §2 take-out dialog). */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const trimmed = fullName.trim();
  const space = trimmed.indexOf(" ");
  if (space < 0) return { firstName: trimmed, lastName: trimmed };
  const firstName = trimmed.slice(0, space);
  const lastName = trimmed.slice(space + 1).trim();
  return { firstName, lastName: lastName || firstName };
}

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `Must be at most ${max} characters` })
    .nullish()
    .transform((v) => (v ? v : null));

const testDriveTime = z
  .string()
  .trim()
  .refine((v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), { message: TAKE_OUT_MESSAGES.timeFormat });

const testDriveDate = z
  .string()
  .trim()
  .refine(isCalendarDate, { message: TAKE_OUT_MESSAGES.dateFormat })
  .refine(isIsoDate, { message: `Date must be between ${EARLIEST_DATE} and ${LATEST_DATE}` });

/**
 * POST /api/test-drives (part 2 §7). status "out" takes the vehicle out now (the take-out dialog); "scheduled" books a
 * drive for testDriveDate at testDriveTime on the dealership's clock (Book a Test Drive), never before `today`.
 * takenOutBy and takenOutAt are the session's user and the server's clock: a body's values are ignored (zod drops
 * them). A booking on a day the dealership is closed is refused; any time of an open day is kept (decision 236).
 * For an existing client the names and contact come from the lead. For manual entry the form sends stockNumber
 * plus make and model (or vehicleDriven).
 */
export function createTestDriveSchema(today: string, hours: BusinessHours = DEFAULT_BUSINESS_HOURS) {
  return z
    .object({
      dealershipId: z.string({ message: "dealershipId is required" }).trim().min(1, { message: "dealershipId is required" }).max(64),
      clientType: z.enum(CLIENT_TYPES, { message: "Client type must be new or existing" }),
      leadId: text(64),
      firstName: text(100),
      lastName: text(100),
      email: z
        .string()
        .trim()
        .toLowerCase()
        .max(254)
        .nullish()
        .transform((v) => (v ? v : null)),
      phone: optionalPhoneField,
      vehicleType: z.enum(TEST_DRIVE_VEHICLE_TYPES, { message: "Vehicle type must be vehicle, tdu or manual" }).default("manual"),
      vehicleId: text(64),
      tduId: text(64),
      vehicleDriven: text(200),
      make: text(100),
      model: text(100),
      stockNumber: text(50),
      status: z.enum(["out", "scheduled"], { message: "Status must be out or scheduled" }).default("out"),
      testDriveDate: z.string().nullish(),
      testDriveTime: z.string().nullish(),
      notes: text(5000),
    })
    .superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
      if (v.clientType === "new") {
        if (!v.firstName) issue("firstName", TAKE_OUT_MESSAGES.clientInformation);
        else if (!v.lastName) issue("lastName", TAKE_OUT_MESSAGES.clientInformation);
        else if (!v.email) issue("email", TAKE_OUT_MESSAGES.clientInformation);
        else if (!v.phone) issue("phone", TAKE_OUT_MESSAGES.clientInformation);
        if (v.email && !z.email().safeParse(v.email).success) issue("email", TAKE_OUT_MESSAGES.email);
      } else if (!v.leadId) issue("leadId", TAKE_OUT_MESSAGES.existingClient);
      if (v.vehicleType === "vehicle" && !v.vehicleId) issue("vehicleId", TAKE_OUT_MESSAGES.noVehicle);
      if (v.vehicleType === "tdu" && !v.tduId) issue("tduId", TAKE_OUT_MESSAGES.noVehicle);
      if (v.vehicleType === "manual" && (!v.stockNumber || !(v.vehicleDriven || (v.make && v.model)))) {
        issue(v.stockNumber ? "vehicleDriven" : "stockNumber", TAKE_OUT_MESSAGES.vehicleInformation);
      }
      if (v.status === "scheduled") {
        const date = v.testDriveDate?.trim();
        const time = v.testDriveTime?.trim();
        if (!date) issue("testDriveDate", TAKE_OUT_MESSAGES.date);
        else if (!testDriveDate.safeParse(date).success) issue("testDriveDate", testDriveDate.safeParse(date).error?.issues[0]?.message ?? TAKE_OUT_MESSAGES.dateFormat);
        else if (date < today) issue("testDriveDate", TAKE_OUT_MESSAGES.datePast);
        else if (closedOn(date, hours)) issue("testDriveDate", closedOn(date, hours)!);
        if (!time) issue("testDriveTime", TAKE_OUT_MESSAGES.time);
        else if (!testDriveTime.safeParse(time).success) issue("testDriveTime", TAKE_OUT_MESSAGES.timeFormat);
      }
    });
}
export type CreateTestDriveInput = z.input<ReturnType<typeof createTestDriveSchema>>;

/** PATCH /api/test-drives/{id}: the detail screen's edit mode, any subset; empty text clears a field. */
export const updateTestDriveSchema = z
  .object({
    vehicleDriven: text(200).optional(),
    stockNumber: text(50).optional(),
    testDriveDate: z
      .union([testDriveDate, z.literal(""), z.null()])
      .transform((v) => (v ? v : null))
      .optional(),
    testDriveTime: z
      .union([testDriveTime, z.literal(""), z.null()])
      .transform((v) => (v ? v : null))
      .optional(),
    notes: text(5000).optional(),
  })
  .strict();
export type UpdateTestDriveInput = z.input<typeof updateTestDriveSchema>;

/** PATCH /api/test-drives/{id}/status: one of the detail screen's statuses (decision 063). */
export const testDriveStatusSchema = z.object({
  status: z.enum(TEST_DRIVE_DETAIL_STATUSES, { message: `Status must be one of: ${TEST_DRIVE_DETAIL_STATUSES.join(", ")}` }),
});

/** GET /api/test-drives?leadId=: a lead's drives for its detail page (decision 064). */
export const testDriveListQuerySchema = z.object({
  leadId: z.string({ message: "leadId is required" }).trim().min(1, { message: "leadId is required" }).max(64),
});

export const TEST_DRIVES_PAGE_DEFAULT = 50;
export const TEST_DRIVES_PAGE_MAX = 200;

/**
 * GET /api/dealerships/{id}/test-drives: the dealership's drives. status=scheduled lists the bookings from today on,
 * soonest first; any other status (or none) lists newest first (decision 064).
 */
export const dealershipTestDriveQuerySchema = z.object({
  status: z.enum(TEST_DRIVE_STATUSES, { message: `status must be one of: ${TEST_DRIVE_STATUSES.join(", ")}` }).optional(),
  limit: z.coerce
    .number({ message: `limit must be a number from 1 to ${TEST_DRIVES_PAGE_MAX}` })
    .int({ message: `limit must be a number from 1 to ${TEST_DRIVES_PAGE_MAX}` })
    .min(1, { message: `limit must be a number from 1 to ${TEST_DRIVES_PAGE_MAX}` })
    .max(TEST_DRIVES_PAGE_MAX, { message: `limit must be a number from 1 to ${TEST_DRIVES_PAGE_MAX}` })
    .default(TEST_DRIVES_PAGE_DEFAULT),
});

// ---- Answers ----

/** Part 2 §3 Test drive; takenOutByName is ours (the sales associate's name). duration: whole minutes. */
export const testDriveSchema = z.strictObject({
  id: entityId,
  dealershipId: entityId,
  clientType: z.enum(CLIENT_TYPES),
  leadId: entityId.nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  vehicleType: z.enum(TEST_DRIVE_VEHICLE_TYPES),
  vehicleId: entityId.nullable(),
  tduId: entityId.nullable(),
  vehicleDriven: z.string().nullable(),
  stockNumber: z.string().nullable(),
  /** The dealership's local date and time (YYYY-MM-DD, HH:MM): booked for, or when it was taken out. */
  testDriveDate: z.iso.date().nullable(),
  testDriveTime: z.string().nullable(),
  idPhotoUrl: z.string().nullable(),
  status: z.enum(TEST_DRIVE_STATUSES),
  takenOutBy: entityId.nullable(),
  takenOutByName: z.string().nullable(),
  takenOutAt: timestamp.nullable(),
  returnedBy: entityId.nullable(),
  returnedAt: timestamp.nullable(),
  notes: z.string().nullable(),
  duration: z.number().int().nonnegative().nullable(),
  createdBy: entityId.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type TestDrive = z.infer<typeof testDriveSchema>;

export const responses = {
  "POST /api/test-drives": testDriveSchema,
  /** A lead's drives, newest first (decision 064). */
  "GET /api/test-drives": z.array(testDriveSchema),
  "GET /api/dealerships/:id/test-drives": z.array(testDriveSchema),
  "GET /api/test-drives/:id": testDriveSchema,
  "PATCH /api/test-drives/:id": testDriveSchema,
  "DELETE /api/test-drives/:id": messageSchema,
  "PATCH /api/test-drives/:id/status": testDriveSchema,
  /** Ends the open drive: returnedAt, returnedBy, duration, the vehicle or unit available again. */
  "POST /api/test-drives/:id/return": testDriveSchema,
} as const satisfies Record<string, z.ZodType>;
