import { and, eq } from "drizzle-orm";
import type { DemoWorld } from "../db/seed-demo";
import { dealershipInvites } from "../db/schema/dealerships";
import { emailNotificationSubscriptions, emailNotificationTriggers } from "../db/schema/notifications";
import type { EmailTriggerName } from "../notifications/email-triggers";
import { inviteExpiry } from "./invites";

/**
 * Demo data of the team area: pending and expired invitations at Northside (so the admin panel shows both),
 * and e-mail subscriptions a real dealership would start with.
 */
export async function seedDemoTeam(world: DemoWorld): Promise<void> {
  const { db } = world;
  const northside = world.dealerships.northside.id;
  const manager = world.users.management.id;
  const dayMs = 86_400_000;
  await db.insert(dealershipInvites).values([
    { email: "jordan.new@demo.showroom", firstName: "Jordan", lastName: "Rivera", role: "sales", dealershipId: northside, invitedBy: manager, expiresAt: inviteExpiry() },
    {
      email: "casey.desk@demo.showroom",
      firstName: "Casey",
      lastName: "Morgan",
      role: "frontDesk",
      dealershipId: northside,
      invitedBy: manager,
      invitedAt: new Date(Date.now() - 9 * dayMs),
      expiresAt: new Date(Date.now() - 2 * dayMs),
    },
  ]);

  const subscribe = async (dealershipId: string, userId: string, trigger: EmailTriggerName) => {
    const [row] = await db
      .select({ id: emailNotificationTriggers.id })
      .from(emailNotificationTriggers)
      .where(and(eq(emailNotificationTriggers.dealershipId, dealershipId), eq(emailNotificationTriggers.name, trigger)));
    if (row) await db.insert(emailNotificationSubscriptions).values({ dealershipId, userId, triggerId: row.id, isSubscribed: true }).onConflictDoNothing();
  };
  await subscribe(northside, manager, "lead_created");
  await subscribe(northside, manager, "appointment_created");
  await subscribe(northside, world.users.frontDesk.id, "lead_created");
  await subscribe(northside, world.users.sales.id, "unattended_leads_reminder");
  await subscribe(northside, world.users.sales2.id, "unattended_leads_reminder");
  await subscribe(northside, world.users.sales.id, "lead_claimed");
}
