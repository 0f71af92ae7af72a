import { eq, sql } from "drizzle-orm";
import { nextOpenDay, openAtOrAfter, type BusinessHours } from "../../shared/business-hours";
import { addDays, localMoment } from "../../shared/dealership-clock";
import type { DomainEvent } from "../../shared/events";
import { DEFAULT_FOLLOW_UP_RULES, followUpRulesSchema, type FollowUpRules, type FollowUpRulesUpdate } from "../../shared/schemas/follow-up-rules";
import type { TaskType } from "../../shared/schemas/task";
import { dealershipClock } from "../dealerships/timezone";
import { rowsOf, type Db, type Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { followUpSettings, tasks } from "../db/schema/tasks";
import { publish } from "../events/outbox";
import { dueInstant, mayBeAssigned, startOfLocalDay, taskById, taskSnapshot } from "./queries";

// Automatic follow-ups (issue 27; decision 200). Each rule is a subscriber of a domain event: a claim (or an
// assignment), a returned test drive, an appointment marked no-show. It makes its task in the dispatching transaction
// with `origin` "<rule>:<event id>", unique in the table, so an event handled again (a retry, a second process) makes
// no second task. The task publishes task.created like any other, with no actor (the system made it).

type Executor = Db | Tx;
type Handled = DomainEvent & { id: number; createdAt?: Date };

/** The dealership's rules: its saved choices over the defaults. */
export async function followUpRulesOf(db: Executor, dealershipId: string): Promise<FollowUpRules> {
  const [row] = await db.select({ rules: followUpSettings.rules }).from(followUpSettings).where(eq(followUpSettings.dealershipId, dealershipId)).limit(1);
  return mergeRules(DEFAULT_FOLLOW_UP_RULES, (row?.rules ?? {}) as FollowUpRulesUpdate);
}

function mergeRules(base: FollowUpRules, change: FollowUpRulesUpdate): FollowUpRules {
  return followUpRulesSchema.parse({
    claimedNoContact: { ...base.claimedNoContact, ...change.claimedNoContact },
    testDriveReturned: { ...base.testDriveReturned, ...change.testDriveReturned },
    appointmentNoShow: { ...base.appointmentNoShow, ...change.appointmentNoShow },
    untouchedLead: { ...base.untouchedLead, ...change.untouchedLead },
  });
}

/** Saves a change of the rules (the row locked, so two managers' changes both land) and answers the rules now. */
export async function saveFollowUpRules(tx: Tx, dealershipId: string, userId: string, change: FollowUpRulesUpdate): Promise<{ before: FollowUpRules; after: FollowUpRules }> {
  await tx.execute(sql`insert into ${followUpSettings} (dealership_id, rules) values (${dealershipId}, '{}'::jsonb) on conflict (dealership_id) do nothing`);
  const [row] = await tx.select({ rules: followUpSettings.rules }).from(followUpSettings).where(eq(followUpSettings.dealershipId, dealershipId)).for("update");
  const before = mergeRules(DEFAULT_FOLLOW_UP_RULES, (row?.rules ?? {}) as FollowUpRulesUpdate);
  const after = mergeRules(before, change);
  await tx.update(followUpSettings).set({ rules: after, updatedBy: userId }).where(eq(followUpSettings.dealershipId, dealershipId));
  return { before, after };
}

/**
 * When a "next business day at HH:MM" follow-up is due (decision 191): the rule's time on the next day after `date`
 * (YYYY-MM-DD) that the dealership is open, moved to that day's opening when the dealership is not open then. A
 * dealership closed every day gets the next day at the rule's time.
 */
export function nextBusinessDayAt(date: string, time: string, hours: BusinessHours): { date: string; time: string } {
  const day = nextOpenDay(date, hours);
  if (!day) return { date: addDays(date, 1), time };
  return { date: day.date, time: time >= day.open && time < day.close ? time : day.open };
}

type Clock = Awaited<ReturnType<typeof dealershipClock>>;

/**
 * Decision 235: an automatic follow-up is never due while the dealership is closed. A due time outside the business
 * hours management has set moves to the next opening (that day's, or the next open day's); with no hours set (the
 * defaults are a placeholder, not a statement that the dealership is closed at 18:30), or a week with no open day, it
 * stays as the rule made it.
 */
export function withinBusinessHours(due: Date, clock: Clock): Date {
  if (!clock.hoursSet) return due;
  const local = localMoment(clock.timezone, due);
  const open = openAtOrAfter(local.date, local.time, clock.businessHours);
  return open?.moved ? dueInstant(`${open.date}T${open.time}`, clock.timezone) : due;
}

interface FollowUp {
  dealershipId: string;
  leadId: string;
  type: TaskType;
  dueAt: Date;
  /** Who should do it, best first; the first who may be given a task on the lead gets it. None: no task. */
  candidates: Array<string | null | undefined>;
  note: string;
  origin: string;
}

/**
 * Makes the task once (its origin is unique) and publishes task.created; answers whether it made one. Only in a
 * dealership still in service, held so until this commits (decision 176): an event dispatched while or after its
 * dealership was taken out of service made a task there. The hold does not wait (SKIP LOCKED): the dispatching
 * transaction already holds earlier subscribers' rows, and waiting for the dealership after them deadlocked with an
 * account's deletion. A dealership being changed right now fails this subscriber, which the dispatcher tries again
 * alone at its next sweep (decision 186); by then a deletion has committed and no task is made.
 */
async function makeFollowUp(tx: Tx, followUp: FollowUp): Promise<boolean> {
  const held = rowsOf<{ active: boolean }>(
    await tx.execute(sql`select active from ${dealerships} where id = ${followUp.dealershipId} for share skip locked`),
  )[0];
  if (!held) throw new Error("follow-up: the dealership is being changed; tried again at the next sweep");
  if (!held.active) return false;
  let assigneeId: string | null = null;
  for (const candidate of followUp.candidates) {
    if (candidate && (await mayBeAssigned(tx, followUp.dealershipId, followUp.leadId, candidate))) {
      assigneeId = candidate;
      break;
    }
  }
  if (!assigneeId) return false;
  const inserted = await tx.execute(sql`insert into ${tasks} (id, dealership_id, lead_id, type, due_at, assignee_id, note, origin)
    select ${nanoidSql}, l.dealership_id, l.id, ${followUp.type}, ${followUp.dueAt.toISOString()}::timestamptz, ${assigneeId}, ${followUp.note}, ${followUp.origin}
    from ${leads} l where l.id = ${followUp.leadId} and l.dealership_id = ${followUp.dealershipId}
    on conflict (origin) where origin is not null do nothing
    returning id`);
  const id = rowsOf<{ id: string }>(inserted)[0]?.id;
  if (!id) return false;
  const task = (await taskById(tx, id))!;
  await publish(tx, { type: "task.created", dealershipId: followUp.dealershipId, actorId: null, payload: { task: taskSnapshot(task) } });
  return true;
}

/** A 21-character id in nanoid's alphabet, made in SQL (as the bell's rows are). */
const nanoidSql = sql`left(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), 21)`;

const whenOf = (event: Handled) => event.createdAt ?? new Date();

/** A claimed (or assigned) lead has had no contact yet: call it within the rule's minutes. */
export async function followUpClaim(tx: Tx, event: Handled): Promise<void> {
  if (event.type !== "lead.claimed" && event.type !== "lead.assigned") return;
  const rule = (await followUpRulesOf(tx, event.dealershipId)).claimedNoContact;
  if (!rule.enabled) return;
  // A lead assigned at night (intake's distribution, decision 201) is called when the dealership opens.
  const clock = await dealershipClock(tx, event.dealershipId);
  await makeFollowUp(tx, {
    dealershipId: event.dealershipId,
    leadId: event.payload.lead.id,
    type: "call",
    dueAt: withinBusinessHours(new Date(whenOf(event).getTime() + rule.minutes * 60_000), clock),
    candidates: [event.payload.claimedBy.id],
    note: "First call to the new client",
    origin: `claimedNoContact:${event.id}`,
  });
}

/** A returned test drive: a follow-up at the rule's time on the next business day. */
export async function followUpDrive(tx: Tx, event: Handled): Promise<void> {
  if (event.type !== "test_drive.returned") return;
  const drive = event.payload.testDrive;
  if (!drive.leadId) return;
  const rule = (await followUpRulesOf(tx, event.dealershipId)).testDriveReturned;
  if (!rule.enabled) return;
  const { timezone, businessHours } = await dealershipClock(tx, event.dealershipId);
  const due = nextBusinessDayAt(localMoment(timezone, whenOf(event)).date, rule.time, businessHours);
  const [lead] = await tx.select({ claimedBy: leads.claimedBy }).from(leads).where(eq(leads.id, drive.leadId)).limit(1);
  const vehicle = drive.vehicleDriven || (drive.stockNumber ? `stock #${drive.stockNumber}` : "the demo");
  await makeFollowUp(tx, {
    dealershipId: event.dealershipId,
    leadId: drive.leadId,
    type: "call",
    dueAt: dueInstant(`${due.date}T${due.time}`, timezone),
    candidates: [lead?.claimedBy, drive.takenOutBy, event.payload.returnedBy.id],
    note: `How was the test drive of ${vehicle}?`,
    origin: `testDriveReturned:${event.id}`,
  });
}

/** An appointment marked no-show: a call the same day. */
export async function followUpNoShow(tx: Tx, event: Handled): Promise<void> {
  if (event.type !== "appointment.status_changed") return;
  const { appointment } = event.payload;
  if (appointment.status !== "no-show" || !appointment.leadId) return;
  const rule = (await followUpRulesOf(tx, event.dealershipId)).appointmentNoShow;
  if (!rule.enabled) return;
  const clock = await dealershipClock(tx, event.dealershipId);
  const { timezone } = clock;
  const at = whenOf(event);
  // The same day: never past its last minute on the dealership's clock; past closing, at the next opening.
  const lastMinute = startOfLocalDay(addDays(localMoment(timezone, at).date, 1), timezone).getTime() - 60_000;
  const [lead] = await tx.select({ claimedBy: leads.claimedBy }).from(leads).where(eq(leads.id, appointment.leadId)).limit(1);
  await makeFollowUp(tx, {
    dealershipId: event.dealershipId,
    leadId: appointment.leadId,
    type: "call",
    dueAt: withinBusinessHours(new Date(Math.max(at.getTime(), Math.min(at.getTime() + rule.minutes * 60_000, lastMinute))), clock),
    candidates: [appointment.assignedTo, lead?.claimedBy, appointment.createdBy],
    note: `Missed the appointment "${appointment.title}"`,
    origin: `appointmentNoShow:${event.id}`,
  });
}

/** Leads checked per run of the untouched-lead rule (the oldest quiet ones first; the next run takes the rest). */
const UNTOUCHED_CHUNK = 500;
const UNTOUCHED_LOOK_BACK_DAYS = 30;

/**
 * The untouched-lead rule (not an event: the absence of one): every worked client (claimed, contacted, qualified, in
 * progress) of an active dealership with the rule on, with no timeline entry for the rule's days and no open task,
 * gets a call task for its rep. The origin names the lead and its latest entry, so the same quiet stretch makes one
 * task however often the check runs; a new entry starts a new stretch. Answers how many tasks it made.
 */
export async function followUpUntouchedLeads(db: Db, now: Date = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const at = now.toISOString();
    const quiet = await tx.execute(sql`
      select l.id, l.dealership_id, l.claimed_by, last.id as last_id
      from ${leads} l
        join dealerships d on d.id = l.dealership_id and d.active
        left join ${followUpSettings} fs on fs.dealership_id = l.dealership_id
        cross join lateral (select a.id, a.at from lead_activity a where a.lead_id = l.id order by a.at desc, a.id desc limit 1) last
      where l.status in ('claimed', 'contacted', 'qualified', 'inProgress') and l.claimed_by is not null
        and coalesce((fs.rules->'untouchedLead'->>'enabled')::boolean, ${DEFAULT_FOLLOW_UP_RULES.untouchedLead.enabled})
        and last.at < ${at}::timestamptz - make_interval(days => coalesce((fs.rules->'untouchedLead'->>'days')::int, ${DEFAULT_FOLLOW_UP_RULES.untouchedLead.days}))
        -- A stretch that began over a month before it was due is left alone: an upgrade or a rule turned on does not
        -- give every long-forgotten client a task at once.
        and last.at > ${at}::timestamptz - make_interval(days => ${UNTOUCHED_LOOK_BACK_DAYS} + coalesce((fs.rules->'untouchedLead'->>'days')::int, ${DEFAULT_FOLLOW_UP_RULES.untouchedLead.days}))
        and not exists (select 1 from ${tasks} t where t.lead_id = l.id and t.status = 'open')
      order by last.at
      limit ${UNTOUCHED_CHUNK}`);
    let made = 0;
    // Found at night, the call is due when the dealership opens (decision 235): each dealership's clock read once.
    const clocks = new Map<string, Clock>();
    for (const lead of rowsOf<{ id: string; dealership_id: string; claimed_by: string; last_id: string }>(quiet)) {
      let clock = clocks.get(lead.dealership_id);
      if (!clock) clocks.set(lead.dealership_id, (clock = await dealershipClock(tx, lead.dealership_id)));
      const ok = await makeFollowUp(tx, {
        dealershipId: lead.dealership_id,
        leadId: lead.id,
        type: "call",
        dueAt: withinBusinessHours(now, clock),
        candidates: [lead.claimed_by],
        note: "Nothing has happened on this client for a while",
        origin: `untouchedLead:${lead.id}:${lead.last_id}`,
      });
      if (ok) made++;
    }
    return made;
  });
}
