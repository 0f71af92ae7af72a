import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { agent, anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { base32Decode, hotp, stepAt, totpAt } from "../../../tests/helpers/totp";
import { makeUser, type MadeUser } from "../db/factories";
import { users } from "../db/schema/users";
import { THROTTLE } from "./login-throttle";
import { PASSWORD_OR_CODE_NEEDED } from "../../shared/schemas/two-factor";
import { TWO_FACTOR_CODE_USED } from "./two-factor";
import { matchingStep, twoFactorClock } from "./two-factor-codes";

// Two-factor sign-in (issue 15; part 1 §2.2, §4; part 2 §4, §5, §7). The codes a phone would show are computed here
// with node:crypto (tests/helpers/totp.ts), never by the library the server uses. The server's clock for codes is
// pinned to a known instant, so no test depends on where in a 30-second step it happens to run.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const realClock = twoFactorClock.now;
afterEach(() => {
  twoFactorClock.now = realClock;
});

/** An instant 10 s into a step, and the server's clock set to it. */
function pinClock(ms: number): number {
  const pinned = stepAt(ms) * 30_000 + 10_000;
  twoFactorClock.now = () => pinned;
  return pinned;
}

const STEP = 30_000;

function cookieOf(response: LightMyRequestResponse): string | undefined {
  const setCookie = response.headers["set-cookie"];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return first?.split(";")[0];
}

// Each user signs in from an address of their own, so one test's failures never block another's (limit per address).
const addresses = new Map<string, string>();
function addressOf(user: MadeUser): string {
  if (!addresses.has(user.email)) addresses.set(user.email, `10.15.0.${addresses.size + 1}`);
  return addresses.get(user.email)!;
}

function login(user: MadeUser, twoFactorCode?: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/login",
    remoteAddress: addressOf(user),
    payload: { email: user.email, password: user.password, ...(twoFactorCode ? { twoFactorCode } : {}) },
  });
}

/** A user who has turned two-factor on at `now`: their secret, backup codes and a session. */
async function userWithTwoFactor(now: number) {
  const user = await makeUser(t.db);
  const session = await signIn(t.app, user);
  const setup = (await session.post("/api/auth/2fa/setup")).json<{ secret: string; manualEntryKey: string; qrCodeUrl: string }>();
  twoFactorClock.now = () => now;
  const verified = await session.post("/api/auth/2fa/verify-setup", { secret: setup.secret, token: totpAt(setup.secret, now) });
  expect(verified.statusCode, verified.body).toBe(200);
  return { user, session, secret: setup.secret, backupCodes: verified.json<{ backupCodes: string[] }>().backupCodes };
}

describe("authenticator codes", () => {
  // RFC 6238 Appendix B, SHA-1 key "12345678901234567890": 8-digit codes at the given Unix times.
  const vectors: Array<[number, string]> = [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ];
  const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // base32 of "12345678901234567890"

  it("are computed by the tests' own HOTP as RFC 6238 lists them", () => {
    expect(base32Decode(rfcSecret).toString()).toBe("12345678901234567890");
    for (const [seconds, code] of vectors) expect(hotp(base32Decode(rfcSecret), Math.floor(seconds / 30), 8)).toBe(code);
  });

  it("are accepted by the server's check at the RFC 6238 instants (6 digits: the last six of each vector)", () => {
    for (const [seconds, code] of vectors) {
      expect(matchingStep(rfcSecret, code.slice(2), seconds * 1000)).toBe(Math.floor(seconds / 30));
    }
  });

  it("accept one step of drift on either side (RFC 6238 §5.2) but not two", () => {
    const now = 1_700_000_010_000;
    expect(matchingStep(rfcSecret, totpAt(rfcSecret, now - STEP), now)).toBe(stepAt(now) - 1);
    expect(matchingStep(rfcSecret, totpAt(rfcSecret, now), now)).toBe(stepAt(now));
    expect(matchingStep(rfcSecret, totpAt(rfcSecret, now + STEP), now)).toBe(stepAt(now) + 1);
    expect(matchingStep(rfcSecret, totpAt(rfcSecret, now - 2 * STEP), now)).toBeNull();
    expect(matchingStep(rfcSecret, totpAt(rfcSecret, now + 2 * STEP), now)).toBeNull();
  });
});

