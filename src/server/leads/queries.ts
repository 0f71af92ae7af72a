import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { DealershipRole, LeadStatus } from "../../shared/constants";
import { can } from "../../shared/permissions";
import { percentChange, type DealershipMetrics, type Lead } from "../../shared/schemas/lead";
import { rowsOf, type Db, type Tx } from "../db/client";
import { appointments } from "../db/schema/appointments";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads, leadSearchText } from "../db/schema/leads";
import { testDrives } from "../db/schema/test-drives";
import { users } from "../db/schema/users";

// SQL of the leads area (spec part 1 §2.4-2.6, §3, §4, §6; part 2 lead detail). Every function takes the dealership
// the route's tenancy guard answered; nothing here decides who the caller is.

type Executor = Db | Tx;
export type LeadRow = typeof leads.$inferSelect;

/** Who is asking, as the tenancy guard answered. */
export interface Viewer {
  userId: string;
  dealershipId: string;
  role: DealershipRole;
}

// ---- Visibility (decision 010) ----

/**
 * A sales user reaches the unclaimed pool and their own clients; front desk and management reach every lead of the
 * dealership (part 1 §6 "See all claimed leads on My Clients"). Another rep's client is not found for a sales user.
 */
export function canSeeLead(viewer: Viewer, lead: Pick<LeadRow, "status" | "claimedBy">): boolean {
  if (can(viewer.role, "seeAllClaimedLeads")) return true;
  return lead.status === "new" || lead.claimedBy === viewer.userId;
}

// ---- Reading ----

const claimedByName = sql<string | null>`nullif(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')), '')`;

export async function leadById(db: Executor, id: string): Promise<LeadRow | undefined> {
  const [row] = await db.select().from(leads).where(eq(leads.id, id)).limit(1);
  return row;
}

export function toLead(row: LeadRow, name: string | null): Lead {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    description: row.description,
    status: row.status,
    dealershipId: row.dealershipId,
    createdAt: row.createdAt.toISOString(),
    claimedBy: row.claimedBy,
    claimedByName: name,
    claimedAt: row.claimedAt ? row.claimedAt.toISOString() : null,
  };
}

/** One lead with the claimer's name (GET /api/leads/{id}, part 2 §3 Lead). */
export async function leadWithClaimer(db: Executor, id: string): Promise<Lead | undefined> {
  const [row] = await db
    .select({ lead: leads, claimedByName })
    .from(leads)
    .leftJoin(users, eq(users.id, leads.claimedBy))
    .where(eq(leads.id, id))
    .limit(1);
  return row ? toLead(row.lead, row.claimedByName) : undefined;
}

// ---- The lists: one query shape, keyset pages, each part answered by an index (decisions 011, 012) ----

export interface LeadListOptions {
  type?: "new" | "my";
  q?: string;
  status?: LeadStatus;
  limit: number;
  cursor?: LeadCursor;
}

/** Where the next page starts: the last row's creation time (exact, microseconds) and id. */
export interface LeadCursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(cursor: LeadCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString("base64url");
}

export function decodeCursor(value: string): LeadCursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [createdAt, id] = parsed as unknown[];
    if (typeof createdAt !== "string" || typeof id !== "string") return null;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(createdAt) || id.length > 64) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
export function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The parts of a list, each a condition an index answers in creation order. A sales user's full list is the
 * unclaimed pool plus their own clients: two index walks merged, never a scan of everybody's leads.
 */
function listParts(viewer: Viewer, type: LeadListOptions["type"]): SQL[] {
  const seeAll = can(viewer.role, "seeAllClaimedLeads");
  const pool = sql`${leads.status} = 'new'`;
  const mine = sql`${leads.claimedBy} = ${viewer.userId} and ${leads.status} <> 'new'`;
  if (type === "new") return [pool];
  if (type === "my") return [seeAll ? sql`${leads.status} <> 'new'` : mine];
  return seeAll ? [sql`true`] : [pool, mine];
}

interface ListRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  description: string | null;
  status: LeadStatus;
  dealership_id: string;
  created_at: Date | string;
  cursor_at: string;
  claimed_by: string | null;
  claimed_at: Date | string | null;
  claimed_by_name: string | null;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/**
 * A page of a dealership's leads, newest first: GET /api/dealerships/{id}/leads (part 1 §2.4, §2.5, §7).
 * type=new is the unclaimed pool; type=my the caller's clients (all worked leads for front desk and management);
 * no type everything the caller may see. q and status narrow it (AND). Answers the rows and the next page's cursor.
 */
