import { z } from "zod";
import { entityId, messageSchema, timestamp } from "./responses/fields";

// The vehicle inventory and the test-drive units (spec part 2 §2 Test drive inventory, §3 Vehicle and Test-drive unit,
// §4, §5, §7). The Add Vehicle form and the server validate with these same objects; the answers are strict schemas
// (decision 053). Routes of the units: decision 062.

export const VEHICLE_CONDITIONS = ["new", "used"] as const;
export type VehicleCondition = (typeof VEHICLE_CONDITIONS)[number];

/** Stored state of a vehicle or unit (part 2 §4): available <-> out. */
export const TEST_DRIVE_AVAILABILITY = ["available", "out"] as const;
export type TestDriveAvailability = (typeof TEST_DRIVE_AVAILABILITY)[number];

/**
 * The four status icons of the inventory (part 2 §2). "booked": available now, with a scheduled drive from today on;
 * "unavailable": not offered for test drives (decision 062). Use `vehicleDisplayStatus` to choose one.
 */
export const VEHICLE_DISPLAY_STATUSES = ["available", "out", "booked", "unavailable"] as const;
export type VehicleDisplayStatus = (typeof VEHICLE_DISPLAY_STATUSES)[number];

/** Page size of the vehicle and unit lists; the next page is in the Link header, as for leads (decision 012). */
export const VEHICLES_PAGE_DEFAULT = 100;
export const VEHICLES_PAGE_MAX = 200;

export const VEHICLE_YEAR_MIN = 1900;
export const VEHICLE_YEAR_MAX = 2100;
/** Price in cents (part 2 §3): at most $20,000,000.00, which a 32-bit integer column holds. */
export const VEHICLE_PRICE_MAX_CENTS = 2_000_000_000;
export const VEHICLE_MILEAGE_MAX = 2_000_000;

export const VEHICLE_MESSAGES = {
  yearRequired: "Year is required",
  yearFormat: `Year must be a 4-digit year from ${VEHICLE_YEAR_MIN} to ${VEHICLE_YEAR_MAX}`,
  makeRequired: "Make is required",
  modelRequired: "Model is required",
  stockRequired: "Stock number is required",
  condition: "Condition must be new or used",
  price: "Price must be a whole number of cents from 0",
  mileage: "Mileage must be a whole number from 0",
  vinLength: "VIN must be 17 characters",
  vinCharacters: "VIN may use digits and letters except I, O and Q",
  vinCheckDigit: "VIN check digit (9th character) does not match: please check the VIN",
  vinYear: "The VIN's model year (10th character) does not match the year",
  stockTaken: "A vehicle with this stock number is already in this dealership's inventory",
  unitStockTaken: "A test-drive unit with this stock number already exists in this dealership",
} as const;

// ---- VIN (ISO 3779, North American check digit) ----

const VIN_VALUES: Record<string, number> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8,
  J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9,
  S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
};
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
/** Position 10 codes in order from 1980 (A) to 2009 (9); the cycle repeats every 30 years. */
const VIN_YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789";

function vinValue(c: string): number | undefined {
  if (c >= "0" && c <= "9") return Number(c);
  return VIN_VALUES[c];
}

/** Whether the 17 characters are digits and letters other than I, O and Q. */
export function vinHasValidCharacters(vin: string): boolean {
  return /^[A-HJ-NPR-Z0-9]{17}$/.test(vin);
}

/** The check digit a VIN must carry in position 9 ("0"-"9" or "X"), or null when a character is not allowed. */
export function vinCheckDigit(vin: string): string | null {
  if (!vinHasValidCharacters(vin)) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (vinValue(vin[i] as string) as number) * (VIN_WEIGHTS[i] as number);
  const remainder = sum % 11;
  return remainder === 10 ? "X" : String(remainder);
}

export function vinCheckDigitMatches(vin: string): boolean {
  const expected = vinCheckDigit(vin);
  return expected !== null && vin[8] === expected;
}

