import pg from "pg";
import type { FastifyBaseLogger as Logger } from "fastify";
import type { Db } from "../db/client";

// Sessions end in any process (sign-out, removal, password change, maintenance, a deleted account). A trigger on the
// sessions table (migration 0013) notifies this channel with each deleted session's id at commit, so every process
// closes that session's sockets within moments (decision 107). The periodic recheck covers a lost connection.

export const SESSIONS_ENDED_CHANNEL = "showroom_sessions_ended";

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * Calls `onEnded` with each ended session id; `onReconnected` after the channel came back (something may have been
 * missed meanwhile). Answers a function that stops listening.
 */
export async function listenForEndedSessions(options: {
  db: Db;
  logger: Logger;
  onEnded: (sid: string) => void;
  onReconnected: () => void;
}): Promise<() => Promise<void>> {
  const { db, logger, onEnded, onReconnected } = options;
  const client = (db as unknown as { $client: pg.Pool | PgliteLike }).$client;
  if (!(client instanceof pg.Pool)) return client.listen(SESSIONS_ENDED_CHANNEL, (sid) => onEnded(sid));

  let stopped = false;
  let connection: pg.Client | null = null;
  async function connect(): Promise<void> {
    // A connection of its own: LISTEN holds it for the life of the process.
    const next = new pg.Client((client as pg.Pool).options);
    next.on("notification", (message) => {
      if (message.payload) onEnded(message.payload);
    });
    next.on("error", (error) => {
      if (stopped) return;
      logger.warn({ err: error }, "sessions channel lost; reconnecting");
      void next.end().catch(() => undefined);
      setTimeout(() => void retry(), 1000).unref();
    });
    await next.connect();
    await next.query(`listen ${SESSIONS_ENDED_CHANNEL}`);
    connection = next;
  }
  async function retry(): Promise<void> {
    if (stopped) return;
    try {
      await connect();
      onReconnected();
    } catch (error) {
      logger.warn({ err: error }, "sessions channel reconnect failed");
      setTimeout(() => void retry(), 5000).unref();
    }
  }
  await connect();
  return async () => {
    stopped = true;
    await connection?.end().catch(() => undefined);
  };
}
