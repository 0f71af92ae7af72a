import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DealershipRole, LeadStatus } from "../../shared/constants";
import type { LeadSnapshot } from "../../shared/events";
import type { LeadSource } from "../../shared/lead-source";
import { phoneSearchDigits } from "../../shared/phone";
import { percentChange, type DealershipMetrics, type Lead } from "../../shared/schemas/lead";
import { mayOpenLeadSql, openLeadSql, seesEveryLead } from "../access/leads";
import { viewerOf, roleSql, type PersonViewer, type Viewer } from "../auth/tenancy";
import { rowsOf, type Db, type Tx } from "../db/client";
import { fixedStatement, runStatement, type FixedStatement } from "../db/prepared";
import { appointments } from "../db/schema/appointments";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { domainEvents } from "../db/schema/events";
import { leads } from "../db/schema/leads";
import { testDrives } from "../db/schema/test-drives";
import { users } from "../db/schema/users";
import { eventPayloadSql } from "../events/outbox";
import { activityOfPublished } from "../events/timeline-entries";
import { encodePageCursor } from "../http/page-cursor";
import { archiveLead } from "./deleted-archive";
import { linkPossibleDuplicates } from "./duplicates";
import { firstResponseSet } from "./speed-to-lead";

// SQL of the leads area (spec part 1 §2.4-2.6, §3, §4, §6; part 2 lead detail). Scoped data access (decision 050):
// every read and write takes the viewer and carries the dealership and the role's visibility in its own WHERE clause,
// plus the state the action requires; a write that matches no row is the answer (404 or 409). Nothing here reads,
// decides in JavaScript, then writes by id.

type Executor = Db | Tx;
export type LeadRow = typeof leads.$inferSelect;
export type { Viewer };

// ---- Visibility (decision 010): access/leads.ts, the one rule; the lists below split it for their indexes ----

// ---- Reading ----

const claimedByName = sql<string | null>`nullif(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')), '')`;

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
    source: row.source,
    sourceProvider: row.sourceProvider,
    lostReason: row.lostReason,
  };
}

export function leadSnapshot(row: LeadRow): LeadSnapshot {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    description: row.description,
    status: row.status,
    claimedBy: row.claimedBy,
  };
}

/**
 * A lead the user may see, with the viewer it was seen as (GET/PATCH/DELETE /api/leads/{id}, and every route that
 * takes a lead id): undefined for a missing lead, another dealership's, or another rep's client for a sales user.
 */
export async function findVisibleLead(db: Executor, userId: string, leadId: string): Promise<{ lead: Lead; viewer: PersonViewer } | undefined> {
  const role = roleSql(userId, leads.dealershipId);
  const [row] = await db
    .select({ lead: leads, claimedByName, role: sql<DealershipRole>`${role}` })
    .from(leads)
    .leftJoin(users, eq(users.id, leads.claimedBy))
    .where(and(eq(leads.id, leadId), openLeadSql({ userId, role }, leads)))
    .limit(1);
  if (!row) return undefined;
  return { lead: toLead(row.lead, row.claimedByName), viewer: viewerOf(userId, row.lead.dealershipId, row.role) };
}

/** One lead the viewer may see, with the claimer's name (part 2 §3 Lead). */
export async function leadWithClaimer(db: Executor, viewer: Viewer, id: string): Promise<Lead | undefined> {
  const [row] = await db
    .select({ lead: leads, claimedByName })
    .from(leads)
    .leftJoin(users, eq(users.id, leads.claimedBy))
    .where(and(eq(leads.id, id), mayOpenLeadSql(viewer, leads)))
    .limit(1);
  return row ? toLead(row.lead, row.claimedByName) : undefined;
}

/**
 * Locks a lead the viewer may see for the rest of the transaction (an appointment or test drive scheduled onto it):
 * answers whether there is one. Another rep's client is not there for a sales user, as on GET /api/leads/{id}.
 */
export async function lockVisibleLead(tx: Tx, viewer: Viewer, leadId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.id, leadId), mayOpenLeadSql(viewer, leads)))
    .limit(1)
    .for("share");
  return Boolean(row);
}

// ---- The lists: one query shape, keyset pages, each part answered by an index (decisions 011, 012) ----

export interface LeadListOptions {
  type?: "new" | "my";
  q?: string;
  status?: LeadStatus;
  source?: LeadSource;
  limit: number;
  cursor?: LeadCursor;
}

