import websocket from "@fastify/websocket";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type WebSocket from "ws";
import { resumeSession, SESSION_COOKIE, type SessionPolicy } from "../auth/sessions";
import { HttpError, unauthorized } from "../http/errors";
import { createHub, send, type Connection } from "./hub";
import { clientMessageSchema, DEALERSHIP_ID_SHAPE, MAX_CLIENT_MESSAGE_BYTES } from "./messages";
import { listenForEndedSessions } from "./session-ends";

// WebSocket /ws on the app's own port (spec part 2 §7; decision 105). The upgrade is an HTTP request like any other:
// the session cookie names the user (401 without a live one) and the Origin must be this app's (403 otherwise), so a
// page on another site cannot open a socket with the user's cookie. The page then says which dealership it shows;
// the role there is checked as for HTTP, and events of that dealership the user may see flow until the socket closes.

export interface RealtimeOptions {
  /** A socket that has not answered the last ping by the next one is dropped (a phone that lost its network). */
  heartbeatMs: number;
  /** How often every socket's session and role are read again (expiry, anything a lost notification missed). */
  recheckMs: number;
}

export const DEFAULT_REALTIME_OPTIONS: RealtimeOptions = { heartbeatMs: 30_000, recheckMs: 30_000 };

/** More messages than this in a window is not a page switching dealership: the socket is closed (1008). */
const MESSAGE_BURST = 20;
const MESSAGE_WINDOW_MS = 10_000;

export const WS_PATH = "/ws";

export async function realtimeRoutes(app: FastifyInstance, options: Partial<RealtimeOptions> = {}): Promise<void> {
  const timing = { ...DEFAULT_REALTIME_OPTIONS, ...options };
  const hub = createHub({ db: app.db, logger: app.log });
  const alive = new WeakMap<WebSocket, boolean>();
  const policy: SessionPolicy = { idleMs: app.config.sessionIdleMs, absoluteMs: app.config.sessionAbsoluteMs };
  const recheck = () => void hub.recheck().catch((error: unknown) => app.log.warn({ err: error }, "real-time recheck failed"));

  await app.register(websocket, { options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES } });

  app.events.listen((event) => {
    void hub.deliver(event).catch((error: unknown) => app.log.error({ err: error, eventId: event.id }, "real-time delivery failed"));
  });

  let stopListening: (() => Promise<void>) | null = null;
  const timers: NodeJS.Timeout[] = [];
  app.addHook("onReady", async () => {
    stopListening = await listenForEndedSessions({
      db: app.db,
      logger: app.log,
      onEnded: (sid) => hub.closeSessions([sid]),
      onReconnected: recheck,
    });
    timers.push(setInterval(recheck, timing.recheckMs));
    timers.push(
      setInterval(() => {
        for (const socket of app.websocketServer.clients) {
          if (alive.get(socket) === false) {
            socket.terminate();
            continue;
          }
          alive.set(socket, false);
          socket.ping();
        }
      }, timing.heartbeatMs),
    );
    for (const timer of timers) timer.unref();
  });
  app.addHook("preClose", async () => {
    for (const timer of timers) clearInterval(timer);
    hub.closeAll();
    // A database already gone (shut down first, or lost) must not stop the app from closing.
    await stopListening?.().catch((error: unknown) => app.log.warn({ err: error }, "could not stop listening for ended sessions"));
  });

  app.get(
    WS_PATH,
    {
      websocket: true,
      onRequest: async (request) => {
        assertOwnOrigin(request, app.config.appUrl);
        const token = request.cookies[SESSION_COOKIE];
        // Read, never slid: a socket (and its reconnects) is not the person using the app (decision 156).
        const session = token ? await resumeSession(app.db, token, policy, undefined, { slide: false }) : null;
        if (!session) throw unauthorized();
        request.session = { sid: session.sid, userId: session.userId, isPlatformAdmin: session.isPlatformAdmin };
      },
    },
    (socket, request) => {
      const token = request.cookies[SESSION_COOKIE]!;
      const session = request.session!;
      const connection: Connection = { socket, sid: session.sid, userId: session.userId, scope: null };
      hub.add(connection);
      alive.set(socket, true);
      socket.on("pong", () => alive.set(socket, true));
      socket.on("close", () => hub.remove(connection));

      let recent: number[] = [];
      // Auth messages run one after another: a quick switch A -> B must end scoped to B.
      let queue = Promise.resolve();
      socket.on("message", (data, isBinary) => {
        const now = Date.now();
        recent = recent.filter((at) => now - at < MESSAGE_WINDOW_MS);
        recent.push(now);
        if (recent.length > MESSAGE_BURST) return socket.close(1008, "Too many messages");
        if (isBinary) return socket.close(1003, "Text messages only");
        let parsed: unknown;
        try {
          parsed = JSON.parse(String(data));
        } catch {
          return send(socket, { type: "error", data: { message: "Message is not JSON" } });
        }
        const message = clientMessageSchema.safeParse(parsed);
        if (!message.success) {
          return send(socket, { type: "error", data: { message: 'Expected {"type":"auth","dealershipId":"..."}' } });
        }
        const dealershipId = message.data.dealershipId;
        if (!DEALERSHIP_ID_SHAPE.test(dealershipId)) return socket.close(1008, "dealershipId is not a dealership id");
        queue = queue
          .then(async () => {
            // The session again: it may have ended since the upgrade, in any process.
            const resumed = await resumeSession(app.db, token, policy, dealershipId, { slide: false });
            if (!resumed) return hub.closeSessions([connection.sid]);
            const role = resumed.dealership?.role ?? null;
            if (!role) {
              hub.scope(connection, null);
              return send(socket, { type: "error", data: { message: "You do not have access to this dealership" } });
            }
            hub.scope(connection, { dealershipId, role });
            send(socket, { type: "authenticated", data: { dealershipId, role } });
          })
          .catch((error: unknown) => {
            request.log.error({ err: error }, "real-time auth failed");
            socket.close(1011, "Server error");
          });
      });
    },
  );

  app.decorate("realtime", { size: () => hub.size(), recheck: () => hub.recheck() });
}

/**
 * The Origin must be this app's: the page's own host or APP_URL's origin (as for HTTP writes, decision 005). Browsers
 * always send it on a WebSocket; a socket without one (a script) is refused too, since only the app's page uses /ws.
 */
function assertOwnOrigin(request: Pick<FastifyRequest, "headers" | "host">, appUrl: string): void {
  const origin = request.headers.origin;
  if (typeof origin === "string" && origin !== "null") {
    if (origin === new URL(appUrl).origin) return;
    try {
      if (new URL(origin).host === request.host) return;
    } catch {
      // not a URL: refused below
    }
  }
  throw new HttpError(403, "Cross-origin request refused");
}

declare module "fastify" {
  interface FastifyInstance {
    realtime: { size(): number; recheck(): Promise<void> };
  }
}
