import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { agent, anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { stepAt, totpAt } from "../../../tests/helpers/totp";
import { TWO_FACTOR_CODE_NEEDED } from "../../shared/schemas/profile";
import { VERIFICATION_CODE_MAX_ATTEMPTS } from "../../shared/schemas/team";
import { twoFactorClock } from "../auth/two-factor-codes";
import { makeDealership, makeUser } from "../db/factories";
import { accountEmailCodes } from "../db/schema/account-email-codes";
import { emailsLog } from "../db/schema/notifications";
import { users } from "../db/schema/users";
import { grantConfiguredPlatformAdmins, grantPlatformAdminByEmail } from "../platform/admins";
import { CODE_BURNED, INVALID_CODE } from "../team/verification";
import { ALREADY_VERIFIED, EMAIL_TAKEN, SAME_EMAIL } from "./email-proof";

// Proven addresses (decision 169): PLATFORM_ADMIN_EMAILS counts only for an address its account proved with an e-mailed
// code, and the e-mail changes only with the password (and second factor) and a code from the new address.

const LISTED = ["boss@listed.example", "moved-boss@listed.example", "invited-boss@listed.example", "old-boss@listed.example", "edited@listed.example"];

let t: TestApp;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url, platformAdminEmails: LISTED });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const realClock = twoFactorClock.now;
afterEach(() => {
  twoFactorClock.now = realClock;
});

function cookieOf(response: LightMyRequestResponse): string | undefined {
  const setCookie = response.headers["set-cookie"];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return first?.split(";")[0];
}

async function isPlatformAdmin(session: Agent): Promise<boolean> {
  return (await session.get("/api/user/platform-admin-status")).json<{ isPlatformAdmin: boolean }>().isPlatformAdmin;
}

async function register(email: string): Promise<Agent> {
  const response = await anonymous(t.app).post("/api/register", {
    firstName: "Reg",
    lastName: "Owner",
    email,
    password: "Plenty-of-cars-77",
    confirmPassword: "Plenty-of-cars-77",
    dealershipName: "Proof Motors",
  });
  expect(response.statusCode, response.body).toBe(201);
  return agent(t.app, cookieOf(response));
}

/** Asks for a code to the account's own address and reads it from the mail. */
async function ownAddressCode(session: Agent, email: string): Promise<string> {
  const before = smtp.mailsTo(email).length;
  const asked = await session.post("/api/user/email-verification/request");
  expect(asked.statusCode, asked.body).toBe(200);
  return codeIn(await smtp.waitFor(email, { subject: /Verify your Showroom e-mail/, since: before }));
}

/** Asks to move the account to `email` and reads the code from the mail to it. */
async function changeCode(session: Agent, body: { email: string; currentPassword: string; twoFactorCode?: string }): Promise<string> {
  const before = smtp.mailsTo(body.email).length;
  const asked = await session.post("/api/user/email-change/request", body);
  expect(asked.statusCode, asked.body).toBe(200);
  return codeIn(await smtp.waitFor(body.email, { subject: /Confirm your new Showroom e-mail/, since: before }));
}

/** A code that is not `code`. */
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

