import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { captureLog } from "../../../tests/helpers/captured-log";
import { call, sessionCookie, startListeningApp, type ListeningApp } from "../../../tests/helpers/realtime-app";
import { openSocket, settle, type SocketClient } from "../../../tests/helpers/ws-client";
import { endSessionsOfUser } from "../auth/sessions";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { platformAdmins } from "../db/schema/platform";
import { sessions } from "../db/schema/users";

// The real-time socket in one app process (PGlite by default, PostgreSQL with TEST_DATABASE_URL): who may connect,
// who hears which event, and when a socket is closed (spec part 2 §3, §4, §7; decisions 105-107).

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: ListeningApp;
let ours: string;
let theirs: string;
let people: Record<"repA" | "repB" | "desk" | "boss" | "multi" | "outsider" | "admin", MadeUser>;
const cookies: Partial<Record<keyof typeof people, string>> = {};
const open: SocketClient[] = [];
/** The server's log at warn and above: a client's bad message is not the server's error. */
const log = captureLog();

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startListeningApp(database, { realtime: { heartbeatMs: 300, recheckMs: 60_000 }, logger: log.logger });
  const db = database.db;
  ours = (await makeDealership(db, { name: "Northside Motors" })).id;
  theirs = (await makeDealership(db, { name: "Lakeshore Auto" })).id;
  const at = (role: "sales" | "frontDesk" | "management", firstName: string) => ({ firstName, memberships: [{ dealershipId: ours, role }] });
  people = {
    repA: await makeUser(db, at("sales", "Ava")),
    repB: await makeUser(db, at("sales", "Ben")),
    desk: await makeUser(db, at("frontDesk", "Dee")),
    boss: await makeUser(db, at("management", "Max")),
    multi: await makeUser(db, { firstName: "Mia", memberships: [{ dealershipId: ours, role: "sales" }, { dealershipId: theirs, role: "management" }] }),
    outsider: await makeUser(db, { firstName: "Oz", memberships: [{ dealershipId: theirs, role: "sales" }] }),
    admin: await makeUser(db, { firstName: "Ada" }),
  };
  await db.insert(platformAdmins).values({ userId: people.admin.id });
});
afterAll(async () => {
  for (const client of open) client.close();
  await server.close();
  await database.drop();
});

async function cookie(who: keyof typeof people): Promise<string> {
  return (cookies[who] ??= await sessionCookie(server.app, people[who]));
}

/** A socket for `who`, scoped to a dealership (ours by default). */
async function socketOf(who: keyof typeof people, dealershipId: string | null = ours): Promise<SocketClient> {
  const client = await openSocket(server.wsUrl, { cookie: await cookie(who) });
  open.push(client);
  if (dealershipId) expect((await client.auth(dealershipId)).type).toBe("authenticated");
  return client;
}

