import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type { Logger } from "pino";
import { rowsOf, type Database, type Db, type Tx } from "../db/client";
import { leadActivity, leadCalls, leadNotes } from "../db/schema/activity";
import { appointments } from "../db/schema/appointments";
import { leadEmails, leadReplyAddresses } from "../db/schema/customer-mail";
import { deletedLeads } from "../db/schema/deleted-leads";
import { dealershipUsers } from "../db/schema/dealerships";
import { leadDuplicates, leadMerges } from "../db/schema/lead-duplicates";
import { leads } from "../db/schema/leads";
import { notifications, pushNotifications } from "../db/schema/notifications";
import { tasks } from "../db/schema/tasks";
import { testDrives } from "../db/schema/test-drives";
import { vehiclesOfInterest } from "../db/schema/vehicles-of-interest";
import { createJobQueue } from "../jobs/job-queue";

// Recently deleted leads (issue 30, decision 214): a deleted or merged-away lead leaves the leads table as it always
// did, so every query on leads keeps ignoring it without knowing about deletion, and its row and the rows that went with
// it are kept in deleted_leads for 30 days. This module writes that archive, puts a lead back from it and purges it;
// recently-deleted.ts holds the rule of who may and the event.

/** How long a deleted lead can be restored; then the purge job drops it. */
export const RESTORABLE_DAYS = 30;
const RESTORABLE = sql.raw(`interval '${RESTORABLE_DAYS} days'`);

/** Rows deleted with their lead (on delete cascade), by table name: put back by a restore. */
const WENT_WITH_LEAD = {
  lead_activity: leadActivity,
  lead_notes: leadNotes,
  lead_calls: leadCalls,
  tasks,
  lead_duplicates: leadDuplicates,
  lead_emails: leadEmails,
  lead_reply_addresses: leadReplyAddresses,
  // The vehicles the customer asked for (decision 188); an archive written before they were kept has none.
  vehicles_of_interest: vehiclesOfInterest,
} as const satisfies Record<string, PgTable>;
type WentWith = keyof typeof WENT_WITH_LEAD;

/** Rows that stay when their lead is deleted (on delete set null): the column that loses the lead, by table name. */
const LINKED_TO_LEAD = {
  appointments: [appointments, "lead_id"],
  test_drives: [testDrives, "lead_id"],
  notifications: [notifications, "lead_id"],
  push_notifications: [pushNotifications, "lead_id"],
  lead_merges: [leadMerges, "kept_lead_id"],
} as const satisfies Record<string, readonly [PgTable, string]>;

/**
 * What a merge moves to the kept lead (merge.ts), by table name, with the column that names a row: moved back when the
 * merged-away lead is restored.
 */
export const MOVED_BY_MERGE = {
  appointments: [appointments, "id"],
  test_drives: [testDrives, "id"],
  tasks: [tasks, "id"],
  lead_notes: [leadNotes, "id"],
  lead_calls: [leadCalls, "id"],
  lead_activity: [leadActivity, "id"],
  lead_emails: [leadEmails, "id"],
  lead_reply_addresses: [leadReplyAddresses, "token"],
  vehicles_of_interest: [vehiclesOfInterest, "id"],
} as const satisfies Record<string, readonly [PgTable, string]>;
export type MovedByMerge = { [K in keyof typeof MOVED_BY_MERGE]: Array<string | number> };

export interface LeadRef {
  id: string;
  firstName: string;
  lastName: string;
}

const ids = (list: ReadonlyArray<string | number>) => sql`(select jsonb_array_elements_text(${JSON.stringify(list)}::jsonb))`;

/**
 * Keeps the lead's row and what goes with it before the caller deletes it (same transaction; the caller holds the
 * lead's row). A merge passes what it moved to the kept lead instead of the rows that stay.
 */
