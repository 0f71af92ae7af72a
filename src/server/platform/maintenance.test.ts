import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { freePort } from "../../../tests/e2e/helpers/server";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { dealershipInvites } from "../db/schema/dealerships";
import { domainEvents } from "../db/schema/events";
import { emailsLog, emailVerificationCodes } from "../db/schema/notifications";
import { loginAttempts, sessions } from "../db/schema/users";
import { grantPlatformAdminByEmail } from "./admins";

// System Maintenance and the test e-mail (part 2 §2 Quick Actions, §7; decision 094).

let smtp: SmtpReceiver;
let t: TestApp;
let adminUser: MadeUser;
let admin: Agent;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
  adminUser = await makeUser(t.db, { email: "ops@example.com" });
  await grantPlatformAdminByEmail(t.db, adminUser.email);
  admin = await signIn(t.app, adminUser);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
const later = (days: number) => new Date(Date.now() + days * 86_400_000);
const rowsOf = async (table: typeof sessions | typeof dealershipInvites | typeof emailVerificationCodes | typeof loginAttempts | typeof domainEvents) =>
  Number((await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n ?? 0);

describe("System Maintenance", () => {
  it("removes expired sessions, invitations and codes, old throttle rows and old dispatched events, and reports the counts", async () => {
    const dealershipId = (await makeDealership(t.db)).id;
    const someone = await makeUser(t.db);
    const expiredSession = { userId: someone.id, sess: { userId: someone.id, absoluteExpiry: 0, createdAt: 0 } };
    await t.db.insert(sessions).values([
      { sid: "expired-1", expire: ago(1), ...expiredSession },
      { sid: "expired-2", expire: ago(40), ...expiredSession },
      { sid: "still-live", expire: later(1), ...expiredSession },
    ]);
    const [expiredInvite, liveInvite] = await t.db
      .insert(dealershipInvites)
      .values([
        { email: "lapsed@example.com", role: "sales", dealershipId, expiresAt: ago(2) },
        { email: "waiting@example.com", role: "sales", dealershipId, expiresAt: later(3) },
        { email: "joined@example.com", role: "sales", dealershipId, expiresAt: ago(9), status: "accepted" },
      ])
      .returning();
    await t.db.insert(emailVerificationCodes).values([
      { email: "lapsed@example.com", code: "h1", inviteId: expiredInvite!.id, expiresAt: later(1) },
      { email: "waiting@example.com", code: "h2", inviteId: liveInvite!.id, expiresAt: ago(0.01) },
      { email: "used@example.com", code: "h3", isUsed: true, expiresAt: later(1) },
      { email: "fresh@example.com", code: "h4", expiresAt: later(1) },
    ]);
    await t.db.insert(loginAttempts).values([
      { key: "account:old@example.com", failures: 3, windowStart: ago(8) },
      { key: "address:10.0.0.9", failures: 2, windowStart: ago(1) },
      { key: "account:blocked@example.com", failures: 9, windowStart: ago(8), blockedUntil: later(1) },
    ]);
    await t.db.insert(domainEvents).values([
      { type: "lead.deleted", payload: {}, createdAt: ago(40), dispatchedAt: ago(40) },
      { type: "lead.deleted", payload: {}, createdAt: ago(2), dispatchedAt: ago(2) },
      { type: "lead.deleted", payload: {}, createdAt: ago(40), failures: 5 },
    ]);
    const before = {
      sessions: await rowsOf(sessions),
      invites: await rowsOf(dealershipInvites),
      codes: await rowsOf(emailVerificationCodes),
      throttle: await rowsOf(loginAttempts),
      events: await rowsOf(domainEvents),
    };

    const response = await admin.post("/api/platform/maintenance");
    expect(response.statusCode).toBe(200);
    const report = response.json();
    // The code of the expired invitation goes with it; the live invitation's expired code and the used one go too.
    expect(report).toEqual({
      message: "Removed 2 expired sessions, 1 expired invitation, 2 used or expired codes, 1 old sign-in counter and 1 old event.",
      expiredSessions: 2,
      expiredInvitations: 1,
      verificationCodes: 2,
      throttleRows: 1,
      dispatchedEvents: 1,
    });
    expect({
      sessions: await rowsOf(sessions),
      invites: await rowsOf(dealershipInvites),
      codes: await rowsOf(emailVerificationCodes),
      throttle: await rowsOf(loginAttempts),
      events: await rowsOf(domainEvents),
    }).toEqual({
      sessions: before.sessions - 2,
      invites: before.invites - 1,
      codes: before.codes - 3,
      throttle: before.throttle - 1,
      events: before.events - 1,
    });
    // The admin's own session is live and stays.
    expect((await admin.get("/api/platform/overview")).statusCode).toBe(200);
    expect((await admin.get("/api/platform/activity")).json()[0]).toMatchObject({
      action: "maintenance_run",
      summary: "Ran system maintenance: removed 2 expired sessions, 1 expired invitation, 2 used or expired codes, 1 old sign-in counter and 1 old event.",
    });

    const again = (await admin.post("/api/platform/maintenance")).json();
    expect(again).toMatchObject({ expiredSessions: 0, expiredInvitations: 0, verificationCodes: 0, throttleRows: 0, dispatchedEvents: 0 });
  });
});

describe("POST /api/platform/test-email", () => {
  it("sends a test mail through the configured SMTP server to the admin, or to the address given", async () => {
    const mine = await admin.post("/api/platform/test-email", {});
    expect(mine.json()).toEqual({ status: "sent", to: "ops@example.com", message: "A test e-mail was sent to ops@example.com through the configured SMTP server." });
    expect((await smtp.waitFor("ops@example.com", { subject: /Showroom test e-mail/ })).text).toContain("outgoing mail works");

    const other = await admin.post("/api/platform/test-email", { to: "Postmaster@Example.com" });
    expect(other.json()).toMatchObject({ status: "sent", to: "postmaster@example.com" });
    await smtp.waitFor("postmaster@example.com");
    expect((await admin.post("/api/platform/test-email", { to: "nope" })).statusCode).toBe(400);
  });

  it("reports the SMTP server's refusal when mail cannot be delivered", async () => {
    const broken = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${await freePort()}` });
    try {
      const user = await makeUser(broken.db);
      await grantPlatformAdminByEmail(broken.db, user.email);
      const response = await (await signIn(broken.app, user)).post("/api/platform/test-email", {});
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe("failed");
      expect(response.json().message).toMatch(/^The SMTP server refused the test e-mail: .*ECONNREFUSED/);
      const [logged] = await broken.db.select().from(emailsLog);
      expect(logged).toMatchObject({ emailType: "test", status: "failed" });
    } finally {
      await broken.close();
    }
  });

  it("says the mail only went to the log when no SMTP_URL is set", async () => {
    const local = await createTestApp();
    try {
      const user = await makeUser(local.db);
      await grantPlatformAdminByEmail(local.db, user.email);
      const response = await (await signIn(local.app, user)).post("/api/platform/test-email", {});
      expect(response.json()).toEqual({
        status: "logged",
        to: user.email,
        message: "No SMTP_URL is configured: the test e-mail was written to the server log instead of being sent.",
      });
    } finally {
      await local.close();
    }
  });
});
