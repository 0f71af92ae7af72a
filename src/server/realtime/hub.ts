import { sql } from "drizzle-orm";
import type { FastifyBaseLogger as Logger } from "fastify";
import WebSocket from "ws";
import type { DealershipRole } from "../../shared/constants";
import type { DomainEvent } from "../../shared/events";
import { driveVisibilityFacts } from "../access/test-drives";
import { roleSql } from "../auth/tenancy";
import { rowsOf, type Db } from "../db/client";
import { sessions } from "../db/schema/users";
import { deliveryFor, needsDriveFacts, type DriveFacts } from "./audience";
import { realtimeMessageOf, withoutClient, type ControlMessage } from "./messages";

// This process's open sockets and the fan-out to them (decisions 105-107). Every process hears every committed event
// (events/dispatcher.ts LISTENs), so each one only writes to its own sockets: no socket is shared between processes.

/** Close codes the client can tell apart (4000-4999 are the application's). */
export const CLOSE = {
  sessionEnded: { code: 4401, reason: "Session ended" },
  accessEnded: { code: 4403, reason: "No access to this dealership" },
  tooSlow: { code: 1013, reason: "Too slow to read" },
} as const;

/** A socket that has not read this much of what we sent is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface Connection {
  socket: WebSocket;
  /** The session's id (the hash of the cookie token): how an ended session finds its sockets. */
  sid: string;
  userId: string;
  /** The dealership the page named in its last auth message, with the user's role there; null before one. */
  scope: { dealershipId: string; role: DealershipRole } | null;
}

export interface Hub {
  add(connection: Connection): void;
  remove(connection: Connection): void;
  /** Moves a socket to a dealership (or out of any with null). */
  scope(connection: Connection, scope: Connection["scope"]): void;
  /** Fans a committed event out to this process's sockets in its dealership. */
  deliver(event: DomainEvent & { id: number }): Promise<void>;
  closeSessions(sids: Iterable<string>): void;
  /** Re-reads every socket's session and role in one query: ends, expiries and access changes no event told us of. */
  recheck(): Promise<void>;
  size(): number;
  closeAll(): void;
}

export function send(socket: WebSocket, message: ControlMessage | string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    socket.close(CLOSE.tooSlow.code, CLOSE.tooSlow.reason);
    return;
  }
  socket.send(typeof message === "string" ? message : JSON.stringify(message));
}

export function createHub(options: { db: Db; logger: Logger }): Hub {
  const { db, logger } = options;
  const byDealership = new Map<string, Set<Connection>>();
  const bySid = new Map<string, Set<Connection>>();
  const all = new Set<Connection>();

  const addTo = <K>(map: Map<K, Set<Connection>>, key: K, c: Connection) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(c);
  };
  const removeFrom = <K>(map: Map<K, Set<Connection>>, key: K, c: Connection) => {
    const set = map.get(key);
    if (!set) return;
    set.delete(c);
    if (set.size === 0) map.delete(key);
  };

  function close(c: Connection, how: { code: number; reason: string }): void {
    // Out of the fan-out at once: nothing more reaches it while the close handshake runs.
    hub.remove(c);
    if (c.socket.readyState === WebSocket.OPEN || c.socket.readyState === WebSocket.CONNECTING) c.socket.close(how.code, how.reason);
  }

  function driveFacts(testDriveId: string): Promise<DriveFacts | undefined> {
    return driveVisibilityFacts(db, testDriveId);
  }

  function onTeamEvent(event: DomainEvent): void {
    const here = byDealership.get(event.dealershipId);
    if (!here) return;
    if (event.type === "dealership.deleted") {
      for (const c of [...here]) close(c, CLOSE.accessEnded);
    } else if (event.type === "team.member_removed") {
      for (const c of [...here]) if (c.userId === event.payload.member.id) close(c, CLOSE.accessEnded);
    } else if (event.type === "team.member_role_changed") {
      for (const c of here) if (c.userId === event.payload.member.id && c.scope) c.scope = { ...c.scope, role: event.payload.role };
    }
  }

  const hub: Hub = {
    add(c) {
      all.add(c);
      addTo(bySid, c.sid, c);
      if (c.scope) addTo(byDealership, c.scope.dealershipId, c);
    },
    remove(c) {
      all.delete(c);
      removeFrom(bySid, c.sid, c);
      if (c.scope) removeFrom(byDealership, c.scope.dealershipId, c);
    },
    scope(c, scope) {
      if (c.scope) removeFrom(byDealership, c.scope.dealershipId, c);
      c.scope = scope;
      if (scope && all.has(c)) addTo(byDealership, scope.dealershipId, c);
    },
    async deliver(event) {
      onTeamEvent(event);
      const here = byDealership.get(event.dealershipId);
      if (!here?.size) return;
      const message = realtimeMessageOf(event, new Date());
      if (!message) return;
      const listeners = [...here];
      // A drive's visibility for a sales rep depends on rows the event does not carry: one read, only when needed.
      const drive =
        needsDriveFacts(event) && listeners.some((c) => c.scope?.role === "sales") ? await driveFacts(event.payload.testDrive.id) : undefined;
      let whole: string | undefined;
      let nameless: string | undefined;
      for (const c of listeners) {
        if (!c.scope || !all.has(c)) continue;
        const delivery = deliveryFor(event, { userId: c.userId, role: c.scope.role }, drive);
        if (delivery === "whole") send(c.socket, (whole ??= JSON.stringify(message)));
        else if (delivery === "nameless") send(c.socket, (nameless ??= JSON.stringify(withoutClient(message))));
      }
    },
    closeSessions(sids) {
      for (const sid of sids) for (const c of [...(bySid.get(sid) ?? [])]) close(c, CLOSE.sessionEnded);
    },
    async recheck() {
      if (all.size === 0) return;
      const keys = new Map<string, { sid: string; dealershipId: string }>();
      for (const c of all) {
        const dealershipId = c.scope?.dealershipId ?? "";
        keys.set(`${c.sid} ${dealershipId}`, { sid: c.sid, dealershipId });
      }
      const result = await db.execute(sql`
        select x.sid, x.dealership_id as "dealershipId", s.sid is not null as live,
          case when s.sid is null or x.dealership_id = '' then null else ${roleSql(sql`s.user_id`, sql`x.dealership_id`)} end as role
        from json_to_recordset(${JSON.stringify([...keys.values()].map((k) => ({ sid: k.sid, dealership_id: k.dealershipId })))}::json)
          as x(sid text, dealership_id text)
        left join ${sessions} s on s.sid = x.sid and s.expire > now()
          and (s.sess->>'absoluteExpiry')::bigint > extract(epoch from now()) * 1000`);
      const answers = new Map(
        rowsOf<{ sid: string; dealershipId: string; live: boolean; role: DealershipRole | null }>(result).map((r) => [`${r.sid} ${r.dealershipId}`, r]),
      );
      for (const c of [...all]) {
        const answer = answers.get(`${c.sid} ${c.scope?.dealershipId ?? ""}`);
        if (!answer) continue; // opened while we asked: the next round checks it
        if (!answer.live) close(c, CLOSE.sessionEnded);
        else if (c.scope && !answer.role) close(c, CLOSE.accessEnded);
        else if (c.scope && answer.role !== c.scope.role) c.scope = { ...c.scope, role: answer.role! };
      }
      logger.debug({ sockets: all.size }, "real-time sockets rechecked");
    },
    size: () => all.size,
    closeAll() {
      for (const c of [...all]) close(c, { code: 1001, reason: "Server shutting down" });
    },
  };
  return hub;
}