export async function archiveLead(tx: Tx, leadId: string, deletedBy: string | null, merge?: { into: LeadRef; moved: MovedByMerge }): Promise<void> {
  const rows = sql.join(
    (Object.entries(WENT_WITH_LEAD) as Array<[WentWith, PgTable]>).map(([name, table]) => {
      const ofLead = name === "lead_duplicates" ? sql`r.lead_id = l.id or r.duplicate_of_id = l.id` : sql`r.lead_id = l.id`;
      return sql`${name}::text, (select coalesce(jsonb_agg(to_jsonb(r)), '[]'::jsonb) from ${table} r where ${ofLead})`;
    }),
    sql`, `,
  );
  const links = merge
    ? sql`${JSON.stringify(merge.moved)}::jsonb`
    : sql`jsonb_build_object(${sql.join(
        Object.entries(LINKED_TO_LEAD).map(
          ([name, [table, column]]) => sql`${name}::text, (select coalesce(jsonb_agg(r.id), '[]'::jsonb) from ${table} r where r.${sql.identifier(column)} = l.id)`,
        ),
        sql`, `,
      )})`;
  const mergedInto = merge ? sql`${JSON.stringify(merge.into)}::jsonb` : sql`null::jsonb`;
  await tx.execute(sql`
    insert into ${deletedLeads} (lead_id, dealership_id, deleted_at, deleted_by, merged_into, lead, rows, links)
    select l.id, l.dealership_id, now(), ${deletedBy}, ${mergedInto}, to_jsonb(l), jsonb_build_object(${rows}), ${links}
    from ${leads} l where l.id = ${leadId}
    on conflict (lead_id) do update set dealership_id = excluded.dealership_id, deleted_at = excluded.deleted_at,
      deleted_by = excluded.deleted_by, merged_into = excluded.merged_into, lead = excluded.lead, rows = excluded.rows,
      links = excluded.links`);
}

/**
 * `insert into <table> select ... from jsonb_populate_recordset(<the rows as to_jsonb wrote them>)`, the generated
 * columns left to PostgreSQL. A row deleted since that an "on delete set null" column named is no longer named: a
 * person who has left, an inventory vehicle sold and removed (the interest keeps its VIN and stock number).
 */
function reinsert(table: PgTable, json: unknown, where: SQL = sql`true`): SQL {
  const columns = Object.values(getTableColumns(table)).filter((column) => !column.generated);
  const setNull = new Map(
    getTableConfig(table)
      .foreignKeys.filter((fk) => fk.onDelete === "set null")
      .map((fk) => fk.reference())
      .filter((ref) => ref.columns.length === 1 && ref.foreignColumns.length === 1)
      .map((ref) => [ref.columns[0]!.name, { table: ref.foreignTable, column: ref.foreignColumns[0]!.name }] as const),
  );
  const names = sql.join(columns.map((column) => sql.identifier(column.name)), sql`, `);
  const values = sql.join(
    columns.map((column) => {
      const value = sql`r.${sql.identifier(column.name)}`;
      const target = setNull.get(column.name);
      if (!target) return value;
      const key = sql.identifier(target.column);
      return sql`(select x.${key} from ${target.table} x where x.${key} = ${value})`;
    }),
    sql`, `,
  );
  return sql`insert into ${table} (${names})
    select ${values} from jsonb_populate_recordset(null::${table}, ${JSON.stringify(json)}::jsonb) r where ${where}
    on conflict do nothing returning 1`;
}

/** What a restore put back, by kind (the lead.restored event's `restored`). */
export interface RestoredCounts {
  appointments: number;
  testDrives: number;
  tasks: number;
  notes: number;
  calls: number;
  emails: number;
  entries: number;
}

export interface Restored {
  deletedAt: Date;
  mergedInto: LeadRef | null;
  restored: RestoredCounts;
}

async function count(tx: Tx, statement: SQL): Promise<number> {
  return rowsOf(await tx.execute(statement)).length;
}

/**
 * Puts a lead of the dealership back from the archive, in the caller's transaction: undefined when it is not there
 * (never deleted, restored already, purged, or older than 30 days). The archive's row is deleted first, so of two
 * restores at once the second finds nothing.
 */
