import type { DealershipSettingsUpdate } from "../../shared/schemas/dealership-settings";
import type { DealershipSettingsAnswer, FirstRun } from "../../shared/schemas/responses/dealership-settings";
import type { Viewer } from "../auth/tenancy";
import type { Db } from "../db/client";
import { publish } from "../events/outbox";
import { dismissFirstRun, firstRunOf } from "./first-run";
import { saveSettings, settingsOf } from "./settings";

// The dealership's own changes (issue 25; issue 30, decisions 191, 192): each is its write and its one event in one
// transaction. Both write the dealership's row itself, so neither takes writeInDealership's shared hold of it first
// (a shared lock upgraded to the update's would deadlock two managers at once): the settings lock the row for update
// with the writer's account held (settings.ts), the dismissal is one conditional UPDATE of a dealership in service.
// Who may call them is the route's to check (management).

/**
 * Saves a change of the settings and answers them (dealership.settings_changed with every changed field, before and
 * after). The first save publishes even when it changes nothing (it confirms the time zone and hours, decision 191);
 * any later save of the settings as they are publishes nothing. 403 once the dealership is out of service.
 */
export function changeDealershipSettings(db: Db, viewer: Viewer, change: DealershipSettingsUpdate): Promise<DealershipSettingsAnswer> {
  return db.transaction(async (tx) => {
    const { settings, changes, firstSave } = await saveSettings(tx, viewer, change);
    if (firstSave || Object.keys(changes).length > 0) {
      await publish(tx, {
        type: "dealership.settings_changed",
        dealershipId: viewer.dealershipId,
        actorId: viewer.userId,
        payload: { dealership: { id: viewer.dealershipId, name: settings.name }, changes },
      });
    }
    return settings;
  });
}

/**
 * Dismisses the first-run checklist for the whole dealership (dealership.first_run_dismissed) and answers the
 * checklist; a second dismissal, or one racing it, changes nothing and publishes nothing.
 */
export function dismissFirstRunChecklist(db: Db, viewer: Viewer): Promise<FirstRun> {
  return db.transaction(async (tx) => {
    if (await dismissFirstRun(tx, viewer.dealershipId)) {
      const { name } = await settingsOf(tx, viewer.dealershipId);
      await publish(tx, { type: "dealership.first_run_dismissed", dealershipId: viewer.dealershipId, actorId: viewer.userId, payload: { dealership: { id: viewer.dealershipId, name } } });
    }
    return firstRunOf(tx, viewer.dealershipId);
  });
}