/** Where the next page starts: the last row's creation time (exact, microseconds) and id. */
export interface LeadCursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(cursor: LeadCursor): string {
  return encodePageCursor([cursor.createdAt, cursor.id]);
}

const CURSOR_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;

/** The lead a page starts after, from a cursor's two parts, or null when they are not one we could have written. */
export function leadCursorOf([createdAt, id]: string[]): LeadCursor | null {
  if (createdAt === undefined || id === undefined) return null;
  if (id.length === 0 || id.length > 64 || !/^[\w-]+$/.test(id)) return null;
  const parts = CURSOR_TIME.exec(createdAt);
  if (!parts) return null;
  // A real instant between years 1 and 9999 (the regex alone lets 2024-13-45T99:00:00 through to PostgreSQL).
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (year < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return { createdAt, id };
}

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
export function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The parts of a list, each a condition an index answers in creation order. A sales user's full list is the
 * unclaimed pool plus their own clients: two index walks merged, never a scan of everybody's leads.
 */
function listParts(seeAll: boolean, userId: unknown, type: LeadListOptions["type"]): SQL[] {
  const pool = sql`${leads.status} = 'new'`;
  const mine = sql`${leads.claimedBy} = ${userId} and ${leads.status} <> 'new'`;
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
  source: LeadSource;
  source_provider: string | null;
  lost_reason: string | null;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

interface ListShape {
  type: LeadListOptions["type"];
  seeAll: boolean;
  status: boolean;
  source: boolean;
  q: boolean;
  cursor: boolean;
}

/** The SQL of one list shape with placeholders for its values: built once per shape, not per request. */
function listStatementSql(shape: ListShape): SQL {
  const p = (name: string) => sql.placeholder(name);
  const filters: SQL[] = [sql`${leads.dealershipId} = ${p("dealershipId")}`];
  if (shape.status) filters.push(sql`${leads.status} = ${p("status")}`);
  if (shape.source) filters.push(sql`${leads.source} = ${p("source")}`);
  // lower(pattern) LIKE on the lower-cased text is what ILIKE does, without lower-casing each row (decision 226).
  if (shape.q) filters.push(sql`${leads.searchText} like lower(${p("q")})`);
  if (shape.cursor) filters.push(sql`(${leads.createdAt}, ${leads.id}) < (${p("cursorAt")}::timestamptz, ${p("cursorId")}::text)`);
  // "desc nulls last" matches the indexes' order, so each part is an ordered index walk stopped after `take` rows.
  const order = sql`order by ${leads.createdAt} desc nulls last, ${leads.id} desc nulls last limit ${p("take")}`;
  // A search within a status, by someone who sees every lead, picks the page's ids first, then reads those rows: the
  // ids of a common term come from an index-only walk of leads_dealership_status_created_search_idx (no heap visit per
  // match), a rare one's from the GIN index; the planner chooses per term, the statement being planned for its values.
  // Other searches need a column that index lacks (a rep's claimed_by) and stay one step (decision 252).
  const idsFirst = shape.q && shape.status && shape.seeAll;
  const parts = listParts(shape.seeAll, p("userId"), shape.type).map((part) => {
    const where = sql.join([...filters, part], sql` and `);
    return idsFirst
      ? sql`(select * from ${leads} where ${leads.id} in (select ${leads.id} from ${leads} where ${where} ${order}))`
      : sql`(select * from ${leads} where ${where} ${order})`;
  });
  return sql`
    select l.id, l.first_name, l.last_name, l.email, l.phone, l.description, l.status, l.dealership_id,
           l.created_at, l.claimed_by, l.claimed_at, l.source, l.source_provider, l.lost_reason,
           to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
           (select nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')
              from ${users} u where u.id = l.claimed_by) as claimed_by_name
    from (${sql.join(parts, sql` union all `)}) l
    order by l.created_at desc nulls last, l.id desc nulls last
    limit ${p("take")}`;
}

const listStatements = new Map<string, FixedStatement>();

function listShape(viewer: Pick<Viewer, "role">, options: LeadListOptions): ListShape {
  return {
    type: options.type,
    seeAll: seesEveryLead(viewer.role),
    status: Boolean(options.status),
    source: Boolean(options.source),
    q: Boolean(options.q),
    cursor: Boolean(options.cursor),
  };
}

function listValues(viewer: Pick<Viewer, "userId" | "dealershipId">, options: LeadListOptions): Record<string, unknown> {
  return {
    dealershipId: viewer.dealershipId,
    userId: viewer.userId,
    status: options.status ?? null,
    source: options.source ?? null,
    // A number is found however it is typed (issue 29): its digits are looked for among the stored number's digits,
    // which the search text (and its trigram index) holds beside the E.164 form.
    q: options.q ? likeContains(phoneSearchDigits(options.q) ?? options.q) : null,
    cursorAt: options.cursor?.createdAt ?? null,
    cursorId: options.cursor?.id ?? null,
    take: options.limit + 1,
  };
}

/**
 * A page of a dealership's leads, newest first: GET /api/dealerships/{id}/leads (part 1 §2.4, §2.5, §7).
 * type=new is the unclaimed pool; type=my the caller's clients (all worked leads for front desk and management);
 * no type everything the caller may see. q and status narrow it (AND). Answers the rows and the next page's cursor.
 * Each shape's SQL is built once; most are prepared once, a search or a rep's own clients run unnamed (issue 13).
 */
export async function listLeads(db: Db, viewer: Viewer, options: LeadListOptions): Promise<{ leads: Lead[]; next: LeadCursor | null }> {
  const shape = listShape(viewer, options);
  const key = `leads_list_${shape.type ?? "all"}_${shape.seeAll ? "all" : "own"}_${shape.status ? "s" : ""}${shape.source ? "f" : ""}${shape.q ? "q" : ""}${shape.cursor ? "c" : ""}`;
  let statement = listStatements.get(key);
  if (!statement) {
    // Named (prepared, planned once) only where one generic plan suits every value: a search term, or a rep's own
    // clients (a few, or 20,000: the generic plan sorts them all, bench/RESULTS.md), are planned for their values.
    const generic = !shape.q && (shape.seeAll || shape.type === "new");
    statement = fixedStatement(generic ? key : undefined, listStatementSql(shape));
    listStatements.set(key, statement);
  }
  const rows = await runStatement<ListRow>(db, statement, listValues(viewer, options));
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
      source: r.source,
      sourceProvider: r.source_provider,
      lostReason: r.lost_reason,
    })),
    next: rows.length > options.limit && last ? { createdAt: last.cursor_at, id: last.id } : null,
  };
}

