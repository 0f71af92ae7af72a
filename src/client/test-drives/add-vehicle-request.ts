import type { CreateVehicleInput } from "../../shared/schemas/vehicle";

// The Add Vehicle form's values and the POST /api/dealerships/{id}/vehicles body made from them (spec part 2 §5, §7):
// the price typed in dollars is sent in cents (×100), the mileage as a whole number, each only when given.

export interface AddVehicleValues {
  year: string;
  make: string;
  model: string;
  trim: string;
  stockNumber: string;
  condition: "new" | "used";
  exteriorColor: string;
  price: string;
  mileage: string;
  vin: string;
}

export const EMPTY: AddVehicleValues = { year: "", make: "", model: "", trim: "", stockNumber: "", condition: "new", exteriorColor: "", price: "", mileage: "", vin: "" };

export const DOLLARS_MESSAGE = "Price must be an amount in dollars, e.g. 24500 or 24500.99";
const DOLLARS = /^\d+(\.\d{1,2})?$/;
/** "$24,500.99" → "24500.99": what a person types around a number. */
const cleanNumber = (text: string) => text.replace(/[$,\s]/g, "");

/** Empty, or dollars with at most two decimals ("$" and thousands separators allowed). */
export function isDollarAmount(text: string): boolean {
  const clean = cleanNumber(text);
  return clean === "" || DOLLARS.test(clean);
}

/** "24,500.99" dollars → 2450099 cents; empty → null. */
export function priceInCents(text: string): number | null {
  const clean = cleanNumber(text);
  if (clean === "") return null;
  return Math.round(Number(clean) * 100);
}

export function addVehicleRequest(values: AddVehicleValues): CreateVehicleInput {
  const mileage = cleanNumber(values.mileage);
  const price = cleanNumber(values.price);
  return {
    year: values.year,
    make: values.make,
    model: values.model,
    trim: values.trim,
    stockNumber: values.stockNumber,
    condition: values.condition,
    exteriorColor: values.exteriorColor,
    // A price that is no amount of dollars is the form's own message; it is not sent.
    ...(price !== "" && DOLLARS.test(price) ? { price: priceInCents(price) } : {}),
    // A mileage that is no whole number goes as typed, so the shared schema names the problem.
    ...(mileage !== "" ? { mileage: /^\d+$/.test(mileage) ? Number(mileage) : mileage } : {}),
    vin: values.vin,
  };
}
