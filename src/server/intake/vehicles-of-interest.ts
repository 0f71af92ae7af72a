import { and, eq, sql, type SQL } from "drizzle-orm";
import type { WantedVehicle } from "../../shared/schemas/vehicle-of-interest";
import type { Tx } from "../db/client";
import { leads } from "../db/schema/leads";
import { vehicles } from "../db/schema/test-drives";
import { vehiclesOfInterest } from "../db/schema/vehicles-of-interest";

// A lead's vehicles of interest linked to the dealership's inventory (issue 29, decision 188). The customer's VIN
// matches a vehicle with that VIN; a stock number matches a vehicle with that stock number (any case) unless both
// have VINs and they differ (then it is another car under a recycled stock number). Linked when the lead arrives,
// and, for a lead still open, when the vehicle is added to the inventory later (a provider's listing ahead of ours).

/**
 * Intake and inventory take this lock per dealership before they look for each other's rows: without it an ADF
 * document and the vehicle it names, committed at the same moment, would each miss the other and never link. It is
 * held to the commit, and each later statement reads what the other committed (READ COMMITTED).
 */
async function holdInventoryLinks(tx: Tx, dealershipId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vehicles_of_interest'), hashtext(${dealershipId}))`);
}

/** The match between an interest's VIN and stock number and a vehicle's, as SQL over the two. */
function matches(interest: { vin: SQL | string | null; stock: SQL | string | null }, vehicle: { vin: SQL; stock: SQL }): SQL {
  const vin = sql`${interest.vin}::text`;
  const stock = sql`${interest.stock}::text`;
  return sql`((${vin} is not null and ${vehicle.vin} = ${vin})
    or (${stock} is not null and upper(${vehicle.stock}) = upper(${stock}) and (${vin} is null or ${vehicle.vin} is null or ${vehicle.vin} = ${vin})))`;
}

/** Records a new lead's vehicles of interest, each linked to the inventory vehicle it matches (a VIN match first). */
export async function recordVehiclesOfInterest(tx: Tx, dealershipId: string, leadId: string, wanted: WantedVehicle[]): Promise<void> {
  if (wanted.length === 0) return;
  await holdInventoryLinks(tx, dealershipId);
  for (const { interest, vin, stockNumber } of wanted) {
    const match = matches({ vin, stock: stockNumber }, { vin: sql`v.vin`, stock: sql`v.stock_number` });
    const vehicleId = sql`(select v.id from ${vehicles} v where v.dealership_id = ${dealershipId} and ${match}
      order by (v.vin is not distinct from ${vin}::text) desc, v.id limit 1)`;
    await tx.insert(vehiclesOfInterest).values({ dealershipId, leadId, interest, vin, stockNumber, vehicleId });
  }
}

/** Links the open leads waiting for a vehicle just added to the inventory (same transaction as the add). */
export async function linkLeadsWaitingFor(tx: Tx, vehicle: typeof vehicles.$inferSelect): Promise<void> {
  await holdInventoryLinks(tx, vehicle.dealershipId);
  const match = matches({ vin: sql`${vehiclesOfInterest.vin}`, stock: sql`${vehiclesOfInterest.stockNumber}` }, { vin: sql`${vehicle.vin}::text`, stock: sql`${vehicle.stockNumber}::text` });
  await tx
    .update(vehiclesOfInterest)
    .set({ vehicleId: vehicle.id })
    .where(
      and(
        eq(vehiclesOfInterest.dealershipId, vehicle.dealershipId),
        sql`${vehiclesOfInterest.vehicleId} is null`,
        match,
        sql`exists (select 1 from ${leads} l where l.id = ${vehiclesOfInterest.leadId} and l.status not in ('closed', 'lost'))`,
      ),
    );
}
