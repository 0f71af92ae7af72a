import type { DistributionSettings, DistributionUpdate, RepAvailability } from "../../shared/schemas/distribution";
import { actorIdOf, type Viewer, writeInDealership } from "../auth/tenancy";
import type { Db } from "../db/client";
import { repsAvailability, saveDistribution, setOnFloor } from "../distribution/settings";
import { publish } from "../events/outbox";
import { forbidden } from "../http/errors";
import { saveLostReasons } from "./lost-reasons";

// How the dealership works its leads (issue 27, decisions 201, 202), changed by management and by reps about
// themselves (issue 25): each is the scoped write and its one event in one transaction that holds the dealership
// (decision 176); saving what is already there publishes nothing. Who may call each is the route's to check.

export const FLOOR_FORBIDDEN = "Only sales reps go on or off the floor";

/** Replaces the lost reasons (lost_reasons.updated when the list differs); answers the list saved. */
export function changeLostReasons(db: Db, viewer: Viewer, reasons: string[]): Promise<string[]> {
  return writeInDealership(db, viewer, async (tx) => {
    const { before, after } = await saveLostReasons(tx, viewer.dealershipId, viewer.userId, reasons);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await publish(tx, { type: "lost_reasons.updated", dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer), payload: { reasons: after, previous: before } });
    }
    return after;
  });
}

/** Sets how new leads are handed out (lead_distribution.updated when the mode or the wait changes). */
export function changeDistribution(db: Db, viewer: Viewer, change: DistributionUpdate): Promise<DistributionSettings> {
  return writeInDealership(db, viewer, async (tx) => {
    const { before, after } = await saveDistribution(tx, viewer.dealershipId, viewer.userId, change);
    if (before.mode !== after.mode || before.autoAssignAfterMinutes !== after.autoAssignAfterMinutes) {
      await publish(tx, { type: "lead_distribution.updated", dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer), payload: { settings: after, previous: before } });
    }
    return after;
  });
}

/** A rep goes on or off the floor (rep.availability_changed when it changes); 403 when their membership just ended. */
export function changeRepOnFloor(db: Db, viewer: Viewer, onFloor: boolean): Promise<RepAvailability> {
  return writeInDealership(db, viewer, async (tx) => {
    const changed = await setOnFloor(tx, viewer.dealershipId, viewer.userId, onFloor);
    const [me] = await repsAvailability(tx, viewer.dealershipId, viewer.userId);
    if (!me) throw forbidden(FLOOR_FORBIDDEN);
    if (changed) {
      await publish(tx, { type: "rep.availability_changed", dealershipId: viewer.dealershipId, actorId: actorIdOf(viewer), payload: { rep: { id: me.userId, name: me.name }, onFloor } });
    }
    return me;
  });
}