describe("turning two-factor on", () => {
  it("issues a secret with its QR code and manual key, and is not on until a code is verified", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    expect((await session.get("/api/auth/2fa/status")).json()).toEqual({ enabled: false, backupCodesLeft: 0 });
    const setup = await session.post("/api/auth/2fa/setup");
    expect(setup.statusCode).toBe(200);
    const { secret, qrCodeUrl, manualEntryKey } = setup.json<{ secret: string; qrCodeUrl: string; manualEntryKey: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(manualEntryKey.replace(/ /g, "")).toBe(secret);
    expect(qrCodeUrl).toMatch(/^data:image\/png;base64,/);
    expect((await session.get("/api/auth/2fa/status")).json()).toEqual({ enabled: false, backupCodesLeft: 0 });
    // Until verified, the password alone still signs in.
    expect(cookieOf(await login(user))).toBeDefined();
  });

  it("refuses a wrong code, then enables with the right one and shows ten backup codes once", async () => {
    const now = pinClock(Date.now());
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const { secret } = (await session.post("/api/auth/2fa/setup")).json<{ secret: string }>();
    const wrong = await session.post("/api/auth/2fa/verify-setup", { secret, token: totpAt(secret, now - 2 * STEP) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: "Invalid verification code" });
    const short = await session.post("/api/auth/2fa/verify-setup", { secret, token: "12345" });
    expect(short.json()).toMatchObject({ fields: { token: "Code must be 6 digits" } });

    const verified = await session.post("/api/auth/2fa/verify-setup", { secret, token: totpAt(secret, now) });
    expect(verified.statusCode).toBe(200);
    const { backupCodes } = verified.json<{ backupCodes: string[] }>();
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(new Set(backupCodes).size).toBe(10);
    expect((await session.get("/api/auth/2fa/status")).json()).toEqual({ enabled: true, backupCodesLeft: 10 });
    expect((await session.post("/api/auth/2fa/setup")).statusCode).toBe(409);
  });

  it("keeps the secret encrypted and the backup codes hashed in the database, and out of every user answer", async () => {
    const { user, session, secret, backupCodes } = await userWithTwoFactor(pinClock(Date.now()));
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(secret);
    for (const code of backupCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
    const me = await session.get("/api/user");
    expect(Object.keys(me.json())).not.toEqual(expect.arrayContaining(["twoFactorSecret"]));
    expect(me.body).not.toMatch(/twoFactorSecret|twoFactorBackupCodes|twoFactorLastStep/);
  });

  it("ends the user's other sessions, which signed in without the second factor", async () => {
    const now = pinClock(Date.now());
    const user = await makeUser(t.db);
    const phone = await signIn(t.app, user);
    const laptop = await signIn(t.app, user);
    const { secret } = (await laptop.post("/api/auth/2fa/setup")).json<{ secret: string }>();
    expect((await laptop.post("/api/auth/2fa/verify-setup", { secret, token: totpAt(secret, now) })).statusCode).toBe(200);
    expect((await laptop.get("/api/user")).statusCode).toBe(200);
    expect((await phone.get("/api/user")).statusCode).toBe(401);
  });

  it("refuses to finish a setup that another tab has started again", async () => {
    const now = pinClock(Date.now());
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const first = (await session.post("/api/auth/2fa/setup")).json<{ secret: string }>();
    await session.post("/api/auth/2fa/setup");
    const response = await session.post("/api/auth/2fa/verify-setup", { secret: first.secret, token: totpAt(first.secret, now) });
    expect(response.statusCode).toBe(409);
    expect((await session.get("/api/auth/2fa/status")).json()).toMatchObject({ enabled: false });
  });
});

describe("signing in with two-factor", () => {
  it("answers that a code is needed after the right password, without starting a session", async () => {
    const { user } = await userWithTwoFactor(pinClock(Date.now()));
    const response = await login(user);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ requiresTwoFactor: true });
    expect(response.headers["set-cookie"]).toBeUndefined();
  });

  it("still refuses a wrong password without saying whether a code would be needed", async () => {
    const { user } = await userWithTwoFactor(pinClock(Date.now()));
    const response = await login({ ...user, password: "not-the-password" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Invalid email or password" });
  });

  it("signs in with the current code, under a new session id", async () => {
    const now = pinClock(Date.now());
    const { user, session, secret } = await userWithTwoFactor(now);
    twoFactorClock.now = () => now + STEP;
    const response = await login(user, totpAt(secret, now + STEP));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ email: user.email, twoFactorEnabled: true });
    const cookie = cookieOf(response);
    expect(cookie).toBeDefined();
    expect((await agent(t.app, cookie).get("/api/user")).statusCode).toBe(200);
    // The session that enabled two-factor goes on; the new one is another.
    expect((await session.get("/api/user")).statusCode).toBe(200);
  });

  it("refuses a code that was already used, even within its 30 seconds", async () => {
    const now = pinClock(Date.now());
    const { user, secret } = await userWithTwoFactor(now);
    twoFactorClock.now = () => now + STEP;
    const code = totpAt(secret, now + STEP);
    expect((await login(user, code)).statusCode).toBe(200);
    const replay = await login(user, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json<{ message: string }>().message).toMatch(/already been used/);
    expect(replay.headers["set-cookie"]).toBeUndefined();
  });

  it("refuses the setup code itself a second time (the step it verified is used)", async () => {
    const now = pinClock(Date.now());
    const { user, secret } = await userWithTwoFactor(now);
    expect((await login(user, totpAt(secret, now))).statusCode).toBe(401);
  });

  it("accepts the previous step's code, typed just as it changed", async () => {
    const now = pinClock(Date.now());
    const { user, secret } = await userWithTwoFactor(now);
    twoFactorClock.now = () => now + 2 * STEP;
    const response = await login(user, totpAt(secret, now + STEP));
    expect(response.statusCode, response.body).toBe(200);
  });

  it("signs in with a code from 30 s back, now or 30 s ahead (a phone's clock a little off), each once", async () => {
    const now = pinClock(Date.now());
    for (const offset of [-STEP, 0, STEP]) {
      // Set up three steps earlier, so the setup's own step is out of the way.
      twoFactorClock.now = () => now - 3 * STEP;
      const { user, secret } = await userWithTwoFactor(now - 3 * STEP);
      twoFactorClock.now = () => now;
      const code = totpAt(secret, now + offset);
      const first = await login(user, code);
      expect(first.statusCode, `${offset} ms: ${first.body}`).toBe(200);
      expect((await login(user, code)).statusCode, `${offset} ms, used again`).toBe(401);
    }
  });

  it("refuses, after a code of the step ahead, the current step's code (steps are used in order, once)", async () => {
    const now = pinClock(Date.now());
    twoFactorClock.now = () => now - 3 * STEP;
    const { user, secret } = await userWithTwoFactor(now - 3 * STEP);
    twoFactorClock.now = () => now;
    expect((await login(user, totpAt(secret, now + STEP))).statusCode).toBe(200);
    expect((await login(user, totpAt(secret, now))).statusCode).toBe(401);
  });

  it("refuses a code from two steps back", async () => {
    const now = pinClock(Date.now());
    const { user, secret } = await userWithTwoFactor(now);
    twoFactorClock.now = () => now + 3 * STEP;
    const response = await login(user, totpAt(secret, now + STEP));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Invalid verification code" });
  });

  it("accepts each backup code once, with or without its dash and in any case", async () => {
    const { user, session, backupCodes } = await userWithTwoFactor(pinClock(Date.now()));
    const [first, second] = backupCodes as [string, string];
    expect((await login(user, first)).statusCode).toBe(200);
    expect((await login(user, first)).statusCode).toBe(401);
    expect((await login(user, second.replace("-", "").toLowerCase())).statusCode).toBe(200);
    expect((await session.get("/api/auth/2fa/status")).json()).toEqual({ enabled: true, backupCodesLeft: 8 });
  });

  it("lets a backup code sign in only once when two sign-ins send it at the same moment", async () => {
    const { user, backupCodes } = await userWithTwoFactor(pinClock(Date.now()));
    for (const code of backupCodes.slice(0, 4)) {
      const answers = await Promise.all([login(user, code), login(user, code), login(user, code)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401]);
    }
  });

  it("lets an authenticator code sign in only once when two sign-ins send it at the same moment", async () => {
    const now = pinClock(Date.now());
    const { user, secret } = await userWithTwoFactor(now);
    twoFactorClock.now = () => now + STEP;
    const code = totpAt(secret, now + STEP);
    const answers = await Promise.all([login(user, code), login(user, code)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
  });

  it("is throttled like passwords: wrong codes use up the account's attempts, then even the right code waits", async () => {
    const now = pinClock(Date.now());
    const { user, secret } = await userWithTwoFactor(now);
    twoFactorClock.now = () => now + STEP;
    expect((await login(user)).json()).toEqual({ requiresTwoFactor: true });
    for (let i = 1; i < THROTTLE.maxAccountFailures; i++) expect((await login(user, "000000")).statusCode).toBe(401);
    const blocked = await login(user, totpAt(secret, now + STEP));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();
    expect(blocked.headers["set-cookie"]).toBeUndefined();
  });

  it("ignores a code sent for an account without two-factor", async () => {
    const user = await makeUser(t.db);
    const response = await login(user, "123456");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: user.email, twoFactorEnabled: false });
  });
});

