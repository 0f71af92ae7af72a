import { describe, expect, it } from "vitest";
import { createVehicleSchema } from "../../shared/schemas/vehicle";
import { addVehicleRequest, EMPTY, isDollarAmount, priceInCents } from "./add-vehicle-request";

const civic = { ...EMPTY, year: "2025", make: "Honda", model: "Civic", stockNumber: "A1234" };

describe("the Add Vehicle request (spec part 2 §5, §7)", () => {
  it("sends the price typed in dollars in cents", () => {
    expect(priceInCents("24500")).toBe(2_450_000);
    expect(priceInCents("$24,500.99")).toBe(2_450_099);
    expect(priceInCents("19.1")).toBe(1910);
    expect(addVehicleRequest({ ...civic, price: "24,500" }).price).toBe(2_450_000);
  });

  it("leaves out a price or a mileage that was not given", () => {
    const body = addVehicleRequest(civic);
    expect("price" in body).toBe(false);
    expect("mileage" in body).toBe(false);
    expect(createVehicleSchema.parse(body)).toMatchObject({ price: null, mileage: null, condition: "new" });
  });

  it("sends the mileage as a whole number", () => {
    expect(addVehicleRequest({ ...civic, mileage: "12,000" }).mileage).toBe(12000);
  });

  it("lets the shared schema name a mileage that is no whole number", () => {
    const result = createVehicleSchema.safeParse(addVehicleRequest({ ...civic, mileage: "12.5" }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["mileage"]);
  });

  it("accepts dollars with up to two decimals only", () => {
    for (const ok of ["", "0", "24500", "$24,500.50", "24500.5"]) expect(isDollarAmount(ok), ok).toBe(true);
    for (const bad of ["abc", "24.999", "-5", "1e5"]) expect(isDollarAmount(bad), bad).toBe(false);
  });
});