/** The SQL of one page with its values in place (the benchmark EXPLAINs it). */
export function listLeadsQuery(viewer: Pick<Viewer, "userId" | "dealershipId" | "role">, options: LeadListOptions): SQL {
  const statement = fixedStatement(undefined, listStatementSql(listShape(viewer, options)));
  const values = listValues(viewer, options);
  let i = 0;
  const params = statement.params.map((param) => {
    const name = (param as { name?: string }).name;
    return name === undefined ? param : values[name];
  });
  const chunks = statement.text.split(/\$\d+/);
  return sql.join(
    chunks.map((chunk, index) => (index < chunks.length - 1 ? sql`${sql.raw(chunk)}${params[i++]}` : sql.raw(chunk))),
    sql``,
  );
}

// ---- Writing ----

export interface NewLead {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  description: string | null;
  /** Missing: the column's default, walk-in (decision 130). */
  source?: LeadSource;
  sourceProvider?: string | null;
}

/**
 * A new lead of the viewer's dealership; with a claimer it starts claimed (part 1 §4: by sales, or assigned). A lead
 * its creator takes for themselves is answered at once (a customer in front of them; decision 140). It is linked to
 * the open leads of the same customer (decision 137).
 */
export async function createLead(tx: Tx, viewer: Viewer, values: NewLead, claimer: string | null): Promise<LeadRow> {
  const [row] = await tx
    .insert(leads)
    .values({
      ...values,
      dealershipId: viewer.dealershipId,
      status: claimer ? "claimed" : "new",
      claimedBy: claimer,
      claimedAt: claimer ? sql`now()` : null,
      ...(claimer && claimer === viewer.userId ? { firstResponseAt: sql`now()`, firstResponseKind: "created" as const, firstResponseBy: claimer } : {}),
    })
    .returning();
  if (!row) throw new Error("lead insert returned nothing");
  await linkPossibleDuplicates(tx, row);
  return row;
}

export type ClaimOutcome = { claimed: Lead } | { claimed: null; found: boolean };

