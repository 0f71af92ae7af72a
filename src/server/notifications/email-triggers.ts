import { and, asc, eq, sql } from "drizzle-orm";
import type { EmailSubscription, EmailTrigger } from "../../shared/schemas/team";
import type { Db, Tx } from "../db/client";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { emailNotificationSubscriptions, emailNotificationTriggers } from "../db/schema/notifications";
import { users } from "../db/schema/users";
import { badRequest, notFound } from "../http/errors";
import type { Mailer } from "../mail/mailer";
import { fixedStatement, runStatement } from "../db/prepared";

// E-mail notifications (part 2 §2 Email Notifications, §3, §4; decision 034). Each dealership has one row per
// trigger below; management turns a trigger on or off and chooses who is subscribed. When the
// trigger's domain event is dispatched, `notifyByEmail` queues a mail to each subscribed active member (email-events.ts).

export const EMAIL_TRIGGERS = [
  {
    name: "lead_created",
    displayName: "New Lead",
    description: "A new lead is added to the dealership, from the app or an integration.",
  },
  {
    name: "lead_claimed",
    displayName: "Lead Claimed",
    description: "A sales associate claims a lead, or a lead is assigned to a rep.",
  },
  {
    name: "lead_status_changed",
    displayName: "Lead Status Changed",
    description: "A lead moves to another status, such as contacted, qualified, closed or lost.",
  },
  {
    name: "appointment_created",
    displayName: "New Appointment",
    description: "An appointment is scheduled with a customer.",
  },
  {
    name: "appointment_status_changed",
    displayName: "Appointment Status Changed",
    description: "An appointment is marked arrived, completed, cancelled or no-show.",
  },
  {
    name: "unattended_leads_reminder",
    displayName: "Unattended Leads Reminder",
    description: "Front desk or management sends a reminder that new leads are waiting to be claimed.",
  },
] as const;

export type EmailTriggerName = (typeof EMAIL_TRIGGERS)[number]["name"];

/** Creates any missing trigger rows of a dealership (active by default). Safe to call again. */
export async function seedEmailTriggers(tx: Db | Tx, dealershipId: string): Promise<void> {
  await tx
    .insert(emailNotificationTriggers)
    .values(EMAIL_TRIGGERS.map((t) => ({ ...t, dealershipId, isActive: true })))
    .onConflictDoNothing({ target: [emailNotificationTriggers.dealershipId, emailNotificationTriggers.name] });
}

const ORDER = sql`case ${emailNotificationTriggers.name} ${sql.join(
  EMAIL_TRIGGERS.map((t, i) => sql`when ${t.name} then ${i}`),
  sql` `,
)} else 99 end`;

export async function dealershipTriggers(db: Db, dealershipId: string): Promise<EmailTrigger[]> {
  // Dealerships made before triggers existed get theirs on first look (decision 034).
  await seedEmailTriggers(db, dealershipId);
  return db
    .select()
    .from(emailNotificationTriggers)
    .where(eq(emailNotificationTriggers.dealershipId, dealershipId))
    .orderBy(ORDER, asc(emailNotificationTriggers.displayName));
}

export async function setTriggerActive(db: Db, dealershipId: string, triggerId: string, isActive: boolean): Promise<EmailTrigger> {
  const [row] = await db
    .update(emailNotificationTriggers)
    .set({ isActive })
    .where(and(eq(emailNotificationTriggers.id, triggerId), eq(emailNotificationTriggers.dealershipId, dealershipId)))
    .returning();
  if (!row) throw notFound("Email notification not found");
  return row;
}

export async function dealershipSubscriptions(db: Db, dealershipId: string): Promise<EmailSubscription[]> {
  return db
    .select({
      id: emailNotificationSubscriptions.id,
      userId: emailNotificationSubscriptions.userId,
      triggerId: emailNotificationSubscriptions.triggerId,
      isSubscribed: emailNotificationSubscriptions.isSubscribed,
    })
    .from(emailNotificationSubscriptions)
    .innerJoin(
      dealershipUsers,
      and(
        eq(dealershipUsers.userId, emailNotificationSubscriptions.userId),
        eq(dealershipUsers.dealershipId, emailNotificationSubscriptions.dealershipId),
      ),
    )
    .where(and(eq(emailNotificationSubscriptions.dealershipId, dealershipId), eq(dealershipUsers.active, true)));
}

