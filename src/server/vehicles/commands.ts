import type { UnitSnapshot, VehicleSnapshot } from "../../shared/events";
import { actorIdOf, type Viewer, writeInDealership } from "../auth/tenancy";
import type { Db } from "../db/client";
import { publish } from "../events/outbox";
import { linkLeadsWaitingFor } from "../intake/vehicles-of-interest";
import { addUnit, addVehicle, removeUnit, removeVehicle, type NewVehicle, type RemoveOutcome, type UnitRow, type VehicleRow } from "./queries";

// The inventory's changes (issue 25): each is the scoped write and its one domain event in one transaction that holds
// the dealership (decision 176). A refused change (stock number taken, vehicle out, not found) publishes nothing.
// Taking out and returning are test-drive events (test-drives/commands.ts), not vehicle events.

export function vehicleSnapshot(row: VehicleRow): VehicleSnapshot {
  return { id: row.id, stockNumber: row.stockNumber, year: row.year, make: row.make, model: row.model, trim: row.trim, condition: row.condition, vin: row.vin };
}

export function unitSnapshot(row: UnitRow): UnitSnapshot {
  return { id: row.id, stockNumber: row.stockNumber, year: row.year, make: row.make, model: row.model };
}

const by = (viewer: Viewer) => ({ dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer) });

/** Adds a vehicle (vehicle.added), or undefined when its stock number is taken. */
export function addVehicleToInventory(db: Db, viewer: Viewer, values: NewVehicle): Promise<VehicleRow | undefined> {
  return writeInDealership(db, viewer, async (tx) => {
    const row = await addVehicle(tx, viewer, values);
    if (!row) return undefined;
    // Open leads that asked for this vehicle before it was in the inventory are linked to it (decision 188).
    await linkLeadsWaitingFor(tx, row);
    await publish(tx, { ...by(viewer), type: "vehicle.added", payload: { vehicle: vehicleSnapshot(row) } });
    return row;
  });
}

/** Removes a vehicle that is not out (vehicle.removed). */
export function removeVehicleFromInventory(db: Db, viewer: Viewer, id: string): Promise<RemoveOutcome<VehicleRow>> {
  return writeInDealership(db, viewer, async (tx) => {
    const outcome = await removeVehicle(tx, viewer, id);
    if (typeof outcome === "object") await publish(tx, { ...by(viewer), type: "vehicle.removed", payload: { vehicle: vehicleSnapshot(outcome.removed) } });
    return outcome;
  });
}

/** Adds a test-drive unit (unit.added), or undefined when its stock number is taken. */
export function addUnitToInventory(db: Db, viewer: Viewer, values: Parameters<typeof addUnit>[2]): Promise<UnitRow | undefined> {
  return writeInDealership(db, viewer, async (tx) => {
    const row = await addUnit(tx, viewer, values);
    if (row) await publish(tx, { ...by(viewer), type: "unit.added", payload: { unit: unitSnapshot(row) } });
    return row;
  });
}

/** Removes a unit that is not out (unit.removed). */
export function removeUnitFromInventory(db: Db, viewer: Viewer, id: string): Promise<RemoveOutcome<UnitRow>> {
  return writeInDealership(db, viewer, async (tx) => {
    const outcome = await removeUnit(tx, viewer, id);
    if (typeof outcome === "object") await publish(tx, { ...by(viewer), type: "unit.removed", payload: { unit: unitSnapshot(outcome.removed) } });
    return outcome;
  });
}
