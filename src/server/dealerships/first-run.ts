import { eq, sql } from "drizzle-orm";
import { FIRST_RUN_STEPS, type FirstRunStep } from "../../shared/schemas/dealership-settings";
import type { FirstRun } from "../../shared/schemas/responses/dealership-settings";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealershipInvites, dealershipUsers, dealerships } from "../db/schema/dealerships";
import { intakeCredentials } from "../db/schema/intake";
import { vehicles } from "../db/schema/test-drives";

// The first-run checklist (issue 30, decision 192): what a new dealership still lacks, read from its records on every
// request, so a step is done the moment its work is (whoever did it, in the app or through the API). It is shown to
// management until every step is done or someone dismissed it; dismissal is the dealership's, not one person's: the
// checklist is about the dealership's setup, and a second manager need not dismiss it again.

type Executor = Db | Tx;

export async function firstRunOf(db: Executor, dealershipId: string): Promise<FirstRun> {
  const result = await db.execute(sql`
    select
      -- Set up: the settings saved once (time zone and hours confirmed) with the address and phone customers need.
      (d.settings_saved_at is not null and d.address is not null and d.phone is not null) as settings,
      (exists (select 1 from ${dealershipInvites} i where i.dealership_id = d.id)
        or (select count(*) from ${dealershipUsers} m where m.dealership_id = d.id and m.active) > 1) as team,
      exists (select 1 from ${vehicles} v where v.dealership_id = d.id) as vehicles,
      exists (select 1 from ${intakeCredentials} c where c.dealership_id = d.id and c.revoked_at is null) as intake,
      d.first_run_dismissed_at as dismissed_at
    from ${dealerships} d where d.id = ${dealershipId}`);
  const row = rowsOf<Record<FirstRunStep, boolean> & { dismissed_at: string | Date | null }>(result)[0];
  if (!row) throw new Error(`dealership ${dealershipId} not found`);
  const steps = FIRST_RUN_STEPS.map((step) => ({ step, done: Boolean(row[step]) }));
  const dismissedAt = row.dismissed_at === null ? null : new Date(row.dismissed_at).toISOString();
  return { show: dismissedAt === null && steps.some((s) => !s.done), dismissedAt, steps };
}

/**
 * Dismisses the checklist of a dealership in service; answers whether this call did (a second dismissal, or one racing
 * it, changes nothing and publishes nothing). One conditional statement: no lock taken first to upgrade later.
 */
export async function dismissFirstRun(tx: Tx, dealershipId: string): Promise<boolean> {
  const updated = await tx
    .update(dealerships)
    .set({ firstRunDismissedAt: new Date() })
    .where(sql`${eq(dealerships.id, dealershipId)} and ${dealerships.active} and ${dealerships.firstRunDismissedAt} is null`)
    .returning({ id: dealerships.id });
  return updated.length > 0;
}