describe("the account's own address", () => {
  it("is mailed a code at registration; a listed e-mail becomes a platform admin only when the code is entered", async () => {
    const session = await register("boss@listed.example");
    expect(await isPlatformAdmin(session)).toBe(false);
    await deliverMail(t.app);
    const code = codeIn(await smtp.waitFor("boss@listed.example", { subject: /Verify your Showroom e-mail/ }));

    const confirmed = await session.post("/api/user/email-verification/confirm", { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<{ emailVerifiedAt: string | null }>().emailVerifiedAt).not.toBeNull();
    expect(await isPlatformAdmin(session)).toBe(true);
    // Once used, the code is gone.
    expect((await session.post("/api/user/email-verification/confirm", { code })).statusCode).toBe(400);
  });

  it("keeps only a digest of the code", async () => {
    const user = await makeUser(t.db, { emailVerified: false });
    const session = await signIn(t.app, user);
    const code = await ownAddressCode(session, user.email);
    const rows = await t.db.select().from(accountEmailCodes).where(eq(accountEmailCodes.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it(`refuses wrong codes, and burns the code after ${VERIFICATION_CODE_MAX_ATTEMPTS} of them`, async () => {
    const user = await makeUser(t.db, { emailVerified: false });
    const session = await signIn(t.app, user);
    const code = await ownAddressCode(session, user.email);
    const first = await session.post("/api/user/email-verification/confirm", { code: wrong(code) });
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ fields: { code: INVALID_CODE } });
    for (let i = 2; i <= VERIFICATION_CODE_MAX_ATTEMPTS; i++) await session.post("/api/user/email-verification/confirm", { code: wrong(code, i) });
    const right = await session.post("/api/user/email-verification/confirm", { code });
    expect(right.json()).toMatchObject({ fields: { code: CODE_BURNED } });
    expect((await session.get("/api/user")).json()).toMatchObject({ emailVerifiedAt: null });
  });

  it("refuses a new code seconds after the last, and any code once the address is proven", async () => {
    const user = await makeUser(t.db, { emailVerified: false });
    const session = await signIn(t.app, user);
    const code = await ownAddressCode(session, user.email);
    expect((await session.post("/api/user/email-verification/request")).statusCode).toBe(429);
    expect((await session.post("/api/user/email-verification/confirm", { code })).statusCode).toBe(200);
    const again = await session.post("/api/user/email-verification/request");
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: ALREADY_VERIFIED });
  });

  it("is proven by an invitation's code: a listed invited e-mail is a platform admin once it joins", async () => {
    const dealershipId = (await makeDealership(t.db)).id;
    const manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
    const email = "invited-boss@listed.example";
    expect((await manager.post(`/api/dealerships/${dealershipId}/invites`, { email, firstName: "I", lastName: "B", role: "sales" })).statusCode).toBe(201);
    await anonymous(t.app).post("/api/auth/email-verification/request", { email });
    const code = codeIn(await smtp.waitFor(email, { subject: /verification code/ }));
    const joined = await anonymous(t.app).post("/api/auth/email-verification/verify", {
      email,
      code,
      firstName: "I",
      lastName: "B",
      password: "Plenty-of-cars-77",
      confirmPassword: "Plenty-of-cars-77",
    });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json<{ emailVerifiedAt: string | null }>().emailVerifiedAt).not.toBeNull();
    expect(await isPlatformAdmin(agent(t.app, cookieOf(joined)))).toBe(true);
  });

  it("is what start-up's PLATFORM_ADMIN_EMAILS grant asks for: an account that took a listed address unproven stays a user", async () => {
    const squatter = await makeUser(t.db, { email: "old-boss@listed.example", emailVerified: false });
    await grantConfiguredPlatformAdmins(t.db, LISTED);
    const session = await signIn(t.app, squatter);
    expect(await isPlatformAdmin(session)).toBe(false);
    // Proving it from the profile is what makes it count.
    await session.post("/api/user/email-verification/confirm", { code: await ownAddressCode(session, squatter.email) });
    expect(await isPlatformAdmin(session)).toBe(true);
  });

  it("is unproven again after a platform admin edits the e-mail", async () => {
    const admin = await makeUser(t.db);
    await grantPlatformAdminByEmail(t.db, admin.email);
    const user = await makeUser(t.db);
    const edited = await (await signIn(t.app, admin)).request({
      method: "PATCH",
      url: `/api/platform/users/${user.id}`,
      payload: { firstName: user.firstName, lastName: user.lastName, email: "edited@listed.example", phone: "" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const [row] = await t.db.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, user.id));
    expect(row?.emailVerifiedAt).toBeNull();
    await grantConfiguredPlatformAdmins(t.db, LISTED);
    expect(await isPlatformAdmin(await signIn(t.app, { email: "edited@listed.example", password: user.password }))).toBe(false);
  });
});

describe("changing the e-mail", () => {
  it("needs the current password: a session alone gets nothing mailed", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const response = await session.post("/api/user/email-change/request", { email: "stolen-session@example.com", currentPassword: "guessing-it" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { currentPassword: "Current password is incorrect" } });
    const missing = await session.post("/api/user/email-change/request", { email: "stolen-session@example.com" });
    expect(missing.json()).toMatchObject({ fields: { currentPassword: "Current password is required" } });
    expect(await t.db.select().from(emailsLog).where(eq(emailsLog.to, "stolen-session@example.com"))).toEqual([]);
  });

  it("needs the second factor too when two-factor is on", async () => {
    const now = stepAt(Date.now()) * 30_000 + 10_000;
    twoFactorClock.now = () => now;
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const { secret } = (await session.post("/api/auth/2fa/setup")).json<{ secret: string }>();
    expect((await session.post("/api/auth/2fa/verify-setup", { secret, token: totpAt(secret, now) })).statusCode).toBe(200);
    twoFactorClock.now = () => now + 30_000;

    const withoutCode = await session.post("/api/user/email-change/request", { email: "two-factor-move@example.com", currentPassword: user.password });
    expect(withoutCode.statusCode).toBe(400);
    expect(withoutCode.json()).toMatchObject({ fields: { twoFactorCode: TWO_FACTOR_CODE_NEEDED } });
    const wrongCode = await session.post("/api/user/email-change/request", {
      email: "two-factor-move@example.com",
      currentPassword: user.password,
      twoFactorCode: "000000",
    });
    expect(wrongCode.json()).toMatchObject({ fields: { twoFactorCode: "Invalid verification code" } });
    expect(smtp.mailsTo("two-factor-move@example.com")).toEqual([]);

    const code = await changeCode(session, { email: "two-factor-move@example.com", currentPassword: user.password, twoFactorCode: totpAt(secret, now + 30_000) });
    expect((await session.post("/api/user/email-change/confirm", { code })).json()).toMatchObject({ email: "two-factor-move@example.com" });
  });

  it("changes nothing until the code from the new address is entered; then the old address is told", async () => {
    const user = await makeUser(t.db, { firstName: "Morgan" });
    const session = await signIn(t.app, user);
    const code = await changeCode(session, { email: "Morgan.New@Example.com", currentPassword: user.password });
    expect((await session.get("/api/user")).json()).toMatchObject({ email: user.email });
    expect((await session.post("/api/user/email-change/confirm", { code: wrong(code) })).statusCode).toBe(400);

    const confirmed = await session.post("/api/user/email-change/confirm", { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: user.id, email: "morgan.new@example.com" });
    expect(confirmed.json<{ emailVerifiedAt: string | null }>().emailVerifiedAt).not.toBeNull();
    // The same session goes on, and the new address signs in.
    expect((await session.get("/api/user")).json()).toMatchObject({ email: "morgan.new@example.com" });
    await signIn(t.app, { email: "morgan.new@example.com", password: user.password });

    await deliverMail(t.app);
    const notice = await smtp.waitFor(user.email, { subject: /Your Showroom e-mail was changed/ });
    expect(notice.text).toContain("Hi Morgan,");
    expect(notice.text).toContain(`from ${user.email} to morgan.new@example.com`);
  });

  it("makes a listed new address a platform admin when it is confirmed, not before", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const code = await changeCode(session, { email: "moved-boss@listed.example", currentPassword: user.password });
    await grantConfiguredPlatformAdmins(t.db, LISTED);
    expect(await isPlatformAdmin(session)).toBe(false);
    expect((await session.post("/api/user/email-change/confirm", { code })).statusCode).toBe(200);
    expect(await isPlatformAdmin(session)).toBe(true);
  });

  it("refuses the current address and one another account has", async () => {
    const other = await makeUser(t.db);
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const same = await session.post("/api/user/email-change/request", { email: user.email, currentPassword: user.password });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ fields: { email: SAME_EMAIL } });
    const taken = await session.post("/api/user/email-change/request", { email: other.email, currentPassword: user.password });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: EMAIL_TAKEN, fields: { email: EMAIL_TAKEN } });
  });

  it("refuses the change when someone registered the new address after the code was sent, changing nothing", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const code = await changeCode(session, { email: "race-for-it@example.com", currentPassword: user.password });
    await makeUser(t.db, { email: "race-for-it@example.com" });
    const response = await session.post("/api/user/email-change/confirm", { code });
    expect(response.statusCode).toBe(409);
    expect((await session.get("/api/user")).json()).toMatchObject({ email: user.email });
  });
});