// The claim's event payload, built by the statement from the claimed row in the shape of lead.claimed's schema
// (decision 185: the one serializer's shape, checked field by field when this module loads).
const claimedPayload = eventPayloadSql("lead.claimed", {
  lead: {
    id: sql`c.id`,
    firstName: sql`c.first_name`,
    lastName: sql`c.last_name`,
    email: sql`c.email`,
    phone: sql`c.phone`,
    description: sql`c.description`,
    status: sql`c.status`,
    claimedBy: sql`c.claimed_by`,
  },
  claimedBy: { id: sql`${sql.placeholder("userId")}::text`, name: sql`${sql.placeholder("userName")}::text` },
});

// The claim in one statement (issue 13: at most two round trips with the session): the conditional UPDATE decides the
// winner (ARCHITECTURE invariant 4), scoped to the dealerships the user can reach; the winner's event is written to the
// outbox by the same statement, so it commits with the claim. No NOTIFY here: it would make every claim's commit wait
// for one lock; the route announces the event after the commit instead (events.committed(), decision 120).
// `target` holds the lead's dealership in service and the claimer's account, as holdDealership does for every other
// write (decision 176), before the UPDATE touches the lead: a claim in flight when the dealership or the account is
// deleted commits first (and the deletion returns it) or waits and finds it gone (404), never lands after it. The
// user's KEY SHARE lock is the one the claimed_by foreign key takes anyway, taken a moment earlier.
const claimStatement = fixedStatement(
  "lead_claim",
  sql`with target as (
      select l.id, ${roleSql(sql.placeholder("userId"), sql`l.dealership_id`)} as role
      from ${leads} l join ${dealerships} d on d.id = l.dealership_id and d.active
        join ${users} u on u.id = ${sql.placeholder("userId")}
      where l.id = ${sql.placeholder("leadId")}
      for share of d for key share of u
    ),
    claimed as (
      update ${leads} set status = 'claimed', claimed_by = ${sql.placeholder("userId")}, claimed_at = now(),
        -- speed-to-lead (decision 140): a claim is a first answer unless something answered before
        first_response_at = coalesce(first_response_at, now()), first_response_kind = coalesce(first_response_kind, 'claim'),
        first_response_by = coalesce(first_response_by, ${sql.placeholder("userId")})
      where id = ${sql.placeholder("leadId")} and status = 'new' and claimed_by is null
        and exists (select 1 from target where role is not null)
      returning id, first_name, last_name, email, phone, description, status, dealership_id, created_at, claimed_by,
        claimed_at, source, source_provider
    ),
    published as (
      insert into ${domainEvents} (type, version, dealership_id, actor_id, payload)
      select 'lead.claimed', ${sql.raw(String(claimedPayload.version))}, c.dealership_id, ${sql.placeholder("userId")}, ${claimedPayload.payload}
      from claimed c returning id, type, version, dealership_id, actor_id, payload, created_at
    ),
    activity as (${activityOfPublished(sql`published`)})
    select (select role from target) as role,
           (select count(*) from published) as published,
           c.*
    from (select 1) one left join claimed c on true`,
);

interface ClaimRow {
  role: DealershipRole | null;
  id: string | null;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  description: string | null;
  status: LeadStatus;
  dealership_id: string;
  created_at: Date | string;
  claimed_by: string | null;
  claimed_at: Date | string | null;
  source: LeadSource;
  source_provider: string | null;
}

/**
 * Claims a lead for a user: only a lead still new and unclaimed, in a dealership the user can reach, changes, so of
 * any number of simultaneous claims exactly one wins. `found` tells a taken lead (409) from a missing one (404).
 */
export async function claimLead(db: Db, claimer: { id: string; name: string }, leadId: string): Promise<ClaimOutcome> {
  const [row] = await runStatement<ClaimRow>(db, claimStatement, { leadId, userId: claimer.id, userName: claimer.name });
  if (!row?.id) return { claimed: null, found: Boolean(row?.role) };
  return {
    claimed: {
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone,
      description: row.description,
      status: row.status,
      dealershipId: row.dealership_id,
      createdAt: iso(row.created_at),
      claimedBy: row.claimed_by,
      claimedByName: claimer.name,
      claimedAt: row.claimed_at ? iso(row.claimed_at) : null,
      source: row.source,
      sourceProvider: row.source_provider,
    },
  };
}

export interface LeadChanges {
  firstName?: string;
  lastName?: string;
  email?: string | null;
  phone?: string | null;
  description?: string | null;
  status?: LeadStatus;
  /** With status "lost": why (checked against the dealership's list by the route). */
  lostReason?: string;
}

const before = alias(leads, "before");

