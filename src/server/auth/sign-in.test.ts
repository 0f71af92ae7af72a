import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { agent, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { stepAt, totpAt } from "../../../tests/helpers/totp";
import { makeDealership, makeUser, type MadeUser } from "../db/factories";
import { dealershipUsers } from "../db/schema/dealerships";
import { twoFactorClock } from "./two-factor-codes";

// Every call that starts a session goes through one sign-in (decision 168): with two-factor on, no session starts
// without the second factor checked in that same request. Each such call is tried here with an account that has it on.

let t: TestApp;
let smtp: SmtpReceiver;
let northside: string;
let manager: Agent;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
  northside = (await makeDealership(t.db, { name: "Sign-in Motors" })).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: northside, role: "management" }] }));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const realClock = twoFactorClock.now;
afterEach(() => {
  twoFactorClock.now = realClock;
});

const STEP = 30_000;

function cookieOf(response: LightMyRequestResponse): string | undefined {
  const setCookie = response.headers["set-cookie"];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return first?.split(";")[0];
}

let address = 0;
/** Each sign-in from an address of its own: one test's attempts never decide another's. */
const nextAddress = () => `10.168.0.${++address}`;

/** A user with two-factor on, enabled at an instant 10 s into a step; the server's clock is pinned there. */
async function withTwoFactor(values: Parameters<typeof makeUser>[1] = {}) {
  const now = stepAt(Date.now()) * STEP + 10_000;
  twoFactorClock.now = () => now;
  const user = await makeUser(t.db, values);
  const session = await signIn(t.app, user);
  const { secret } = (await session.post("/api/auth/2fa/setup")).json<{ secret: string }>();
  const verified = await session.post("/api/auth/2fa/verify-setup", { secret, token: totpAt(secret, now) });
  expect(verified.statusCode, verified.body).toBe(200);
  // The next step's code is the first one a sign-in may use.
  twoFactorClock.now = () => now + STEP;
  return { user, session, nextCode: totpAt(secret, now + STEP) };
}

/** Invites the e-mail to Sign-in Motors and answers the code from the verification mail. */
async function invitedWithCode(email: string): Promise<string> {
  const invited = await manager.post(`/api/dealerships/${northside}/invites`, { email, firstName: "In", lastName: "Vited", role: "sales" });
  expect(invited.statusCode, invited.body).toBe(201);
  const before = smtp.mailsTo(email).length;
  const requested = await t.app.inject({ method: "POST", url: "/api/auth/email-verification/request", remoteAddress: nextAddress(), payload: { email } });
  expect(requested.statusCode, requested.body).toBe(200);
  return codeIn(await smtp.waitFor(email, { subject: /verification code/, since: before }));
}

function post(url: string, payload: object) {
  return t.app.inject({ method: "POST", url, remoteAddress: nextAddress(), payload });
}

async function isMember(userId: string): Promise<boolean> {
  const [row] = await t.db
    .select()
    .from(dealershipUsers)
    .where(and(eq(dealershipUsers.userId, userId), eq(dealershipUsers.dealershipId, northside)));
  return row?.active ?? false;
}

describe("registering", () => {
  it("signs a new account in at once (it cannot have two-factor yet)", async () => {
    const response = await post("/api/register", {
      firstName: "New",
      lastName: "Owner",
      email: "new.owner@signin.example",
      password: "Lots-of-cars-2026",
      confirmPassword: "Lots-of-cars-2026",
      dealershipName: "New Owner Cars",
    });
    expect(response.statusCode, response.body).toBe(201);
    expect((await agent(t.app, cookieOf(response)).get("/api/user")).json()).toMatchObject({ email: "new.owner@signin.example" });
  });

  it("with an invited e-mail whose account has two-factor on, joins but starts no session until the code is given at sign-in", async () => {
    const { user, nextCode } = await withTwoFactor({ email: "victim@signin.example" });
    const code = await invitedWithCode(user.email);
    const response = await post("/api/register", {
      firstName: "Any",
      lastName: "Name",
      email: user.email,
      password: user.password,
      confirmPassword: user.password,
      code,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ requiresTwoFactor: true });
    expect(response.headers["set-cookie"]).toBeUndefined();
    expect(await isMember(user.id)).toBe(true);

    // The sign-in's code step finishes it, into the dealership just joined.
    const login = await post("/api/login", { email: user.email, password: user.password, twoFactorCode: nextCode });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json()).toMatchObject({ id: user.id, currentDealershipId: northside });
    expect(cookieOf(login)).toBeDefined();
  });

  it("with an invited e-mail whose account has two-factor off, joins and signs in", async () => {
    const user = await makeUser(t.db, { email: "plain@signin.example" });
    const code = await invitedWithCode(user.email);
    const response = await post("/api/register", { firstName: "A", lastName: "B", email: user.email, password: user.password, confirmPassword: user.password, code });
    expect(response.statusCode, response.body).toBe(201);
    expect((await agent(t.app, cookieOf(response)).get("/api/dealerships")).json()).toEqual([expect.objectContaining({ id: northside })]);
  });
});

