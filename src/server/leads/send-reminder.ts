import type { FastifyInstance } from "fastify";
import type { Viewer } from "../auth/tenancy";
import { dealershipById } from "../dealerships/queries";
import { notifyByEmail } from "../notifications/email-triggers";
import { activeSalesReps, unattendedLeads, userName } from "./queries";
import { REMINDER_LEADS_LISTED, reminderMail } from "./reminder-mail";

// Send Reminder (part 1 §2.4, §6): every active sales rep is mailed the leads still new. It changes nothing and
// publishes no event, so it is an area function rather than a command; its route checks who may ask and words the
// answer (routes never call the mailer).

export type ReminderOutcome = { sent: false; missing: "leads" | "reps" } | { sent: true; reps: number; leads: number };

/** Queues the reminder to every active sales rep and its notice to the trigger's other subscribers, all or none. */
export async function sendReminder(app: FastifyInstance, viewer: Viewer): Promise<ReminderOutcome> {
  const pool = await unattendedLeads(app.db, viewer.dealershipId, REMINDER_LEADS_LISTED);
  if (pool.total === 0) return { sent: false, missing: "leads" };
  const reps = await activeSalesReps(app.db, viewer.dealershipId);
  if (reps.length === 0) return { sent: false, missing: "reps" };
  const dealership = await dealershipById(app.db, viewer.dealershipId);
  const sentByName = await userName(app.db, viewer.userId);
  const link = `${app.config.appUrl}/email-redirect?to=${encodeURIComponent("/leads/new")}`;
  const now = new Date();
  const mailOf = (to: string, repFirstName: string | null) =>
    reminderMail({
      to,
      repFirstName,
      dealershipName: dealership?.name ?? "your dealership",
      dealershipId: viewer.dealershipId,
      sentByName,
      total: pool.total,
      leads: pool.listed,
      link,
      now,
    });
  // All the reminder's mails are queued in one transaction: every rep is reminded, or (on failure) none is.
  await app.db.transaction(async (tx) => {
    for (const rep of reps) await app.mailer.queue(mailOf(rep.email, rep.firstName), tx);
    // Whoever subscribed to the "Unattended Leads Reminder" trigger and is not a rep hears that one went out.
    const notice = mailOf("", null);
    await notifyByEmail(tx, app.mailer, {
      dealershipId: viewer.dealershipId,
      trigger: "unattended_leads_reminder",
      subject: notice.subject,
      text: notice.text,
      html: notice.html,
      excludeUserIds: [viewer.userId, ...reps.map((r) => r.id)],
    });
  });
  return { sent: true, reps: reps.length, leads: pool.total };
}
