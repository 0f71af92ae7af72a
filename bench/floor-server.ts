import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { LEAD_STATUSES } from "../src/shared/constants";

// The floor (issue 13): the least a server can do to answer the benchmarked requests exactly as the app does.
// Raw node:http and pg, no framework: one query resolves session, user and role in the dealership, then the
// list query or the one claim statement. Same cookie, status, JSON bytes and Link header as the app; headers
// the app adds for browsers (security headers, compression) are left out. The bench's check compares answers.
//
//   FLOOR_DATABASE_URL=postgres://... FLOOR_MODE=unnamed|prepared PORT=0 node --import tsx bench/floor-server.ts
//
// prints "listening <port>" when ready and stops on SIGTERM.

export type FloorMode = "unnamed" | "prepared";

export interface FloorOptions {
  connectionString: string;
  mode: FloorMode;
  port?: number;
  host?: string;
  /** The app's SESSION_IDLE_MINUTES: a session's idle expiry slides the same way. */
  sessionIdleMs?: number;
  poolSize?: number;
}

export interface FloorServer {
  port: number;
  close(): Promise<void>;
}

const SESSION_COOKIE = "showroom.sid";
const TOUCH_INTERVAL_MS = 60_000;
const PAGE_DEFAULT = 100;
const PAGE_MAX = 200;
const ALREADY_CLAIMED = "This lead is already claimed by another user.";
const LEAD_NOT_FOUND = "Lead not found";
const LEAD_STATUS_SET = new Set<string>(LEAD_STATUSES);
const SEES_ALL_CLAIMED = new Set(["frontDesk", "management"]);

const NAME = "nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')";
const LEAD_COLUMNS =
  "id, first_name, last_name, email, phone, description, status, dealership_id, created_at, claimed_by, claimed_at, source, source_provider, lost_reason";

/** The role a user holds in a dealership: an active membership, else management for a platform admin granted it. */
function roleIn(dealership: string): string {
  return `coalesce(
      (select m.role from dealership_users m join dealerships d on d.id = m.dealership_id
        where m.user_id = u.id and m.dealership_id = ${dealership} and m.active and d.active),
      (select 'management' from platform_admin_dealership_access g join platform_admins p on p.user_id = g.user_id
        where g.user_id = u.id and g.dealership_id = ${dealership} and g.active and p.active))`;
}

interface Statements {
  sessionInDealership: string;
  sessionForLead: string;
  claim: string;
}

/** Sessions name their user in a user_id column, or (before migration 0004) only inside sess. */
export function statements(userKey: string): Statements {
  const session = "s.expire, (s.sess->>'absoluteExpiry')::float8 as absolute_expiry, u.id as user_id";
  return {
    sessionInDealership: `select ${session}, ${roleIn("$2")} as role
      from sessions s join users u on u.id = ${userKey}
      where s.sid = $1 and s.expire > now()`,
    sessionForLead: `select ${session}, l.dealership_id as lead_dealership_id,
        case when l.id is null then null else ${roleIn("l.dealership_id")} end as role
      from sessions s join users u on u.id = ${userKey} left join leads l on l.id = $2
      where s.sid = $1 and s.expire > now()`,
    // The claim also records the lead's first answer (speed-to-lead, decision 140), as the app's does.
    claim: `update leads set status = 'claimed', claimed_by = $2, claimed_at = now(),
        first_response_at = coalesce(first_response_at, now()), first_response_kind = coalesce(first_response_kind, 'claim'),
        first_response_by = coalesce(first_response_by, $2)
      where id = $1 and status = 'new' and claimed_by is null
      returning ${LEAD_COLUMNS}, (select ${NAME} from users u where u.id = $2) as claimed_by_name`,
  };
}

interface SessionRow {
  expire: Date;
  absolute_expiry: number;
  user_id: string;
  role: string | null;
}

export interface ListShape {
  seeAll: boolean;
  type: "new" | "my" | undefined;
  status: boolean;
  q: boolean;
  cursor: boolean;
}

/** A list's SQL, the app's listLeadsQuery written out: each part an index walk, merged, one lookup per claimer. */
export type ListValue = "dealership" | "status" | "q" | "cursorAt" | "cursorId" | "user" | "take";

