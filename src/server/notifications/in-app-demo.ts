import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { DomainEvent } from "../../shared/events";
import { leads } from "../db/schema/leads";
import { notifications } from "../db/schema/notifications";
import type { DemoWorld } from "../db/seed-demo";
import { leadSnapshot } from "../leads/queries";
import { notifyInApp } from "./in-app";

// The demo's bells (issue 11): the demo leads are written straight to the tables, so no event told anyone about
// them. The last day's leads are played through the same writer as live events, each dated when it happened; the
// ones older than a few hours are already read, so the badge shows what came in this morning.

const WINDOW_HOURS = 30;
const UNREAD_HOURS = 5;

export async function seedDemoNotifications(world: DemoWorld, now: Date = new Date()): Promise<void> {
  const { db, users } = world;
  const since = new Date(now.getTime() - WINDOW_HOURS * 3_600_000);
  const recent = await db.select().from(leads).where(gt(leads.createdAt, since)).orderBy(asc(leads.createdAt));
  await db.transaction(async (tx) => {
    for (const row of recent) {
      const atDesk = row.dealershipId === world.dealerships.northside.id ? users.frontDesk.id : null;
      // A rep's own client came in through them; the rest were typed in at the front desk.
      const actorId = row.claimedBy ?? atDesk;
      const events: DomainEvent[] = [{ type: "lead.created", dealershipId: row.dealershipId, actorId, payload: { lead: { ...leadSnapshot(row), status: row.claimedBy ? "claimed" : "new" } } }];
      if (row.status !== "new" && row.status !== "claimed") {
        events.push({ type: "lead.status_changed", dealershipId: row.dealershipId, actorId, payload: { lead: leadSnapshot(row), previousStatus: "claimed" } });
      }
      for (const event of events) {
        await notifyInApp(tx, event);
        const at = event.type === "lead.created" ? row.createdAt : (row.claimedAt ?? row.createdAt);
        const type = event.type === "lead.created" ? "lead_created" : "lead_status_changed";
        await tx
          .update(notifications)
          .set({ createdAt: at })
          .where(and(eq(notifications.leadId, row.id), eq(notifications.type, type)));
      }
    }
    await tx.update(notifications).set({ read: true }).where(lt(notifications.createdAt, new Date(now.getTime() - UNREAD_HOURS * 3_600_000)));
  });
}
