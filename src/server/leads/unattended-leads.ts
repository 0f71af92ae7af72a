import { eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { DomainEvent } from "../../shared/events";
import { fullName } from "../../shared/format";
import { formatPhone } from "../../shared/phone";
import { rowsOf, type Database, type Db, type Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { publish } from "../events/outbox";
import { createJobQueue } from "../jobs/job-queue";
import type { Mailer } from "../mail/mailer";
import { notifyByEmail } from "../notifications/email-triggers";
import { escapeHtml, mailLayout } from "../mail/layout";

// Unattended leads (issue 14; decision 142): a lead nobody answered (no claim, call or status change) within its
// dealership's set minutes (dealerships.unattended_lead_minutes, default 15) e-mails the people subscribed to the
// "Unattended Leads Reminder" trigger, which management chooses in the Admin Panel. A pg-boss schedule runs the check
// every minute in whichever process takes the job; each lead is marked when it is reported, by a conditional UPDATE,
// so it is reported once however many processes run the check at once.

export const UNATTENDED_LEADS_QUEUE = "unattended-leads";
/** Every minute: the finest a pg-boss schedule runs, and fine enough for a 15-minute promise. */
const EVERY_MINUTE = "* * * * *";
/** Older leads are not reported late (a server that was down for a day does not mail yesterday's leads). */
const LOOK_BACK = sql`interval '2 days'`;

interface UnattendedRow {
  id: string;
  dealership_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  created_at: Date | string;
  minutes: number;
}

/** Leads marked per transaction: a mass import's thousands never hold the database (PGlite's one connection) for long. */
export const UNATTENDED_CHUNK = 500;

/**
 * Marks every lead past its dealership's unattended time and not yet reported, and publishes one lead.unattended
 * event per dealership with each chunk's leads, in the chunk's transaction (the e-mail follows from the event).
 * Chunks of UNATTENDED_CHUNK, oldest first, with a turn of the event loop between them so requests waiting for the
 * database go first. Answers how many leads it reported.
 */
export async function reportUnattendedLeads(db: Db, now: Date = new Date()): Promise<number> {
  let reported = 0;
  for (;;) {
    const marked = await reportUnattendedChunk(db, now);
    reported += marked;
    if (marked < UNATTENDED_CHUNK) return reported;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function reportUnattendedChunk(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const nowIso = now.toISOString();
    // Locked as chosen, skipping rows a claim or another process's check holds: each lead is reported once.
    const result = await tx.execute(sql`
      with due as (
        select l.id from ${leads} l join ${dealerships} d on d.id = l.dealership_id
        where d.active and l.first_response_at is null and l.unattended_alerted_at is null
          and l.created_at <= ${nowIso}::timestamptz - make_interval(mins => d.unattended_lead_minutes)
          and l.created_at > ${nowIso}::timestamptz - ${LOOK_BACK}
        order by l.created_at, l.id
        limit ${UNATTENDED_CHUNK}
        for update of l skip locked)
      update ${leads} l set unattended_alerted_at = ${nowIso}::timestamptz
      from due, ${dealerships} d
      where l.id = due.id and d.id = l.dealership_id
      returning l.id, l.dealership_id, l.first_name, l.last_name, l.email, l.phone, l.created_at, d.unattended_lead_minutes as minutes`);
    const rows = rowsOf<UnattendedRow>(result);
    const byDealership = new Map<string, UnattendedRow[]>();
    for (const row of rows) byDealership.set(row.dealership_id, [...(byDealership.get(row.dealership_id) ?? []), row]);
    for (const [dealershipId, list] of byDealership) {
      list.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
      await publish(tx, {
        type: "lead.unattended",
        dealershipId,
        actorId: null,
        payload: {
          minutes: list[0]!.minutes,
          leads: list.map((l) => ({
            id: l.id,
            firstName: l.first_name,
            lastName: l.last_name,
            email: l.email,
            phone: l.phone,
            createdAt: new Date(l.created_at).toISOString(),
          })),
        },
      });
    }
    return rows.length;
  });
}

/** The e-mail of a lead.unattended event, queued in the dispatcher's transaction (registered in events/handlers.ts). */
export async function mailUnattendedLeads(context: { tx: Tx; mailer: Mailer; appUrl: string }, event: DomainEvent): Promise<void> {
  if (event.type !== "lead.unattended") return;
  const { leads: waiting, minutes } = event.payload;
  const [dealership] = await context.tx
    .select({ name: dealerships.name })
    .from(dealerships)
    .where(eq(dealerships.id, event.dealershipId))
    .limit(1);
  const name = dealership?.name ?? "your dealership";
  const link = (path: string) => `${context.appUrl}/email-redirect?to=${encodeURIComponent(path)}`;
  const plural = waiting.length === 1 ? "lead has" : "leads have";
  const subject = `${waiting.length} new ${plural} waited over ${minutes} minutes — ${name}`;
  const intro = `Nobody has claimed, called or updated ${waiting.length === 1 ? "this lead" : "these leads"} for over ${minutes} minutes at ${name}.`;
  const line = (l: (typeof waiting)[number]) => [fullName(l), l.email, l.phone ? formatPhone(l.phone) : null].filter(Boolean).join(" · ");
  const text = [
    intro,
    "",
    ...waiting.map((l) => `- ${line(l)}: ${link(`/leads/detail/${l.id}`)}`),
    "",
    `New Leads: ${link("/leads/new")}`,
    "",
    `You receive this because you are subscribed to "Unattended Leads Reminder" e-mails at ${name}. Management can change this and the waiting time in the app.`,
  ].join("\n");
  const html = mailLayout(
    "Leads are waiting for an answer",
    `<p>${escapeHtml(intro)}</p>
<ul style="padding-left:20px;margin:16px 0">${waiting
      .map((l) => `<li style="margin:4px 0"><a href="${escapeHtml(link(`/leads/detail/${l.id}`))}">${escapeHtml(line(l))}</a></li>`)
      .join("")}</ul>
<p style="margin:24px 0"><a href="${escapeHtml(link("/leads/new"))}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">Open New Leads</a></p>`,
  );
  await notifyByEmail(context.tx, context.mailer, { dealershipId: event.dealershipId, trigger: "unattended_leads_reminder", subject, text, html });
}

export interface UnattendedLeadsJob {
  /** The queue's schedules (one: every minute). */
  schedules(): Promise<Array<{ cron: string }>>;
  stop(graceMs: number): Promise<void>;
}

/**
 * Schedules the check every minute (pg-boss keeps one schedule for all processes) and works the queue in this process.
 * Started by the server process (main.ts); tests call reportUnattendedLeads with a fixed clock instead.
 */
export async function startUnattendedLeadsJob(database: Database, logger: Logger): Promise<UnattendedLeadsJob> {
  const jobs = createJobQueue(database, logger, { schedule: true });
  await jobs.start();
  await jobs.boss.createQueue(UNATTENDED_LEADS_QUEUE);
  await jobs.boss.schedule(UNATTENDED_LEADS_QUEUE, EVERY_MINUTE, null, { retryLimit: 0 });
  await jobs.boss.work(UNATTENDED_LEADS_QUEUE, { pollingIntervalSeconds: 15 }, async () => {
    const reported = await reportUnattendedLeads(database.db);
    if (reported > 0) logger.info({ reported }, "unattended leads reported");
  });
  return { schedules: () => jobs.boss.getSchedules(UNATTENDED_LEADS_QUEUE), stop: (graceMs) => jobs.stop(graceMs) };
}
