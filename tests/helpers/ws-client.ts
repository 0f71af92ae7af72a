import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import WebSocket from "ws";

// A real WebSocket client (the `ws` package) for /ws, as a browser page would open it: the session cookie and the
// page's Origin on the upgrade, then JSON both ways. Keeps every message it receives, to wait for one or to check none
// came.

export interface ReceivedMessage {
  type: string;
  data: Record<string, unknown>;
}

export interface SocketClient {
  socket: WebSocket;
  received: ReceivedMessage[];
  send(message: unknown): void;
  /** Sends the page's auth message and waits for the server's answer (authenticated or error). */
  auth(dealershipId: string, userId?: string): Promise<ReceivedMessage>;
  /** The first message (from `since` on) that matches, waiting up to timeoutMs. */
  next(match: (m: ReceivedMessage) => boolean, options?: { timeoutMs?: number; since?: number }): Promise<ReceivedMessage>;
  /** Resolves with the close code and reason when the server closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** ws://host:port/ws of a listening app. */
export function socketUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${address.port}/ws`;
}

/** Opens a socket; rejects with "Unexpected server response: NNN" when the upgrade is refused. */
export function openSocket(
  url: string,
  options: { cookie?: string; origin?: string | null; wsOptions?: WebSocket.ClientOptions } = {},
): Promise<SocketClient> {
  const origin = options.origin === undefined ? new URL(url.replace(/^ws/, "http")).origin : options.origin;
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  const socket = new WebSocket(url, { headers, ...(origin === null ? {} : { origin }), ...options.wsOptions });
  const received: ReceivedMessage[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on("close", (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters) wake();
    });
  });
  socket.on("message", (data) => {
    received.push(JSON.parse(String(data)) as ReceivedMessage);
    for (const wake of waiters) wake();
  });
  const client: SocketClient = {
    socket,
    received,
    closed,
    send: (message) => socket.send(typeof message === "string" ? message : JSON.stringify(message)),
    close: () => socket.close(),
    // Generous: a message that must come may wait behind the outbox dispatcher on a loaded 2-core machine (CI ran at load 12);
    // what must not come is checked after settle(), not with this timeout.
    next(match, { timeoutMs = 10_000, since = 0 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.slice(since).find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms; received ${JSON.stringify(received)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async auth(dealershipId, userId) {
      const since = received.length;
      client.send({ type: "auth", dealershipId, ...(userId ? { userId } : {}) });
      return client.next((m) => m.type === "authenticated" || m.type === "error", { since });
    },
  };
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve(client));
    socket.once("error", reject);
  });
}

/** Waits a moment for stragglers: what a socket should not receive, it has not received by then. */
export const settle = (ms = 400) => new Promise((resolve) => setTimeout(resolve, ms));