/**
 * The model years position 10 can mean, from 1980 (17-character VINs began in 1981) to VEHICLE_YEAR_MAX: a code
 * repeats every 30 years ("A" is 1980, 2010, 2040...). Empty for a character that is no year code.
 */
export function vinModelYears(vin: string): number[] {
  const index = VIN_YEAR_CODES.indexOf(vin[9] ?? "");
  if (index < 0) return [];
  const years: number[] = [];
  for (let year = 1980 + index; year <= VEHICLE_YEAR_MAX; year += 30) years.push(year);
  return years;
}

/** Upper-case, without spaces or dashes, as a VIN is compared and stored. */
export function normalizeVin(vin: string): string {
  return vin.replace(/[\s-]/g, "").toUpperCase();
}

// ---- Requests ----

const requiredText = (message: string, max = 100) =>
  z.string({ message }).trim().min(1, { message }).max(max, { message: `Must be at most ${max} characters` });

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `Must be at most ${max} characters` })
    .nullish()
    .transform((v) => (v ? v : null));

/** Part 2 §5: "year string of at least 4 characters ('Year is required')"; we also hold it to a real 4-digit year. */
export const vehicleYearField = z
  .union([z.string(), z.number()], { message: VEHICLE_MESSAGES.yearRequired })
  .transform((v) => String(v).trim())
  .pipe(
    z
      .string()
      .min(4, { message: VEHICLE_MESSAGES.yearRequired })
      .refine((v) => /^\d{4}$/.test(v) && Number(v) >= VEHICLE_YEAR_MIN && Number(v) <= VEHICLE_YEAR_MAX, {
        message: VEHICLE_MESSAGES.yearFormat,
      }),
  );

