import { eq, sql } from "drizzle-orm";
import { businessHoursOrDefault } from "../../shared/business-hours";
import type { DealershipSettingsUpdate } from "../../shared/schemas/dealership-settings";
import type { DealershipSettingsAnswer } from "../../shared/schemas/responses/dealership-settings";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import { users } from "../db/schema/users";
import { forbidden } from "../http/errors";

// The dealership's own settings (issue 30, decision 191): its details, time zone and business hours. Every time the
// app shows or computes lives in UTC (timestamps) or is a wall-clock slot (an appointment's date and time), so a new
// time zone moves nothing stored: instants read on the new clock, slots stay at the hour they were booked for.

type Executor = Db | Tx;
type DealershipRow = typeof dealerships.$inferSelect;

const SETTINGS_FIELDS = ["name", "address", "phone", "email", "website", "timezone", "businessHours"] as const;
type SettingsField = (typeof SETTINGS_FIELDS)[number];

function answerOf(row: DealershipRow): DealershipSettingsAnswer {
  return {
    name: row.name,
    address: row.address,
    phone: row.phone,
    email: row.email,
    website: row.website,
    timezone: row.timezone,
    businessHours: businessHoursOrDefault(row.businessHours),
    savedAt: row.settingsSavedAt?.toISOString() ?? null,
  };
}

export async function settingsOf(db: Executor, dealershipId: string): Promise<DealershipSettingsAnswer> {
  const [row] = await db.select().from(dealerships).where(eq(dealerships.id, dealershipId)).limit(1);
  if (!row) throw new Error(`dealership ${dealershipId} not found`);
  return answerOf(row);
}

/** JSON with object keys in one order: jsonb hands the hours back with its own key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

export type SettingsChanges = Partial<Record<SettingsField, { before: unknown; after: unknown }>>;

/**
 * Saves a change of the settings and answers them with what changed. The dealership's row is locked for the update
 * first (not FOR SHARE and then upgraded, which deadlocks two managers saving at once), with the writer's account
 * held as writeInDealership holds it (decision 176); 403 once the dealership is out of service.
 */
export async function saveSettings(
  tx: Tx,
  viewer: { userId: string; dealershipId: string },
  change: DealershipSettingsUpdate,
): Promise<{ settings: DealershipSettingsAnswer; changes: SettingsChanges; firstSave: boolean }> {
  const held = await tx.execute(sql`
    select d.id from ${dealerships} d join ${users} u on u.id = ${viewer.userId}
    where d.id = ${viewer.dealershipId} and d.active
    for no key update of d for key share of u`);
  if (rowsOf(held).length === 0) throw forbidden("You do not have access to this dealership");
  const [before] = await tx.select().from(dealerships).where(eq(dealerships.id, viewer.dealershipId));
  const was = answerOf(before!);
  const changes: SettingsChanges = {};
  for (const field of SETTINGS_FIELDS) {
    const after = change[field];
    if (after === undefined) continue;
    if (canonical(after) !== canonical(was[field])) changes[field] = { before: was[field], after };
  }
  const firstSave = before!.settingsSavedAt === null;
  if (Object.keys(changes).length === 0 && !firstSave) return { settings: was, changes, firstSave };
  const [row] = await tx
    .update(dealerships)
    .set({ ...change, settingsSavedAt: new Date() })
    .where(eq(dealerships.id, viewer.dealershipId))
    .returning();
  return { settings: answerOf(row!), changes, firstSave };
}