/** The fields an edit may change, as they were before it (read in the UPDATE itself, from the row it replaced). */
export type LeadBefore = Pick<LeadRow, "firstName" | "lastName" | "email" | "phone" | "description" | "status" | "claimedBy" | "lostReason">;

/**
 * Edits a lead the viewer may see (part 2 §7), answering the row and its fields before the change, or undefined when
 * no row matched (gone, or no longer visible: claimed by another rep a moment ago). A status change keeps "new" and
 * "unclaimed" the same thing (decision 010): back to new returns the lead to the pool (claim cleared); out of new, a
 * lead nobody claimed is recorded as claimed by whoever moved it. Decided inside the one UPDATE, so it cannot race a
 * claim.
 */
export async function updateLead(
  tx: Tx,
  viewer: Viewer,
  leadId: string,
  changes: LeadChanges,
): Promise<{ row: LeadRow; previous: LeadBefore } | undefined> {
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
      claimedBy: sql`coalesce(${leads.claimedBy}, ${viewer.userId})`,
      claimedAt: sql`coalesce(${leads.claimedAt}, now())`,
    });
  }
  // A lost lead keeps its reason (a new one replaces it); any other status has none (decision 202).
  if (changes.status !== undefined) {
    set.lostReason = changes.status === "lost" ? (changes.lostReason ?? sql`${leads.lostReason}`) : null;
    set.lostAt = changes.status === "lost" ? sql`case when ${leads.status} = 'lost' then ${leads.lostAt} else now() end` : null;
  }
  // A status that changes is a first answer (speed-to-lead, decision 140); saving the same status is not.
  if (changes.status !== undefined) {
    const answer = firstResponseSet("status", viewer.userId);
    const changed = sql`${leads.status} is distinct from ${changes.status}`;
    set.firstResponseAt = sql`case when ${changed} then ${answer.firstResponseAt} else ${leads.firstResponseAt} end`;
    set.firstResponseKind = sql`case when ${changed} then ${answer.firstResponseKind} else ${leads.firstResponseKind} end`;
    set.firstResponseBy = sql`case when ${changed} then ${answer.firstResponseBy} else ${leads.firstResponseBy} end`;
  }
  // Nothing to change still proves the lead is there and visible (a no-op PATCH answers the lead, not 404).
  if (Object.keys(set).length === 0) set.firstName = sql`${leads.firstName}`;
  // A move to Lost without a reason changes nothing: only a lead already lost may be saved without one.
  const lostNeedsReason = changes.status === "lost" && !changes.lostReason ? sql`${leads.status} = 'lost'` : undefined;
  const [result] = await tx
    .update(leads)
    .set(set)
    .from(before)
    .where(and(eq(leads.id, leadId), eq(before.id, leads.id), mayOpenLeadSql(viewer, leads), lostNeedsReason))
    .returning({
      row: leads,
      firstName: before.firstName,
      lastName: before.lastName,
      email: before.email,
      phone: before.phone,
      description: before.description,
      status: before.status,
      claimedBy: before.claimedBy,
      lostReason: before.lostReason,
    });
  if (!result) return undefined;
  const { row, ...previous } = result;
  return { row, previous };
}

/**
 * Deletes a lead the viewer may see; answers the deleted row, or undefined when none matched. The lead and what goes
 * with it are kept for 30 days first (decision 214); the row is held from the first read, so nothing added to it
 * meanwhile (a note, a task) is deleted without being kept.
 */
export async function deleteLead(tx: Tx, viewer: Viewer, leadId: string): Promise<LeadRow | undefined> {
  const [row] = await tx
    .select()
    .from(leads)
    .where(and(eq(leads.id, leadId), mayOpenLeadSql(viewer, leads)))
    .for("update");
  if (!row) return undefined;
  await archiveLead(tx, leadId, viewer.userId);
  await tx.delete(leads).where(eq(leads.id, leadId));
  return row;
}

// ---- People ----

/**
 * Locks an active membership of the dealership for the rest of the transaction and answers the member's name, or null
 * when the user is not an active member (a lead may be assigned only to one; part 1 §6).
 */
export async function lockActiveMember(tx: Tx, dealershipId: string, userId: string): Promise<string | null> {
  const [row] = await tx
    .select({ name: claimedByName, email: users.email })
    .from(dealershipUsers)
    .innerJoin(users, eq(users.id, dealershipUsers.userId))
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.userId, userId), eq(dealershipUsers.active, true)))
    .limit(1)
    .for("share", { of: dealershipUsers });
  return row ? (row.name ?? row.email) : null;
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
