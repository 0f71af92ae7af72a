import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealership, makeUser, type MadeUser } from "../../src/server/db/factories";
import { openPostgres, type Database } from "../../src/server/db/client";
import { call, sessionCookie, startListeningApp, type ListeningApp } from "../helpers/realtime-app";
import { createTestDatabase } from "../helpers/test-app";
import { openSocket, settle, type SocketClient } from "../helpers/ws-client";

// Two app instances on one PostgreSQL server, each with its own pool and its own LISTEN connections, as two processes
// behind a load balancer would be (ARCHITECTURE invariant 7; decisions 105-107). A write through A reaches sockets on
// B; sign-out and removal through A close sockets on B. Needs a server: TEST_DATABASE_URL.

const onServer = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onServer)("two app instances on one PostgreSQL server", () => {
  let databaseA: Awaited<ReturnType<typeof createTestDatabase>>;
  let databaseB: Database;
  let a: ListeningApp;
  let b: ListeningApp;
  let ours: string;
  let theirs: string;
  let people: Record<"rep" | "rep2" | "desk" | "boss" | "outsider", MadeUser>;
  const open: SocketClient[] = [];

  beforeAll(async () => {
    databaseA = await createTestDatabase();
    const url = (databaseA as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
    databaseB = openPostgres(url, 5);
    a = await startListeningApp(databaseA);
    b = await startListeningApp(databaseB);
    const db = databaseA.db;
    ours = (await makeDealership(db, { name: "Northside Motors" })).id;
    theirs = (await makeDealership(db, { name: "Lakeshore Auto" })).id;
    people = {
      rep: await makeUser(db, { memberships: [{ dealershipId: ours, role: "sales" }] }),
      rep2: await makeUser(db, { memberships: [{ dealershipId: ours, role: "sales" }] }),
      desk: await makeUser(db, { memberships: [{ dealershipId: ours, role: "frontDesk" }] }),
      boss: await makeUser(db, { memberships: [{ dealershipId: ours, role: "management" }] }),
      outsider: await makeUser(db, { memberships: [{ dealershipId: theirs, role: "sales" }] }),
    };
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await b?.close();
    await a?.close();
    await databaseB?.close();
    await databaseA?.drop();
  });

  /** Signs in through instance A (the session row is shared) and opens the socket on B. */
  async function socketOnB(user: MadeUser, dealershipId: string | null = ours): Promise<{ socket: SocketClient; cookie: string }> {
    const cookie = await sessionCookie(a.app, user);
    const socket = await openSocket(b.wsUrl, { cookie });
    open.push(socket);
    if (dealershipId) expect((await socket.auth(dealershipId)).type).toBe("authenticated");
    return { socket, cookie };
  }

  let serial = 0;
  async function createLeadThroughA(cookie: string, dealershipId = ours) {
    const n = ++serial;
    const response = await call(a.app, cookie, "POST", `/api/dealerships/${dealershipId}/leads`, { firstName: "Walk", lastName: `In${n}`, phone: `905555${1000 + n}` });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string; lastName: string }>();
  }

  it("delivers a lead created through A to a socket connected to B within a second", async () => {
    const { socket } = await socketOnB(people.rep);
    const desk = await sessionCookie(a.app, people.desk);
    for (let round = 0; round < 3; round++) {
      // From the moment A answered (the write committed) to the message on B's socket.
      const lead = await createLeadThroughA(desk);
      const committed = Date.now();
      const message = await socket.next((m) => m.data.lastName === lead.lastName, { timeoutMs: 1000 });
      expect(message.type).toBe("lead_created");
      expect(Date.now() - committed).toBeLessThan(1000);
    }
  });

  it("gives a socket on B that names another user or another dealership nothing of theirs", async () => {
    const { socket } = await socketOnB(people.rep, null);
    expect((await socket.auth(ours, people.rep2.id)).type).toBe("authenticated");
    expect((await socket.auth(theirs)).type).toBe("error");
    const rep2 = await sessionCookie(a.app, people.rep2);
    const outsider = await sessionCookie(a.app, people.outsider);
    const { socket: watcher } = await socketOnB(people.boss);
    const colleagues = await createLeadThroughA(rep2); // rep2's own client
    const elsewhere = await createLeadThroughA(outsider, theirs);
    await watcher.next((m) => m.data.lastName === colleagues.lastName);
    await settle(500);
    const heard = JSON.stringify(socket.received);
    expect(heard).not.toContain(colleagues.lastName);
    expect(heard).not.toContain(elsewhere.lastName);
  });

  it("closes a socket on B when its session signs out through A", async () => {
    const user = await makeUser(databaseA.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
    const { socket, cookie } = await socketOnB(user);
    expect((await call(a.app, cookie, "POST", "/api/logout")).statusCode).toBe(200);
    expect(await socket.closed).toEqual({ code: 4401, reason: "Session ended" });
  });

  it("closes a removed member's socket on B when management removes them through A", async () => {
    const user = await makeUser(databaseA.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
    const { socket } = await socketOnB(user);
    const boss = await sessionCookie(a.app, people.boss);
    expect((await call(a.app, boss, "DELETE", `/api/dealerships/${ours}/users/${user.id}`)).statusCode).toBe(200);
    expect([4401, 4403]).toContain((await socket.closed).code);
  });
});