describe("completing an invitation by e-mail verification", () => {
  it("answers requiresTwoFactor without a session for an account with two-factor on", async () => {
    const { user } = await withTwoFactor({ email: "verify-2fa@signin.example" });
    const code = await invitedWithCode(user.email);
    const response = await post("/api/auth/email-verification/verify", {
      email: user.email,
      code,
      firstName: "A",
      lastName: "B",
      password: user.password,
      confirmPassword: user.password,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ requiresTwoFactor: true });
    expect(response.headers["set-cookie"]).toBeUndefined();
  });
});

describe("signing in", () => {
  it("starts no session on the password alone, and one with the code", async () => {
    const { user, nextCode } = await withTwoFactor();
    const passwordOnly = await post("/api/login", { email: user.email, password: user.password });
    expect(passwordOnly.json()).toEqual({ requiresTwoFactor: true });
    expect(passwordOnly.headers["set-cookie"]).toBeUndefined();
    const wrong = await post("/api/login", { email: user.email, password: user.password, twoFactorCode: "000000" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers["set-cookie"]).toBeUndefined();
    const right = await post("/api/login", { email: user.email, password: user.password, twoFactorCode: nextCode });
    expect(right.statusCode, right.body).toBe(200);
    expect((await agent(t.app, cookieOf(right)).get("/api/user")).statusCode).toBe(200);
  });

  it("ends the session the browser came with when it signs in again", async () => {
    const user: MadeUser = await makeUser(t.db);
    const first = await post("/api/login", { email: user.email, password: user.password });
    const firstCookie = cookieOf(first)!;
    const again = await t.app.inject({
      method: "POST",
      url: "/api/login",
      headers: { cookie: firstCookie },
      payload: { email: user.email, password: user.password },
    });
    expect(again.statusCode).toBe(200);
    expect((await agent(t.app, firstCookie).get("/api/user")).statusCode).toBe(401);
    expect((await agent(t.app, cookieOf(again)).get("/api/user")).statusCode).toBe(200);
  });
});

describe("changing the password", () => {
  it("keeps a two-factor account's browser signed in under a new session id, with no code asked again", async () => {
    const { user, session } = await withTwoFactor();
    const response = await session.patch("/api/user/password", { currentPassword: user.password, newPassword: "Fresh-keys-for-2026" });
    expect(response.statusCode, response.body).toBe(200);
    expect((await session.get("/api/user")).statusCode).toBe(401);
    expect((await agent(t.app, cookieOf(response)).get("/api/user")).json()).toMatchObject({ id: user.id });
  });
});

describe("the one way a session starts", () => {
  it("is signIn: no other server module calls startSession or sets the session cookie", () => {
    const server = path.resolve("src/server");
    const files = readdirSync(server, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    const starting = files.filter((f) => /\bstartSession\s*\(|setCookie\(\s*SESSION_COOKIE/.test(readFileSync(path.join(server, f), "utf8")));
    // sessions.ts defines startSession; sign-in.ts is its only caller, and the only place that sets the cookie.
    expect(starting.map((f) => f.split(path.sep).join("/")).sort()).toEqual(["auth/sessions.ts", "auth/sign-in.ts"]);
  });
});