/** Subscribes or unsubscribes one member to one trigger of this dealership (upsert on user and trigger). */
export async function setSubscription(
  db: Db,
  dealershipId: string,
  input: { userId: string; triggerId: string; isSubscribed: boolean },
): Promise<EmailSubscription> {
  const [trigger] = await db
    .select({ id: emailNotificationTriggers.id })
    .from(emailNotificationTriggers)
    .where(and(eq(emailNotificationTriggers.id, input.triggerId), eq(emailNotificationTriggers.dealershipId, dealershipId)))
    .limit(1);
  if (!trigger) throw badRequest("That email notification does not belong to this dealership", { triggerId: "Unknown trigger" });
  const [member] = await db
    .select({ userId: dealershipUsers.userId })
    .from(dealershipUsers)
    .where(
      and(eq(dealershipUsers.userId, input.userId), eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.active, true)),
    )
    .limit(1);
  if (!member) throw badRequest("That user is not a member of this dealership", { userId: "Not a member of this dealership" });
  const [row] = await db
    .insert(emailNotificationSubscriptions)
    .values({ dealershipId, ...input })
    .onConflictDoUpdate({
      target: [emailNotificationSubscriptions.userId, emailNotificationSubscriptions.triggerId],
      set: { isSubscribed: input.isSubscribed },
    })
    .returning({
      id: emailNotificationSubscriptions.id,
      userId: emailNotificationSubscriptions.userId,
      triggerId: emailNotificationSubscriptions.triggerId,
      isSubscribed: emailNotificationSubscriptions.isSubscribed,
    });
  return row!;
}

// Asked by the dispatcher for every batch of events (most find nobody): prepared once per connection (decision 162).
const triggerRecipientsStatement = fixedStatement(
  "email_trigger_recipients",
  sql`select distinct u.email
    from ${emailNotificationSubscriptions} s
    join ${emailNotificationTriggers} t on t.id = s.trigger_id
    join ${dealershipUsers} du on du.user_id = s.user_id and du.dealership_id = t.dealership_id
    join ${dealerships} d on d.id = t.dealership_id
    join ${users} u on u.id = s.user_id
    where t.dealership_id = ${sql.placeholder("dealershipId")} and t.name = ${sql.placeholder("trigger")} and t.is_active
      and s.is_subscribed and du.active and d.active and u.id <> all(${sql.placeholder("exclude")}::text[])`,
);

/** The e-mail addresses to notify: subscribed, active members of an active dealership, trigger active. */
export async function triggerRecipients(
  db: Db | Tx,
  dealershipId: string,
  trigger: EmailTriggerName,
  excludeUserIds: string[] = [],
): Promise<string[]> {
  const rows = await runStatement<{ email: string }>(db, triggerRecipientsStatement, { dealershipId, trigger, exclude: excludeUserIds });
  return rows.map((r) => r.email);
}

export interface EmailNotification {
  dealershipId: string;
  trigger: EmailTriggerName;
  subject: string;
  text: string;
  html?: string;
  /** Who caused the event, so they are not told about their own action. */
  excludeUserIds?: string[];
}

/**
 * Queues a mail to everyone subscribed to an active trigger of this dealership, inside the caller's transaction (the
 * event dispatcher's, for the triggers that follow domain events): the mails commit with it and go out through the
 * durable queue (decision 045). Answers the addresses queued.
 */
export async function notifyByEmail(executor: Db | Tx, mailer: Mailer, notification: EmailNotification): Promise<string[]> {
  const recipients = await triggerRecipients(executor, notification.dealershipId, notification.trigger, notification.excludeUserIds);
  await queueToEach(executor, mailer, recipients, notification);
  return recipients;
}

/** Queues one trigger's mail to each recipient, inside the caller's transaction. */
export async function queueToEach(executor: Db | Tx, mailer: Mailer, recipients: string[], notification: EmailNotification): Promise<void> {
  for (const to of recipients) {
    await mailer.queue(
      {
        to,
        subject: notification.subject,
        text: notification.text,
        html: notification.html,
        emailType: notification.trigger,
        dealershipId: notification.dealershipId,
        notification: true,
      },
      executor,
    );
  }
}

/** A member leaves the dealership (team's removal, in its transaction): their e-mail subscriptions there end. */
export async function endEmailSubscriptionsOf(tx: Tx, dealershipId: string, userId: string): Promise<void> {
  await tx
    .delete(emailNotificationSubscriptions)
    .where(and(eq(emailNotificationSubscriptions.dealershipId, dealershipId), eq(emailNotificationSubscriptions.userId, userId)));
}