export function listSql(shape: ListShape): { text: string; order: ListValue[] } {
  const order: ListValue[] = ["dealership"];
  const p = (name: (typeof order)[number]) => {
    order.push(name);
    return `$${order.length}`;
  };
  const filters = ["dealership_id = $1"];
  if (shape.status) filters.push(`status = ${p("status")}`);
  // The app's search (decision 226): the lower-cased search_text column, answered by its GIN index.
  if (shape.q) filters.push(`search_text like lower(${p("q")})`);
  if (shape.cursor) filters.push(`(created_at, id) < (${p("cursorAt")}::timestamptz, ${p("cursorId")})`);
  const pool = "status = 'new'";
  const mine = () => `claimed_by = ${p("user")} and status <> 'new'`;
  let parts: string[];
  if (shape.type === "new") parts = [pool];
  else if (shape.type === "my") parts = [shape.seeAll ? "status <> 'new'" : mine()];
  else parts = shape.seeAll ? ["true"] : [pool, mine()];
  const take = p("take");
  const orderBy = `order by created_at desc nulls last, id desc nulls last limit ${take}`;
  // As the app: a search within a status by someone who sees every lead takes the page's ids first (decision 252).
  const idsFirst = shape.q && shape.status && shape.seeAll;
  const selects = parts.map((part) => {
    const where = [...filters, part].join(" and ");
    return idsFirst ? `(select * from leads where id in (select id from leads where ${where} ${orderBy}))` : `(select * from leads where ${where} ${orderBy})`;
  });
  const text = `select l.${LEAD_COLUMNS.split(", ").join(", l.")},
      to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
      (select ${NAME} from users u where u.id = l.claimed_by) as claimed_by_name
    from (${selects.join(" union all ")}) l
    order by l.created_at desc nulls last, l.id desc nulls last
    limit ${take}`;
  return { text, order };
}

interface LeadRecord {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  description: string | null;
  status: string;
  dealership_id: string;
  created_at: Date;
  claimed_by: string | null;
  claimed_at: Date | null;
  claimed_by_name: string | null;
  source: string;
  source_provider: string | null;
  lost_reason: string | null;
  cursor_at?: string;
}

/** A lead as the API answers it, keys in the app's order (the bodies are compared byte for byte). */
function leadJson(r: LeadRecord) {
  return {
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    phone: r.phone,
    description: r.description,
    status: r.status,
    dealershipId: r.dealership_id,
    createdAt: r.created_at.toISOString(),
    claimedBy: r.claimed_by,
    claimedByName: r.claimed_by_name,
    claimedAt: r.claimed_at ? r.claimed_at.toISOString() : null,
    source: r.source,
    sourceProvider: r.source_provider,
  };
}

class Answer extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

const fail = (status: number, message: string, fields?: Record<string, string>) =>
  new Answer(status, fields ? { message, fields } : { message });

function send(res: ServerResponse, status: number, body: unknown, link?: string): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.setHeader("content-length", Buffer.byteLength(json));
  if (link) res.setHeader("link", link);
  res.end(json);
}

function sessionToken(req: IncomingMessage): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value.includes("%") ? decodeURIComponent(value) : value;
    }
  }
  return null;
}

function badInput(key: string, message: string): Answer {
  return fail(400, `${key}: ${message}`, { [key]: message });
}