describe("backup codes and turning two-factor off", () => {
  it("replaces every backup code with new ones, given the password", async () => {
    const { user, session, backupCodes } = await userWithTwoFactor(pinClock(Date.now()));
    const response = await session.post("/api/auth/2fa/regenerate-backup-codes", { password: user.password });
    expect(response.statusCode).toBe(200);
    const fresh = response.json<{ backupCodes: string[] }>().backupCodes;
    expect(fresh).toHaveLength(10);
    expect((await login(user, backupCodes[0])).statusCode).toBe(401);
    expect((await login(user, fresh[0])).statusCode).toBe(200);
  });

  it("replaces them given a current authenticator code instead, each code once", async () => {
    const now = pinClock(Date.now());
    const { session, secret, backupCodes } = await userWithTwoFactor(now);
    twoFactorClock.now = () => now + STEP;
    const code = totpAt(secret, now + STEP);
    const response = await session.post("/api/auth/2fa/regenerate-backup-codes", { token: code });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ backupCodes: string[] }>().backupCodes).not.toContain(backupCodes[0]);
    const replay = await session.post("/api/auth/2fa/regenerate-backup-codes", { token: code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ fields: { token: TWO_FACTOR_CODE_USED } });
  });

  it("refuses new backup codes to a session alone, a wrong password, a wrong code or a backup code", async () => {
    const { session, backupCodes } = await userWithTwoFactor(pinClock(Date.now()));
    const sessionOnly = await session.post("/api/auth/2fa/regenerate-backup-codes", {});
    expect(sessionOnly.statusCode).toBe(400);
    expect(sessionOnly.json()).toMatchObject({ fields: { password: PASSWORD_OR_CODE_NEEDED } });
    expect((await session.post("/api/auth/2fa/regenerate-backup-codes")).statusCode).toBe(400);
    const wrongPassword = await session.post("/api/auth/2fa/regenerate-backup-codes", { password: "not-the-password" });
    expect(wrongPassword.json()).toMatchObject({ fields: { password: "Incorrect password" } });
    const wrongCode = await session.post("/api/auth/2fa/regenerate-backup-codes", { token: "000000" });
    expect(wrongCode.json()).toMatchObject({ fields: { token: "Invalid verification code" } });
    const backup = await session.post("/api/auth/2fa/regenerate-backup-codes", { token: backupCodes[0] });
    expect(backup.statusCode).toBe(400);
    // The old codes still work: nothing was replaced.
    expect((await session.get("/api/auth/2fa/status")).json()).toEqual({ enabled: true, backupCodesLeft: 10 });
  });

  it("refuses new backup codes while two-factor is off", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    expect((await session.post("/api/auth/2fa/regenerate-backup-codes", { password: user.password })).statusCode).toBe(409);
  });

  it("turns off only with the password and a code, then the password alone signs in again", async () => {
    const now = pinClock(Date.now());
    const { user, session, secret, backupCodes } = await userWithTwoFactor(now);
    twoFactorClock.now = () => now + STEP;
    const wrongPassword = await session.post("/api/auth/2fa/disable", { password: "wrong-password", token: totpAt(secret, now + STEP) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toMatchObject({ fields: { password: "Incorrect password" } });
    const wrongCode = await session.post("/api/auth/2fa/disable", { password: user.password, token: "000000" });
    expect(wrongCode.json()).toMatchObject({ fields: { token: "Invalid verification code" } });
    expect((await session.get("/api/auth/2fa/status")).json()).toMatchObject({ enabled: true });

    const off = await session.post("/api/auth/2fa/disable", { password: user.password, token: backupCodes[0] });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ enabled: false, backupCodesLeft: 0 });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ twoFactorEnabled: false, twoFactorSecret: null, twoFactorBackupCodes: [] });
    const plain = await login(user);
    expect(plain.json()).toMatchObject({ email: user.email });
    expect(cookieOf(plain)).toBeDefined();
  });

  it("waits after five wrong tries at turning it off", async () => {
    const { user, session, backupCodes } = await userWithTwoFactor(pinClock(Date.now()));
    for (let i = 0; i < 5; i++) expect((await session.post("/api/auth/2fa/disable", { password: `wrong-${i}-pw`, token: "000000" })).statusCode).toBe(400);
    const blocked = await session.post("/api/auth/2fa/disable", { password: user.password, token: backupCodes[0] });
    expect(blocked.statusCode).toBe(429);
    expect((await session.get("/api/auth/2fa/status")).json()).toMatchObject({ enabled: true });
  });

  it("answers every two-factor call with 401 when signed out", async () => {
    const signedOut: Agent = anonymous(t.app);
    for (const [method, url] of [
      ["GET", "/api/auth/2fa/status"],
      ["POST", "/api/auth/2fa/setup"],
      ["POST", "/api/auth/2fa/verify-setup"],
      ["POST", "/api/auth/2fa/disable"],
      ["POST", "/api/auth/2fa/regenerate-backup-codes"],
    ] as const) {
      expect((await signedOut.request({ method, url, ...(method === "POST" ? { payload: {} } : {}) })).statusCode).toBe(401);
    }
  });
});