/** A whole number from 0, or nothing; "" and null mean not given (the form sends price and mileage only when given). */
const optionalWholeNumber = (max: number, message: string) =>
  z
    .union([z.number(), z.string(), z.null()], { message })
    .optional()
    .transform((v, ctx) => {
      if (v === null || v === undefined || (typeof v === "string" && v.trim() === "")) return null;
      const n = typeof v === "number" ? v : Number(v.trim());
      if (!Number.isInteger(n) || n < 0 || n > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });

/** An optional VIN: 17 characters, allowed letters, right check digit (decision 062). Empty means none. */
export const vinField = z
  .string()
  .nullish()
  .transform((v) => (v ? normalizeVin(v) : null))
  .superRefine((vin, ctx) => {
    if (vin === null) return;
    if (vin.length !== 17) ctx.addIssue({ code: "custom", message: VEHICLE_MESSAGES.vinLength });
    else if (!vinHasValidCharacters(vin)) ctx.addIssue({ code: "custom", message: VEHICLE_MESSAGES.vinCharacters });
    else if (!vinCheckDigitMatches(vin)) ctx.addIssue({ code: "custom", message: VEHICLE_MESSAGES.vinCheckDigit });
  });

const stringList = z.array(z.string().trim().min(1).max(200)).max(50).nullish().transform((v) => v ?? []);

/** POST /api/dealerships/{id}/vehicles (part 2 §7): price arrives in cents, mileage as an integer. */
export const createVehicleSchema = z
  .object({
    year: vehicleYearField,
    make: requiredText(VEHICLE_MESSAGES.makeRequired),
    model: requiredText(VEHICLE_MESSAGES.modelRequired),
    trim: optionalText(100),
    stockNumber: requiredText(VEHICLE_MESSAGES.stockRequired, 50),
    condition: z.enum(VEHICLE_CONDITIONS, { message: VEHICLE_MESSAGES.condition }),
    exteriorColor: optionalText(50),
    interiorColor: optionalText(50),
    price: optionalWholeNumber(VEHICLE_PRICE_MAX_CENTS, VEHICLE_MESSAGES.price),
    mileage: optionalWholeNumber(VEHICLE_MILEAGE_MAX, VEHICLE_MESSAGES.mileage),
    vin: vinField,
    fuelType: optionalText(50),
    transmission: optionalText(50),
    engineType: optionalText(50),
    drivetrain: optionalText(50),
    description: optionalText(5000),
    features: stringList,
    images: stringList,
    isTestDriveEnabled: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (!v.vin || !/^\d{4}$/.test(v.year)) return;
    const years = vinModelYears(v.vin);
    if (!years.includes(Number(v.year))) ctx.addIssue({ code: "custom", path: ["vin"], message: VEHICLE_MESSAGES.vinYear });
  });
export type CreateVehicleInput = z.input<typeof createVehicleSchema>;

/** POST /api/dealerships/{id}/test-drive-units (part 2 §5: the same year, make, model and stock number rules). */
export const createTestDriveUnitSchema = z.object({
  year: vehicleYearField,
  make: requiredText(VEHICLE_MESSAGES.makeRequired),
  model: requiredText(VEHICLE_MESSAGES.modelRequired),
  stockNumber: requiredText(VEHICLE_MESSAGES.stockRequired, 50),
});
export type CreateTestDriveUnitInput = z.input<typeof createTestDriveUnitSchema>;

/**
 * PUT /api/vehicles/{id}/test-drive-status and PUT /api/test-drive-units/{id}/status (part 2 §7: body status,
 * clientName). "available" returns the vehicle and ends its open drive; a vehicle goes out only with a test drive
 * (POST /api/test-drives), so "out" here is refused with a 409 that says so (decision 062).
 */
export const testDriveStatusChangeSchema = z.object({
  status: z.enum(TEST_DRIVE_AVAILABILITY, { message: "Status must be available or out" }),
  clientName: z.string().trim().max(200).nullish(),
});

const pageLimit = z.coerce
  .number({ message: `limit must be a number from 1 to ${VEHICLES_PAGE_MAX}` })
  .int({ message: `limit must be a number from 1 to ${VEHICLES_PAGE_MAX}` })
  .min(1, { message: `limit must be a number from 1 to ${VEHICLES_PAGE_MAX}` })
  .max(VEHICLES_PAGE_MAX, { message: `limit must be a number from 1 to ${VEHICLES_PAGE_MAX}` })
  .default(VEHICLES_PAGE_DEFAULT);

/**
 * The query of GET /api/dealerships/{id}/vehicles: q searches year, make, model, trim, stock number and VIN; the
 * filters narrow it (AND). Sorted by year (newest first), make, model, stock number.
 */
export const vehicleListQuerySchema = z.object({
  q: z.string().trim().max(200, { message: "Search is too long" }).optional(),
  make: z.string().trim().max(100).optional(),
  model: z.string().trim().max(100).optional(),
  year: z
    .string()
    .trim()
    .regex(/^\d{4}$/, { message: "year must be a 4-digit year" })
    .optional(),
  condition: z.enum(VEHICLE_CONDITIONS, { message: VEHICLE_MESSAGES.condition }).optional(),
  status: z.enum(TEST_DRIVE_AVAILABILITY, { message: "status must be available or out" }).optional(),
  limit: pageLimit,
  cursor: z.string().max(300).optional(),
});
export type VehicleListQuery = z.input<typeof vehicleListQuerySchema>;

/** The query of GET /api/dealerships/{id}/test-drive-units. */
export const testDriveUnitListQuerySchema = z.object({
  q: z.string().trim().max(200, { message: "Search is too long" }).optional(),
  status: z.enum(TEST_DRIVE_AVAILABILITY, { message: "status must be available or out" }).optional(),
  limit: pageLimit,
  cursor: z.string().max(300).optional(),
});

// ---- Answers ----

/** The earliest scheduled drive of a vehicle from today on (the "booked" icon). */
export const vehicleBookingSchema = z.strictObject({
  testDriveId: entityId,
  testDriveDate: z.iso.date(),
  testDriveTime: z.string().nullable(),
  /** Null when the viewer may not open the drive's lead (a colleague's client for a sales rep; decision 177). */
  clientName: z.string().nullable(),
});

/** Part 2 §3 Vehicle; `booking` is ours (decision 062). Price in cents. */
export const vehicleSchema = z.strictObject({
  id: entityId,
  dealershipId: entityId,
  year: z.string(),
  make: z.string(),
  model: z.string(),
  trim: z.string().nullable(),
  stockNumber: z.string(),
  vin: z.string().nullable(),
  condition: z.enum(VEHICLE_CONDITIONS),
  price: z.number().int().nonnegative().nullable(),
  mileage: z.number().int().nonnegative().nullable(),
  exteriorColor: z.string().nullable(),
  interiorColor: z.string().nullable(),
  fuelType: z.string().nullable(),
  transmission: z.string().nullable(),
  engineType: z.string().nullable(),
  drivetrain: z.string().nullable(),
  features: z.array(z.string()),
  images: z.array(z.string()),
  description: z.string().nullable(),
  isTestDriveEnabled: z.boolean(),
  testDriveStatus: z.enum(TEST_DRIVE_AVAILABILITY),
  currentTestDriveId: entityId.nullable(),
  /** Who the vehicle is out with; null when not out or when the viewer may not open the drive's lead (decision 177). */
  currentClientName: z.string().nullable(),
  takenOutAt: timestamp.nullable(),
  takenOutBy: entityId.nullable(),
  isActive: z.boolean(),
  createdBy: entityId.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  booking: vehicleBookingSchema.nullable(),
});
export type Vehicle = z.infer<typeof vehicleSchema>;

/** Part 2 §3 Test-drive unit: the dealership's demo and loaner units. */
export const testDriveUnitSchema = z.strictObject({
  id: entityId,
  dealershipId: entityId,
  year: z.string(),
  make: z.string(),
  model: z.string(),
  stockNumber: z.string(),
  isActive: z.boolean(),
  status: z.enum(TEST_DRIVE_AVAILABILITY),
  currentTestDriveId: entityId.nullable(),
  currentUserId: entityId.nullable(),
  currentUserName: z.string().nullable(),
  takenOutAt: timestamp.nullable(),
  createdBy: entityId.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type TestDriveUnit = z.infer<typeof testDriveUnitSchema>;

/** Which of the four icons a vehicle shows (part 2 §2). */
export function vehicleDisplayStatus(vehicle: Pick<Vehicle, "isActive" | "isTestDriveEnabled" | "testDriveStatus" | "booking">): VehicleDisplayStatus {
  if (vehicle.testDriveStatus === "out") return "out";
  if (!vehicle.isActive || !vehicle.isTestDriveEnabled) return "unavailable";
  return vehicle.booking ? "booked" : "available";
}

/** "Remove {year} {make} {model} from inventory?" (part 2 §2). */
export function removeVehicleConfirmText(vehicle: Pick<Vehicle, "year" | "make" | "model">): string {
  return `Remove ${vehicle.year} ${vehicle.make} ${vehicle.model} from inventory?`;
}

export const responses = {
  /** One page; the next page's URL is in the Link header (decision 012). */
  "GET /api/dealerships/:id/vehicles": z.array(vehicleSchema),
  "POST /api/dealerships/:id/vehicles": vehicleSchema,
  "DELETE /api/vehicles/:id": messageSchema,
  /** The vehicle after the change (returned: available, its drive ended). */
  "PUT /api/vehicles/:id/test-drive-status": vehicleSchema,
  "GET /api/dealerships/:id/test-drive-units": z.array(testDriveUnitSchema),
  "POST /api/dealerships/:id/test-drive-units": testDriveUnitSchema,
  "DELETE /api/test-drive-units/:id": messageSchema,
  "PUT /api/test-drive-units/:id/status": testDriveUnitSchema,
} as const satisfies Record<string, z.ZodType>;