function decodeCursor(value: string): { createdAt: string; id: string } | null {
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

export async function startFloorServer(options: FloorOptions): Promise<FloorServer> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
  pool.on("error", () => undefined);
  const prepared = options.mode === "prepared";
  const idleMs = options.sessionIdleMs ?? 7 * 24 * 60 * 60_000;

  const column = await pool.query("select 1 from information_schema.columns where table_name = 'sessions' and column_name = 'user_id'");
  const sql = statements(column.rowCount ? "s.user_id" : "s.sess->>'userId'");
  const lists = new Map<string, ReturnType<typeof listSql> & { name: string }>();

  async function run<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
    const result = prepared ? await pool.query<R>({ name, text, values }) : await pool.query<R>(text, values);
    return result.rows;
  }

  /** Whose session this is, checked the way the app checks it (idle and absolute expiry, sliding the idle one). */
  async function signedIn(
    req: IncomingMessage,
    name: string,
    text: string,
    key: string,
  ): Promise<SessionRow> {
    const token = sessionToken(req);
    if (!token) throw fail(401, "Unauthorized");
    const sid = createHash("sha256").update(token).digest("base64url");
    const [row] = await run<SessionRow>(name, text, [sid, key]);
    if (!row) throw fail(401, "Unauthorized");
    const now = Date.now();
    if (row.absolute_expiry <= now) {
      await pool.query("delete from sessions where sid = $1", [sid]);
      throw fail(401, "Unauthorized");
    }
    const slid = Math.min(now + idleMs, row.absolute_expiry);
    if (slid - row.expire.getTime() > TOUCH_INTERVAL_MS) await pool.query("update sessions set expire = $2 where sid = $1", [sid, new Date(slid)]);
    return row;
  }

  async function leadList(req: IncomingMessage, dealershipId: string, query: URLSearchParams): Promise<{ body: unknown; link?: string }> {
    const access = await signedIn(
      req,
      "floor_session_dealership",
      sql.sessionInDealership,
      dealershipId,
    );
    if (!access.role) throw fail(403, "You do not have access to this dealership");
    const type = query.get("type") ?? undefined;
    if (type !== undefined && type !== "new" && type !== "my") throw badInput("type", "type must be new or my");
    const status = query.get("status") ?? undefined;
    if (status !== undefined && !LEAD_STATUS_SET.has(status)) throw badInput("status", `Status must be one of: ${LEAD_STATUSES.join(", ")}`);
    const q = (query.get("q") ?? "").trim();
    if (q.length > 200) throw badInput("q", "Search is too long");
    const limitText = query.get("limit");
    const limit = limitText === null ? PAGE_DEFAULT : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX) throw badInput("limit", `limit must be a number from 1 to ${PAGE_MAX}`);
    const cursorText = query.get("cursor");
    const cursor = cursorText ? decodeCursor(cursorText) : undefined;
    if (cursor === null) throw badInput("cursor", "is not a valid page cursor");

    const shape: ListShape = { seeAll: SEES_ALL_CLAIMED.has(access.role), type, status: Boolean(status), q: q !== "", cursor: Boolean(cursor) };
    const key = JSON.stringify(shape);
    let list = lists.get(key);
    if (!list) {
      list = { ...listSql(shape), name: `floor_list_${lists.size}` };
      lists.set(key, list);
    }
    const values: Record<ListValue, unknown> = {
      dealership: dealershipId,
      status,
      q: `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      cursorAt: cursor?.createdAt,
      cursorId: cursor?.id,
      user: access.user_id,
      take: limit + 1,
    };
    const rows = await run<LeadRecord>(list.name, list.text, list.order.map((k) => values[k]));
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    let link: string | undefined;
    if (rows.length > limit && last) {
      const params = new URLSearchParams();
      for (const [k, v] of query) if (k !== "cursor") params.set(k, v);
      params.set("cursor", Buffer.from(JSON.stringify([last.cursor_at, last.id])).toString("base64url"));
      link = `</api/dealerships/${encodeURIComponent(dealershipId)}/leads?${params.toString()}>; rel="next"`;
    }
    // The lists answer a lead's lost reason too (issue 27); the claim's answer does not.
    return { body: page.map((r) => ({ ...leadJson(r), lostReason: r.lost_reason })), link };
  }

  async function claim(req: IncomingMessage, leadId: string): Promise<unknown> {
    const access = await signedIn(
      req,
      "floor_session_lead",
      sql.sessionForLead,
      leadId,
    );
    if (!access.role) throw fail(404, LEAD_NOT_FOUND);
    const [row] = await run<LeadRecord>("floor_claim", sql.claim, [leadId, access.user_id]);
    if (!row) throw fail(409, ALREADY_CLAIMED);
    return leadJson(row);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://floor");
    let match: RegExpExecArray | null;
    try {
      if (req.method === "GET" && (match = /^\/api\/dealerships\/([^/]+)\/leads$/.exec(url.pathname))) {
        const { body, link } = await leadList(req, decodeURIComponent(match[1]!), url.searchParams);
        send(res, 200, body, link);
      } else if (req.method === "POST" && (match = /^\/api\/leads\/([^/]+)\/claim$/.exec(url.pathname))) {
        send(res, 200, await claim(req, decodeURIComponent(match[1]!)));
      } else {
        send(res, 404, { message: "Not found" });
      }
    } catch (error) {
      if (error instanceof Answer) send(res, error.status, error.body);
      else send(res, 500, { message: "Internal server error" });
    }
  }

  const server: Server = createServer((req, res) => {
    req.resume(); // no route reads a body
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

async function main(): Promise<void> {
  const connectionString = process.env.FLOOR_DATABASE_URL;
  const mode = process.env.FLOOR_MODE;
  if (!connectionString || (mode !== "unnamed" && mode !== "prepared")) {
    throw new Error("set FLOOR_DATABASE_URL and FLOOR_MODE=unnamed|prepared");
  }
  const floor = await startFloorServer({
    connectionString,
    mode,
    port: Number(process.env.PORT ?? 0),
    host: process.env.HOST ?? "127.0.0.1",
    sessionIdleMs: Number(process.env.SESSION_IDLE_MINUTES ?? 7 * 24 * 60) * 60_000,
  });
  process.stdout.write(`listening ${floor.port}\n`);
  process.on("SIGTERM", () => void floor.close().then(() => process.exit(0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