export async function listLeads(db: Executor, viewer: Viewer, options: LeadListOptions): Promise<{ leads: Lead[]; next: LeadCursor | null }> {
  const result = await db.execute(listLeadsQuery(viewer, options));
  const rows = rowsOf<ListRow>(result);
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1];
  return {
    leads: page.map((r) => ({
      id: r.id,
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      phone: r.phone,
      description: r.description,
      status: r.status,
      dealershipId: r.dealership_id,
      createdAt: iso(r.created_at),
      claimedBy: r.claimed_by,
      claimedByName: r.claimed_by_name,
      claimedAt: r.claimed_at ? iso(r.claimed_at) : null,
    })),
    next: rows.length > options.limit && last ? { createdAt: last.cursor_at, id: last.id } : null,
  };
}

/** The SQL of one page (`limit + 1` rows, to tell whether there is a next page); the benchmark EXPLAINs it. */
export function listLeadsQuery(viewer: Viewer, options: LeadListOptions): SQL {
  const filters: SQL[] = [sql`${leads.dealershipId} = ${viewer.dealershipId}`];
  if (options.status) filters.push(sql`${leads.status} = ${options.status}`);
  if (options.q) filters.push(sql`${leadSearchText(leads)} ilike ${likeContains(options.q)}`);
  if (options.cursor) {
    filters.push(sql`(${leads.createdAt}, ${leads.id}) < (${options.cursor.createdAt}::timestamptz, ${options.cursor.id})`);
  }
  const take = options.limit + 1;
  // "desc nulls last" matches the indexes' order, so each part is an ordered index walk stopped after `take` rows.
  const order = sql`order by ${leads.createdAt} desc nulls last, ${leads.id} desc nulls last limit ${take}`;
  const parts = listParts(viewer, options.type).map(
    (part) => sql`(select * from ${leads} where ${sql.join([...filters, part], sql` and `)} ${order})`,
  );
  return sql`
    select l.id, l.first_name, l.last_name, l.email, l.phone, l.description, l.status, l.dealership_id,
           l.created_at, l.claimed_by, l.claimed_at,
           to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
           (select nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')
              from ${users} u where u.id = l.claimed_by) as claimed_by_name
    from (${sql.join(parts, sql` union all `)}) l
    order by l.created_at desc nulls last, l.id desc nulls last
    limit ${take}`;
}

// ---- Writing ----

export interface NewLead {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  description: string | null;
}

/** A new lead; with a claimer it starts claimed (part 1 §4: created by sales, or assigned by front desk/management). */
export async function createLead(db: Executor, dealershipId: string, values: NewLead, claimer: string | null): Promise<LeadRow> {
  const [row] = await db
    .insert(leads)
    .values({
      ...values,
      dealershipId,
      status: claimer ? "claimed" : "new",
      claimedBy: claimer,
      claimedAt: claimer ? sql`now()` : null,
    })
    .returning();
  if (!row) throw new Error("lead insert returned nothing");
  return row;
}

/**
 * Claims a lead for a user in one conditional statement (ARCHITECTURE invariant 4): only a lead still new and
 * unclaimed changes, so of any number of simultaneous claims exactly one gets a row back.
 */
export async function claimLead(db: Executor, leadId: string, userId: string): Promise<LeadRow | undefined> {
  const [row] = await db
    .update(leads)
    .set({ status: "claimed", claimedBy: userId, claimedAt: sql`now()` })
    .where(and(eq(leads.id, leadId), eq(leads.status, "new"), sql`${leads.claimedBy} is null`))
    .returning();
  return row;
}

export interface LeadChanges {
  firstName?: string;
  lastName?: string;
  email?: string | null;
  phone?: string | null;
  description?: string | null;
  status?: LeadStatus;
}

/**
 * Edits a lead (part 2 §7). A status change keeps "new" and "unclaimed" the same thing (decision 010): back to new
 * returns the lead to the pool (claim cleared); out of new, a lead nobody claimed is recorded as claimed by whoever
 * moved it. Decided inside the one UPDATE, so it cannot race a claim.
 */
export async function updateLead(db: Executor, leadId: string, changes: LeadChanges, actorId: string): Promise<LeadRow | undefined> {
  const set: Record<string, unknown> = {};
  for (const key of ["firstName", "lastName"] as const) {
    if (changes[key] !== undefined) set[key] = changes[key];
  }
  // An emptied optional field is "not provided" (part 2 lead detail), stored as null.
  for (const key of ["email", "phone", "description"] as const) {
    if (changes[key] !== undefined) set[key] = changes[key] || null;
  }
  if (changes.status === "new") {
    Object.assign(set, { status: "new", claimedBy: null, claimedAt: null });
  } else if (changes.status) {
    Object.assign(set, {
      status: changes.status,
      claimedBy: sql`coalesce(${leads.claimedBy}, ${actorId})`,
      claimedAt: sql`coalesce(${leads.claimedAt}, now())`,
    });
  }
  if (Object.keys(set).length === 0) return leadById(db, leadId);
  const [row] = await db.update(leads).set(set).where(eq(leads.id, leadId)).returning();
  return row;
}

