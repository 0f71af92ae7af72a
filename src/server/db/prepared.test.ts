// PostgreSQL only (TEST_DATABASE_URL): it reads the server's pg_prepared_statements and generic plans, which PGlite
// does not keep the same way; on PGlite this file is skipped.
import { eq, sql } from "drizzle-orm";
import { parseDomainEvent } from "../../shared/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { resumeSession, startSession } from "../auth/sessions";
import { claimLead, listLeads } from "../leads/queries";
import { triggerRecipients } from "../notifications/email-triggers";
import { notifyInAppAll } from "../notifications/in-app";
import { makeDealership, makeUser } from "./factories";
import { makeLead } from "./factories-leads";
import { rowsOf, type Database } from "./client";
import { domainEvents } from "./schema/events";
import { notifications } from "./schema/notifications";

// A prepared statement is only planned once if PostgreSQL settles on its generic plan: after five executions it
// compares the generic plan with the custom ones and keeps planning for each call's values when the custom plans look
// cheaper (as they did for a session statement whose role lookup fell away when no dealership was given: 0.3 ms of
// planning on every claim). One connection, so what it prepared is what pg_prepared_statements shows.

describe.runIf(process.env.TEST_DATABASE_URL)("the hot path's prepared statements on PostgreSQL", () => {
  let database: Database & { drop(): Promise<void> };
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 1 });
  });
  afterAll(() => database.drop());

  it("settle on one generic plan: the session with and without a dealership, the claim, the prepared lists, the bell's rows", async () => {
    const db = database.db;
    const policy = { idleMs: 60 * 60_000, absoluteMs: 24 * 60 * 60_000 };
    const dealershipId = (await makeDealership(db)).id;
    const rep = await makeUser(db, { memberships: [{ dealershipId, role: "sales" }] });
    const manager = await makeUser(db, { memberships: [{ dealershipId, role: "management" }] });
    const { token } = await startSession(db, rep.id, policy);
    const runs = 10;
    for (let i = 0; i < runs; i++) {
      const lead = await makeLead(db, { dealershipId });
      expect(await resumeSession(db, token, policy)).toMatchObject({ userId: rep.id });
      expect((await resumeSession(db, token, policy, dealershipId))?.dealership).toEqual({ id: dealershipId, role: "sales" });
      expect((await claimLead(db, { id: rep.id, name: "Rep" }, lead.id)).claimed).toMatchObject({ id: lead.id, claimedBy: rep.id });
      expect((await claimLead(db, { id: rep.id, name: "Rep" }, lead.id)).claimed).toBeNull();
      await listLeads(db, { userId: rep.id, dealershipId, role: "sales", isPlatformAdmin: false }, { type: "new", limit: 20 });
      await listLeads(db, { userId: manager.id, dealershipId, role: "management", isPlatformAdmin: false }, { limit: 20 });
    }
    // The dispatcher's bell rows, inside its transaction: one batch per claim's event, each telling the manager.
    const published = await db.select().from(domainEvents).orderBy(domainEvents.id);
    expect(published).toHaveLength(runs);
    for (const row of published) {
      await db.transaction(async (tx) => {
        await notifyInAppAll(tx, [{ ...parseDomainEvent(row), id: row.id, createdAt: row.createdAt }]);
        expect(await triggerRecipients(tx, dealershipId, "lead_claimed", [rep.id])).toEqual([]);
      });
    }
    expect(await db.select().from(notifications).where(eq(notifications.userId, manager.id))).toHaveLength(runs);
    const prepared = rowsOf<{ name: string; generic_plans: string; custom_plans: string }>(
      await db.execute(sql`select name, generic_plans, custom_plans from pg_prepared_statements order by name`),
    );
    const plans = Object.fromEntries(prepared.map((p) => [p.name, { generic: Number(p.generic_plans), custom: Number(p.custom_plans) }]));
    for (const name of ["session_resume", "session_resume_in_dealership", "lead_claim", "bell_rows", "email_trigger_recipients", "leads_list_new_own_", "leads_list_all_all_"]) {
      expect(plans[name], name).toBeDefined();
      // Five custom plans to compare with, then the generic plan for every call after.
      expect(plans[name]!.custom, name).toBeLessThanOrEqual(5);
      expect(plans[name]!.generic, name).toBeGreaterThan(0);
    }
  });
});