export async function restoreArchivedLead(tx: Tx, dealershipId: string, leadId: string): Promise<Restored | undefined> {
  const [archived] = await tx
    .delete(deletedLeads)
    .where(and(eq(deletedLeads.leadId, leadId), eq(deletedLeads.dealershipId, dealershipId), sql`${deletedLeads.deletedAt} > now() - ${RESTORABLE}`))
    .returning();
  if (!archived) return undefined;
  const lead = archived.lead as Record<string, unknown>;
  await tx.execute(reinsert(leads, [lead]));
  // A rep who has left since gets no client back: the lead returns to New Leads, as their removal did to the others.
  const claimer = typeof lead.claimed_by === "string" ? lead.claimed_by : null;
  if (claimer) {
    await tx.execute(sql`update ${leads} set status = 'new', claimed_by = null, claimed_at = null
      where id = ${leadId} and not exists (select 1 from ${dealershipUsers} du
        where du.dealership_id = ${dealershipId} and du.user_id = ${claimer} and du.active)`);
  }

  const rows = archived.rows as Record<WentWith, unknown[]>;
  const put = (name: WentWith, where?: SQL) => count(tx, reinsert(WENT_WITH_LEAD[name], rows[name] ?? [], where));
  const entries = await put("lead_activity");
  const notes = await put("lead_notes");
  const calls = await put("lead_calls");
  const taskCount = await put("tasks");
  const emails = await put("lead_emails");
  await put("lead_reply_addresses");
  await put("vehicles_of_interest");
  // A link to a lead deleted since stays gone.
  await put("lead_duplicates", sql`exists (select 1 from ${leads} x where x.id = r.lead_id) and exists (select 1 from ${leads} x where x.id = r.duplicate_of_id)`);

  const links = archived.links as Record<string, Array<string | number>>;
  const mergedInto = archived.mergedInto as LeadRef | null;
  const restored: RestoredCounts = { appointments: 0, testDrives: 0, tasks: taskCount, notes, calls, emails, entries };
  if (mergedInto) {
    // Decision 214: what the merge moved to the kept lead and is still there comes back with it, its timeline entries
    // no longer marked as merged from it; the record of the merge goes (the restore's entry tells it).
    const back = async (name: keyof typeof MOVED_BY_MERGE, extra: SQL = sql``) => {
      const [table, key] = MOVED_BY_MERGE[name];
      return count(
        tx,
        sql`update ${table} set lead_id = ${leadId}${extra} where ${sql.identifier(key)}::text in ${ids(links[name] ?? [])} and lead_id = ${mergedInto.id} returning 1`,
      );
    };
    restored.appointments = await back("appointments");
    restored.testDrives = await back("test_drives");
    restored.tasks += await back("tasks");
    restored.notes += await back("lead_notes");
    restored.calls += await back("lead_calls");
    restored.entries += await back("lead_activity", sql`, merged_from = case when merged_from->>'id' = ${leadId} then null else merged_from end`);
    restored.emails += await back("lead_emails");
    // Its reply addresses: replies to its old mail reach it again (none is current: its next mail makes one).
    await back("lead_reply_addresses");
    await back("vehicles_of_interest");
    await tx.delete(leadMerges).where(and(eq(leadMerges.mergedLeadId, leadId), eq(leadMerges.dealershipId, dealershipId)));
  } else {
    for (const [name, [table, column]] of Object.entries(LINKED_TO_LEAD)) {
      const col = sql.identifier(column);
      const relinked = await count(tx, sql`update ${table} set ${col} = ${leadId} where id::text in ${ids(links[name] ?? [])} and ${col} is null returning 1`);
      if (name === "appointments") restored.appointments = relinked;
      if (name === "test_drives") restored.testDrives = relinked;
    }
  }
  return { deletedAt: archived.deletedAt, mergedInto, restored };
}

/** Drops what was deleted more than 30 days before `now`; answers how many leads. */
export async function purgeDeletedLeads(db: Db, now: Date = new Date()): Promise<number> {
  const purged = await db
    .delete(deletedLeads)
    .where(sql`${deletedLeads.deletedAt} <= ${now.toISOString()}::timestamptz - ${RESTORABLE}`)
    .returning({ id: deletedLeads.leadId });
  return purged.length;
}

export const PURGE_DELETED_LEADS_QUEUE = "purge-deleted-leads";
const EVERY_HOUR = "41 * * * *";

export interface PurgeDeletedLeadsJob {
  schedules(): Promise<Array<{ cron: string }>>;
  /** Asks for a purge now (the schedule asks every hour); any process's worker may take it. */
  purgeNow(): Promise<void>;
  stop(graceMs: number): Promise<void>;
}

/**
 * The purge as a pg-boss schedule (kept in the database, one for all processes): hourly, so a lead is gone within the
 * hour after its 30 days, and a process that was down purges at its first run.
 */
export async function startPurgeDeletedLeadsJob(
  database: Database,
  logger: Logger,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<PurgeDeletedLeadsJob> {
  const jobs = createJobQueue(database, logger, { schedule: true });
  await jobs.start();
  await jobs.boss.createQueue(PURGE_DELETED_LEADS_QUEUE);
  await jobs.boss.schedule(PURGE_DELETED_LEADS_QUEUE, EVERY_HOUR, null, { retryLimit: 2 });
  await jobs.boss.work(PURGE_DELETED_LEADS_QUEUE, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 60 }, async () => {
    const purged = await purgeDeletedLeads(database.db);
    if (purged > 0) logger.info({ purged }, "deleted leads purged after 30 days");
  });
  return {
    schedules: () => jobs.boss.getSchedules(PURGE_DELETED_LEADS_QUEUE),
    purgeNow: async () => {
      await jobs.boss.send(PURGE_DELETED_LEADS_QUEUE, null, { retryLimit: 2 });
    },
    stop: (graceMs) => jobs.stop(graceMs),
  };
}