export async function deleteLead(db: Executor, leadId: string): Promise<boolean> {
  const rows = await db.delete(leads).where(eq(leads.id, leadId)).returning({ id: leads.id });
  return rows.length > 0;
}

// ---- People ----

/** Whether a user is an active member of the dealership (a lead may be assigned only to one; part 1 §6). */
export async function isActiveMember(db: Executor, dealershipId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(dealershipUsers)
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.userId, userId), eq(dealershipUsers.active, true)))
    .limit(1);
  return Boolean(row);
}

export async function userName(db: Executor, userId: string): Promise<string> {
  const [row] = await db.select({ name: claimedByName, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.name ?? row?.email ?? "A colleague";
}

/** Active sales reps of a dealership, the people a Send Reminder mails (part 1 §2.4). */
export async function activeSalesReps(db: Executor, dealershipId: string) {
  return db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(dealershipUsers)
    .innerJoin(users, eq(users.id, dealershipUsers.userId))
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.role, "sales"), eq(dealershipUsers.active, true)))
    .orderBy(asc(users.email));
}

/** The unclaimed pool of a dealership for a reminder: how many, and the oldest first (they waited longest). */
export async function unattendedLeads(db: Executor, dealershipId: string, listed: number) {
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(leads)
    .where(and(eq(leads.dealershipId, dealershipId), eq(leads.status, "new")));
  const rows = await db
    .select({ id: leads.id, firstName: leads.firstName, lastName: leads.lastName, email: leads.email, phone: leads.phone, createdAt: leads.createdAt })
    .from(leads)
    .where(and(eq(leads.dealershipId, dealershipId), eq(leads.status, "new")))
    .orderBy(sql`${leads.createdAt} asc`, asc(leads.id))
    .limit(listed);
  return { total: count?.n ?? 0, listed: rows };
}

// ---- Metrics (part 1 §2.3, §3; decisions 002, 014) ----

/**
 * Today's counts and their change from yesterday, both days on the dealership's clock: new leads (created), appointments
 * created, test drives completed (returned). `now` is passed in so the day boundaries can be tested.
 */
export async function dealershipMetrics(db: Executor, dealershipId: string, now: Date): Promise<DealershipMetrics> {
  const result = await db.execute(sql`
    with day as (
      select (date_trunc('day', ${now.toISOString()}::timestamptz at time zone d.timezone) - interval '1 day') at time zone d.timezone as yesterday,
             date_trunc('day', ${now.toISOString()}::timestamptz at time zone d.timezone) at time zone d.timezone as today,
             (date_trunc('day', ${now.toISOString()}::timestamptz at time zone d.timezone) + interval '1 day') at time zone d.timezone as tomorrow
      from ${dealerships} d where d.id = ${dealershipId}
    )
    select
      (select count(*)::int from ${leads} x, day where x.dealership_id = ${dealershipId} and x.created_at >= day.today and x.created_at < day.tomorrow) as leads_today,
      (select count(*)::int from ${leads} x, day where x.dealership_id = ${dealershipId} and x.created_at >= day.yesterday and x.created_at < day.today) as leads_yesterday,
      (select count(*)::int from ${appointments} x, day where x.dealership_id = ${dealershipId} and x.created_at >= day.today and x.created_at < day.tomorrow) as appointments_today,
      (select count(*)::int from ${appointments} x, day where x.dealership_id = ${dealershipId} and x.created_at >= day.yesterday and x.created_at < day.today) as appointments_yesterday,
      (select count(*)::int from ${testDrives} x, day where x.dealership_id = ${dealershipId} and x.returned_at >= day.today and x.returned_at < day.tomorrow) as drives_today,
      (select count(*)::int from ${testDrives} x, day where x.dealership_id = ${dealershipId} and x.returned_at >= day.yesterday and x.returned_at < day.today) as drives_yesterday
  `);
  const r = rowsOf<Record<string, number>>(result)[0] ?? {};
  const n = (key: string) => Number(r[key] ?? 0);
  return {
    newLeadsToday: n("leads_today"),
    newLeadsTodayChange: percentChange(n("leads_today"), n("leads_yesterday")),
    appointmentsScheduledToday: n("appointments_today"),
    appointmentsScheduledTodayChange: percentChange(n("appointments_today"), n("appointments_yesterday")),
    testDrivesCompletedToday: n("drives_today"),
    testDrivesCompletedTodayChange: percentChange(n("drives_today"), n("drives_yesterday")),
  };
}