let serial = 0;
async function createLead(who: keyof typeof people, dealershipId = ours, extra: object = {}) {
  const n = ++serial;
  const response = await call(server.app, await cookie(who), "POST", `/api/dealerships/${dealershipId}/leads`, {
    firstName: `Client${n}`,
    lastName: `Surname${n}`,
    phone: `416555${String(1000 + n).slice(-4)}`,
    ...extra,
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string; firstName: string; lastName: string }>();
}

const about = (lastName: string) => (m: { data: Record<string, unknown> }) => m.data.lastName === lastName;
const mentions = (client: SocketClient, lastName: string) => client.received.some((m) => JSON.stringify(m).includes(lastName));

describe("opening /ws", () => {
  it("is refused without a session cookie (401)", async () => {
    await expect(openSocket(server.wsUrl)).rejects.toThrow("Unexpected server response: 401");
    await expect(openSocket(server.wsUrl, { cookie: "showroom.sid=not-a-session" })).rejects.toThrow("401");
  });

  it("is refused from another origin, without one, or with Origin: null (403)", async () => {
    const c = await cookie("repA");
    await expect(openSocket(server.wsUrl, { cookie: c, origin: "https://evil.example" })).rejects.toThrow("Unexpected server response: 403");
    await expect(openSocket(server.wsUrl, { cookie: c, origin: null })).rejects.toThrow("403");
    await expect(openSocket(server.wsUrl, { cookie: c, origin: "null" })).rejects.toThrow("403");
  });

  it("opens from the app's own origin with a live session, and hears nothing before the page names a dealership", async () => {
    const quiet = await socketOf("repA", null);
    const lead = await createLead("desk");
    const scoped = await socketOf("repB");
    await createLead("desk").then((l) => scoped.next(about(l.lastName)));
    await settle(100);
    expect(mentions(quiet, lead.lastName)).toBe(false);
    expect(quiet.received).toEqual([]);
  });
});

describe("a new lead", () => {
  it("reaches every member of the dealership with the spec's message", async () => {
    const sockets = await Promise.all((["repA", "repB", "desk", "boss", "multi"] as const).map((who) => socketOf(who)));
    const lead = await createLead("desk");
    for (const socket of sockets) {
      const message = await socket.next(about(lead.lastName));
      expect(message).toEqual({
        type: "lead_created",
        data: { firstName: lead.firstName, lastName: lead.lastName, status: "new", title: "", timestamp: expect.any(String) },
      });
      expect(Date.now() - Date.parse(message.data.timestamp as string)).toBeLessThan(5000);
    }
  });

  it("of another dealership reaches nobody here", async () => {
    const here = await socketOf("repA");
    const there = await socketOf("outsider", theirs);
    const lead = await createLead("outsider", theirs);
    await there.next(about(lead.lastName));
    await settle();
    expect(mentions(here, lead.lastName)).toBe(false);
  });
});

describe("the auth message", () => {
  it("cannot borrow another user's identity: a userId in it is ignored", async () => {
    const a = await socketOf("repA", null);
    expect((await a.auth(ours, people.repB.id)).type).toBe("authenticated");
    const b = await socketOf("repB");
    // Rep B's own client from the start: B hears it; A, claiming to be B, hears nothing of it.
    const lead = await createLead("repB");
    expect(await b.next(about(lead.lastName))).toMatchObject({ type: "lead_created", data: { status: "claimed" } });
    await settle();
    expect(mentions(a, lead.lastName)).toBe(false);
    expect(a.received.filter((m) => m.type.startsWith("lead_"))).toEqual([]);
  });

  it("naming a dealership the user is not in is refused, and hears nothing of it", async () => {
    const a = await socketOf("repA", null);
    expect(await a.auth(theirs)).toEqual({ type: "error", data: { message: "You do not have access to this dealership" } });
    expect(await a.auth("no-such-dealership")).toMatchObject({ type: "error" });
    const lead = await createLead("outsider", theirs);
    await socketOf("outsider", theirs).then((s) => s.auth(theirs));
    await settle();
    expect(mentions(a, lead.lastName)).toBe(false);
    expect(a.socket.readyState).toBe(a.socket.OPEN);
  });

  it("naming another dealership later moves the socket there (switching dealership)", async () => {
    const m = await socketOf("multi");
    expect(await m.auth(theirs)).toEqual({ type: "authenticated", data: { dealershipId: theirs, role: "management" } });
    const here = await createLead("desk");
    const there = await createLead("outsider", theirs);
    await m.next(about(there.lastName));
    await settle();
    expect(mentions(m, here.lastName)).toBe(false);
  });
});

describe("who hears which event", () => {
  it("a rep hears a colleague's claim without the client's name; front desk and management hear it whole", async () => {
    const a = await socketOf("repA");
    const b = await socketOf("repB");
    const desk = await socketOf("desk");
    const boss = await socketOf("boss");
    const lead = await createLead("desk");
    await a.next(about(lead.lastName));
    const since = a.received.length;
    expect((await call(server.app, await cookie("repB"), "POST", `/api/leads/${lead.id}/claim`)).statusCode).toBe(200);
    for (const whole of [b, desk, boss]) await whole.next((m) => m.type === "lead_claimed" && m.data.lastName === lead.lastName);
    const nameless = await a.next((m) => m.type === "lead_claimed", { since });
    expect(nameless.data).toMatchObject({ firstName: "", lastName: "", status: "claimed" });

    // From then on it is B's client: A hears nothing of its status changes.
    const sinceB = b.received.length;
    expect((await call(server.app, await cookie("repB"), "PATCH", `/api/leads/${lead.id}/status`, { status: "contacted" })).statusCode).toBe(200);
    await b.next((m) => m.type === "lead_status_changed" && m.data.status === "contacted", { since: sinceB });
    await desk.next((m) => m.type === "lead_status_changed" && m.data.lastName === lead.lastName);
    await settle();
    expect(a.received.slice(since).filter((m) => m.type === "lead_status_changed")).toEqual([]);
  });

  it("a rep hears only their own appointments; front desk hears every one", async () => {
    const a = await socketOf("repA");
    const desk = await socketOf("desk");
    const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const book = async (who: "repA" | "repB", title: string) => {
      const response = await call(server.app, await cookie(who), "POST", `/api/dealerships/${ours}/appointments`, {
        title,
        firstName: "Visit",
        lastName: title,
        date,
        time: "10:00",
      });
      expect(response.statusCode).toBe(201);
    };
    await book("repB", "BensVisit");
    await book("repA", "AvasVisit");
    const mine = await a.next((m) => m.type === "appointment_created");
    expect(mine.data).toMatchObject({ title: "AvasVisit", status: "scheduled" });
    await desk.next((m) => m.data.title === "BensVisit");
    await desk.next((m) => m.data.title === "AvasVisit");
    await settle();
    expect(mentions(a, "BensVisit")).toBe(false);
  });

  it("a role change takes effect on the open socket", async () => {
    const c = await socketOf("desk");
    const lead = await createLead("repB"); // B's own client from the start
    await c.next((m) => m.type === "lead_created" && m.data.lastName === lead.lastName);
    const changed = await call(server.app, await cookie("boss"), "PATCH", `/api/dealerships/${ours}/users/${people.desk.id}/role`, { role: "sales" });
    expect(changed.statusCode).toBe(200);
    await settle(300);
    const since = c.received.length;
    const next = await createLead("repB");
    await settle();
    expect(c.received.slice(since).some((m) => m.data.lastName === next.lastName)).toBe(false);
    await call(server.app, await cookie("boss"), "PATCH", `/api/dealerships/${ours}/users/${people.desk.id}/role`, { role: "frontDesk" });
  });
});

describe("a merge of two leads (decision 157)", () => {
  it("reaches whoever may open the kept lead whole, with both ids, before the merged-away lead's deletion; other reps nameless; nobody elsewhere", async () => {
    const a = await socketOf("repA");
    const b = await socketOf("repB");
    const desk = await socketOf("desk");
    const there = await socketOf("outsider", theirs);
    const phone = "9055553101";
    const kept = await createLead("desk", ours, { phone });
    const gone = await createLead("desk", ours, { phone: `+1 (905) 555-3101` });
    // The kept lead is B's client: B may open it, A may not.
    expect((await call(server.app, await cookie("repB"), "POST", `/api/leads/${kept.id}/claim`)).statusCode).toBe(200);
    await a.next((m) => m.type === "lead_claimed");
    const since = { a: a.received.length, b: b.received.length, desk: desk.received.length };

    const merged = await call(server.app, await cookie("desk"), "POST", `/api/leads/${kept.id}/merge`, { mergeLeadId: gone.id });
    expect(merged.statusCode).toBe(200);

    const whole = { type: "lead_merged", data: { firstName: kept.firstName, lastName: kept.lastName, status: "claimed", title: "", timestamp: expect.any(String), leadId: kept.id, mergedLeadId: gone.id } };
    for (const [who, socket] of [["b", b], ["desk", desk]] as const) {
      expect(await socket.next((m) => m.type === "lead_merged", { since: since[who] })).toEqual(whole);
      const deleted = await socket.next((m) => m.type === "lead_deleted" && m.data.lastName === gone.lastName, { since: since[who] });
      const order = socket.received.slice(since[who]).map((m) => m.type);
      expect(order.indexOf("lead_merged")).toBeLessThan(order.indexOf("lead_deleted"));
      expect(deleted.data.status).toBe("new");
    }
    const nameless = await a.next((m) => m.type === "lead_merged", { since: since.a });
    expect(nameless).toEqual({ type: "lead_merged", data: { firstName: "", lastName: "", status: "claimed", title: "", timestamp: expect.any(String) } });
    expect(JSON.stringify(a.received.slice(since.a))).not.toContain(kept.id);
    await settle();
    expect(there.received.some((m) => m.type === "lead_merged" || mentions(there, kept.lastName))).toBe(false);
  });
});

describe("a socket is closed", () => {
  it("when its session signs out", async () => {
    const user = await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
    const c = await sessionCookie(server.app, user);
    const other = await sessionCookie(server.app, user);
    const socket = await openSocket(server.wsUrl, { cookie: c });
    const kept = await openSocket(server.wsUrl, { cookie: other });
    open.push(socket, kept);
    await socket.auth(ours);
    expect((await call(server.app, c, "POST", "/api/logout")).statusCode).toBe(200);
    expect(await socket.closed).toEqual({ code: 4401, reason: "Session ended" });
    // Only that session's: the same user's other device stays connected.
    await settle(200);
    expect(kept.socket.readyState).toBe(kept.socket.OPEN);
  });

  it("when the session ends anywhere (every session of the user ended by a statement)", async () => {
    const user = await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
    const socket = await openSocket(server.wsUrl, { cookie: await sessionCookie(server.app, user) });
    open.push(socket);
    await endSessionsOfUser(database.db, user.id);
    expect((await socket.closed).code).toBe(4401);
  });

  it("when the session has expired, at the next recheck", async () => {
    const user = await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
    const socket = await openSocket(server.wsUrl, { cookie: await sessionCookie(server.app, user) });
    open.push(socket);
    await database.db.update(sessions).set({ expire: sql`now() - interval '1 second'` }).where(eq(sessions.userId, user.id));
    await server.app.realtime.recheck();
    expect((await socket.closed).code).toBe(4401);
  });

  it("when the member is removed from the dealership", async () => {
    const user = await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
    const socket = await openSocket(server.wsUrl, { cookie: await sessionCookie(server.app, user) });
    open.push(socket);
    await socket.auth(ours);
    const removed = await call(server.app, await cookie("boss"), "DELETE", `/api/dealerships/${ours}/users/${user.id}`);
    expect(removed.statusCode).toBe(200);
    expect([4401, 4403]).toContain((await socket.closed).code);
  });

  it("when the dealership is deleted", async () => {
    const gone = (await makeDealership(database.db, { name: "Closing Down Motors" })).id;
    const user = await makeUser(database.db, { memberships: [{ dealershipId: gone, role: "management" }] });
    const socket = await openSocket(server.wsUrl, { cookie: await sessionCookie(server.app, user) });
    open.push(socket);
    expect((await socket.auth(gone)).type).toBe("authenticated");
    const deleted = await call(server.app, await cookie("admin"), "DELETE", `/api/platform/dealerships/${gone}`);
    expect(deleted.statusCode).toBe(200);
    expect([4401, 4403]).toContain((await socket.closed).code);
  });

  it("when it stops answering pings (a phone that lost its network)", async () => {
    const socket = await openSocket(server.wsUrl, { cookie: await cookie("repA"), wsOptions: { autoPong: false } });
    open.push(socket);
    const closed = await Promise.race([socket.closed, settle(3000).then(() => null)]);
    expect(closed?.code).toBe(1006);
  });
});

describe("the session's idle expiry (decision 156)", () => {
  it("is not slid by opening a socket, by its auth messages, nor by reconnecting; a request of the page's does slide it", async () => {
    const user = await makeUser(database.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
    const c = await sessionCookie(server.app, user);
    const soon = new Date(Date.now() + 10 * 60_000);
    await database.db.update(sessions).set({ expire: soon }).where(eq(sessions.userId, user.id));
    const expiry = async () => (await database.db.select({ expire: sessions.expire }).from(sessions).where(eq(sessions.userId, user.id)))[0]!.expire.getTime();

    for (let i = 0; i < 2; i++) {
      // Twice: a reconnect after a dropped network is a new upgrade and a new auth message.
      const socket = await openSocket(server.wsUrl, { cookie: c });
      open.push(socket);
      expect((await socket.auth(ours)).type).toBe("authenticated");
      expect((await socket.auth(ours)).type).toBe("authenticated");
      socket.close();
    }
    expect(await expiry()).toBe(soon.getTime());

    expect((await call(server.app, c, "GET", `/api/dealerships/${ours}/notifications/count`)).statusCode).toBe(200);
    expect(await expiry()).toBeGreaterThan(soon.getTime() + 60_000);
  });
});

describe("what a client sends", () => {
  it("is answered with an error when it is not JSON or not an auth message, and the socket stays open", async () => {
    const s = await socketOf("repA", null);
    s.send("{not json");
    expect(await s.next((m) => m.type === "error")).toEqual({ type: "error", data: { message: "Message is not JSON" } });
    for (const bad of [{ type: "subscribe", dealershipId: ours }, { type: "auth" }, { type: "auth", dealershipId: 42 }, [1, 2], "x"]) {
      const since = s.received.length;
      s.send(JSON.stringify(bad));
      expect((await s.next((m) => m.type === "error", { since })).data.message).toMatch(/Expected/);
    }
    expect((await s.auth(ours)).type).toBe("authenticated");
  });

  it("an auth message whose dealershipId is no id (a NUL in it) closes the socket (1008) and logs nothing (decision 172)", async () => {
    for (const dealershipId of [`${ours}\u0000`, "\u0000", "a b", "x".repeat(65), "../x", "ab;c", "é"]) {
      const s = await socketOf("repA", null);
      s.send({ type: "auth", dealershipId });
      const closed = await Promise.race([s.closed, settle(3000).then(() => null)]);
      expect(closed, JSON.stringify(dealershipId)).toEqual({ code: 1008, reason: "dealershipId is not a dealership id" });
    }
    expect(log.warnings().map((line) => line.msg)).not.toContain("real-time auth failed");
    expect((await socketOf("repA")).received.at(-1)?.type).toBe("authenticated");
  });

  it("over 4 KiB closes the socket (1009)", async () => {
    const s = await socketOf("repA", null);
    s.send(JSON.stringify({ type: "auth", dealershipId: ours, userId: "x".repeat(5000) }));
    expect((await s.closed).code).toBe(1009);
  });

  it("in binary, or in a flood, closes the socket (1003, 1008)", async () => {
    const binary = await socketOf("repA", null);
    binary.socket.send(Buffer.from([1, 2, 3]));
    expect((await binary.closed).code).toBe(1003);
    const flood = await socketOf("repA", null);
    for (let i = 0; i < 25; i++) flood.send({ type: "auth", dealershipId: ours });
    expect(await flood.closed).toEqual({ code: 1008, reason: "Too many messages" });
  });

  it("never takes the server down: it still serves HTTP and sockets", async () => {
    expect((await server.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    const s = await socketOf("repA");
    const lead = await createLead("desk");
    await s.next(about(lead.lastName));
  });
});
