import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous, createTestApp, signIn, type TestApp } from "../../../tests/helpers/test-app";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { sessions, users } from "../db/schema/users";
import { makeDealership, makeUser } from "../db/factories";
import { THROTTLE } from "./login-throttle";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ platformAdminEmails: ["boss@example.com"] });
});
afterAll(() => t.close());

const registration = (email: string) => ({
  firstName: "Dana",
  lastName: "Dealer",
  email,
  phone: "416-555-0199",
  password: "secret123",
  confirmPassword: "secret123",
  dealershipName: "Dana's Autos",
});

function cookieOf(response: { headers: Record<string, unknown> }): string {
  const raw = response.headers["set-cookie"];
  const first = Array.isArray(raw) ? raw[0] : (raw as string);
  return first.split(";")[0]!;
}

describe("registration", () => {
  it("creates the user, a dealership with them as management, and signs them in", async () => {
    const response = await anonymous(t.app).post("/api/register", registration("dana@example.com"));
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({ email: "dana@example.com", firstName: "Dana", lastName: "Dealer" });
    expect(user).not.toHaveProperty("password");
    expect(user).not.toHaveProperty("twoFactorSecret");
    expect(user).not.toHaveProperty("twoFactorBackupCodes");
    expect(user.id).toHaveLength(21);

    const setCookie = String(response.headers["set-cookie"]);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);

    const me = await t.app.inject({ method: "GET", url: "/api/user", headers: { cookie: cookieOf(response) } });
    expect(me.json().email).toBe("dana@example.com");
    const list = await t.app.inject({ method: "GET", url: "/api/dealerships", headers: { cookie: cookieOf(response) } });
    expect(list.json()).toEqual([expect.objectContaining({ name: "Dana's Autos", role: "management" })]);
  });

  it("refuses a second account with the same e-mail and saves nothing", async () => {
    const before = await t.db.select().from(dealerships);
    const response = await anonymous(t.app).post("/api/register", { ...registration("DANA@example.com"), dealershipName: "Other" });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/already exists/);
    expect(await t.db.select().from(dealerships)).toHaveLength(before.length);
  });

  it("names the failing fields with the spec's messages", async () => {
    const response = await anonymous(t.app).post("/api/register", {
      ...registration("x@example.com"),
      firstName: "",
      confirmPassword: "different",
      dealershipName: "",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      firstName: "First name is required",
      confirmPassword: "Passwords don't match",
      dealershipName: "Dealership name is required",
    });
    expect(await t.db.select().from(users).where(eq(users.email, "x@example.com"))).toHaveLength(0);
  });

  it("refuses 123456, password, six spaces and the e-mail itself as a new password, naming the field", async () => {
    const email = "pat.rivera@example.com";
    for (const password of ["123456", "password", "Password", "      ", email, "PAT.RIVERA@example.com", "pat.rivera"]) {
      const response = await anonymous(t.app).post("/api/register", { ...registration(email), password, confirmPassword: password });
      expect(response.statusCode, password).toBe(400);
      expect(Object.keys(response.json().fields), password).toEqual(["password"]);
    }
    const common = await anonymous(t.app).post("/api/register", { ...registration(email), password: "123456", confirmPassword: "123456" });
    expect(common.json().fields.password).toBe("This password is too common. Choose a less guessable one.");
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it("signs in with a password typed decomposed (NFD) to an account registered with its composed (NFC) form", async () => {
    const composed = "Crème brûlée 7".normalize("NFC");
    const decomposed = composed.normalize("NFD");
    expect(decomposed).not.toBe(composed);
    const registered = await anonymous(t.app).post("/api/register", {
      ...registration("unicode@example.com"),
      password: composed,
      confirmPassword: composed,
    });
    expect(registered.statusCode).toBe(201);
    const login = await anonymous(t.app).post("/api/login", { email: "unicode@example.com", password: decomposed });
    expect(login.statusCode).toBe(200);
  });

  it("still signs in a demo user whose password predates the policy", async () => {
    const demo = await makeUser(t.db, { email: "legacy@demo.showroom", password: "showroom123" });
    expect((await anonymous(t.app).post("/api/login", { email: demo.email, password: "showroom123" })).statusCode).toBe(200);
    const common = await makeUser(t.db, { email: "legacy-common@example.com", password: "123456" });
    expect((await anonymous(t.app).post("/api/login", { email: common.email, password: "123456" })).statusCode).toBe(200);
  });

  it("does not make a PLATFORM_ADMIN_EMAILS address a platform admin by registering it: the address is not proven yet", async () => {
    const response = await anonymous(t.app).post("/api/register", registration("boss@example.com"));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ email: "boss@example.com", emailVerifiedAt: null });
    const status = await t.app.inject({ method: "GET", url: "/api/user/platform-admin-status", headers: { cookie: cookieOf(response) } });
    expect(status.json()).toEqual({ isPlatformAdmin: false });
  });
});

describe("login and logout", () => {
  it("answers the same 401 for an unknown e-mail and a wrong password", async () => {
    await makeUser(t.db, { email: "known@example.com", password: "rightpass" });
    const unknown = await anonymous(t.app).post("/api/login", { email: "nobody@example.com", password: "whatever1" });
    const wrong = await anonymous(t.app).post("/api/login", { email: "known@example.com", password: "wrongpass" });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: "Invalid email or password" });
    expect(wrong.json()).toEqual({ message: "Invalid email or password" });
  });

  it("gives a new session id at every login and destroys it on the server at logout", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const first = await anonymous(t.app).post("/api/login", { email: user.email, password: "rightpass" });
    const second = await anonymous(t.app).post("/api/login", { email: user.email, password: "rightpass" });
    expect(cookieOf(first)).not.toBe(cookieOf(second));

    const cookie = cookieOf(second);
    const logout = await t.app.inject({ method: "POST", url: "/api/logout", headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    const after = await t.app.inject({ method: "GET", url: "/api/user", headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it("answers 401 on /api/user and false admin status when nobody is signed in", async () => {
    expect((await anonymous(t.app).get("/api/user")).statusCode).toBe(401);
    expect((await anonymous(t.app).get("/api/user/platform-admin-status")).json()).toEqual({ isPlatformAdmin: false });
  });

  it("ends a session that passed its idle expiry", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const me = await signIn(t.app, user);
    await t.db.update(sessions).set({ expire: new Date(Date.now() - 1000) });
    expect((await me.get("/api/user")).statusCode).toBe(401);
  });

  it("treats a session whose account was deleted as signed out", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const me = await signIn(t.app, user);
    await t.db.delete(users).where(eq(users.id, user.id));
    expect((await me.get("/api/user")).statusCode).toBe(401);
    expect((await me.get("/api/dealerships")).statusCode).toBe(401);
  });

  it("ends a session past its absolute expiry however recently it was used", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const me = await signIn(t.app, user);
    expect((await me.get("/api/user")).statusCode).toBe(200);
    await t.db.execute(
      sql`update sessions set sess = jsonb_set(sess, '{absoluteExpiry}', to_jsonb(${Date.now() - 1000}::bigint)) where sess->>'userId' = ${user.id}`,
    );
    expect((await me.get("/api/user")).statusCode).toBe(401);
  });

  it("slides the idle expiry forward while the session is used", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const me = await signIn(t.app, user);
    const soon = new Date(Date.now() + 5 * 60_000);
    await t.db.execute(sql`update sessions set expire = ${soon} where sess->>'userId' = ${user.id}`);
    expect((await me.get("/api/user")).statusCode).toBe(200);
    const [row] = await t.db.select().from(sessions).where(sql`sess->>'userId' = ${user.id}`);
    expect(row!.expire.getTime()).toBeGreaterThan(soon.getTime() + 60 * 60_000);
  });

  it("throttles repeated failures on one account with 429 and Retry-After, then lets the real user in later", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    for (let i = 0; i < THROTTLE.maxAccountFailures; i++) {
      await anonymous(t.app).post("/api/login", { email: user.email, password: "badpass1" });
    }
    const blocked = await anonymous(t.app).post("/api/login", { email: user.email, password: "rightpass" });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);

    // The block is temporary: once it passes, the right password works again.
    await t.db.execute(`update login_attempts set blocked_until = now() - interval '1 second'` as never);
    const later = await anonymous(t.app).post("/api/login", { email: user.email, password: "rightpass" });
    expect(later.statusCode).toBe(200);
  });

  it("throttles one client address trying many accounts, without blocking other addresses", async () => {
    const attempt = (email: string, remoteAddress: string, password = "badpass1") =>
      t.app.inject({ method: "POST", url: "/api/login", remoteAddress, payload: { email, password } });
    for (let i = 0; i < THROTTLE.maxAddressFailures; i++) await attempt(`guess${i}@example.com`, "203.0.113.9");
    const user = await makeUser(t.db, { password: "rightpass" });
    const fromAttacker = await attempt(user.email, "203.0.113.9", "rightpass");
    expect(fromAttacker.statusCode).toBe(429);
    const fromElsewhere = await attempt(user.email, "198.51.100.7", "rightpass");
    expect(fromElsewhere.statusCode).toBe(200);
  });

  it("lets at most 5 of 100 concurrent wrong passwords for one account reach the password check", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.app.inject({ method: "POST", url: "/api/login", remoteAddress: `192.0.2.${i}`, payload: { email: user.email, password: `wrong-${i}` } }),
      ),
    );
    const checked = answers.filter((a) => a.statusCode === 401);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(THROTTLE.maxAccountFailures);
    expect(refused.length).toBe(100 - checked.length);
    expect(refused[0]!.json()).toEqual({ message: "Too many failed sign-in attempts. Please try again later." });
    expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("does not sign in a right password sent in a burst of wrong ones once the account is blocked", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    // The right password goes out in the middle of the burst, long after the first 5 attempts were counted.
    const passwords = Array.from({ length: 100 }, (_, i) => (i === 50 ? "rightpass" : `wrong-${i}`));
    const answers = await Promise.all(
      passwords.map((password) =>
        t.app.inject({ method: "POST", url: "/api/login", remoteAddress: "192.0.2.200", payload: { email: user.email, password } }),
      ),
    );
    expect(answers[50]!.statusCode).toBe(429);
    expect(answers[50]!.headers["set-cookie"]).toBeUndefined();
    expect(answers.filter((a) => a.statusCode === 200)).toEqual([]);
  });

  it("answers every one of a burst of right and wrong passwords for one account, none with an error", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/api/login",
          remoteAddress: "192.0.2.204",
          payload: { email: user.email, password: i % 2 ? "rightpass" : `wrong-${i}` },
        }),
      ),
    );
    expect(answers.filter((a) => ![200, 401, 429].includes(a.statusCode))).toEqual([]);
  });

  it("lets at most 30 of 300 concurrent sign-ins from one address reach the password check", async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        t.app.inject({ method: "POST", url: "/api/login", remoteAddress: "203.0.113.77", payload: { email: `many${i}@example.com`, password: "badpass1" } }),
      ),
    );
    const checked = answers.filter((a) => a.statusCode === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(THROTTLE.maxAddressFailures);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(300 - checked);
  });

  it("forgets an account's failures when its password is then typed right", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const login = (password: string) =>
      t.app.inject({ method: "POST", url: "/api/login", remoteAddress: "192.0.2.201", payload: { email: user.email, password } });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < THROTTLE.maxAccountFailures - 1; i++) expect((await login("typo-pass")).statusCode).toBe(401);
      expect((await login("rightpass")).statusCode).toBe(200);
    }
  });

  it("counts only failures against an address: staff signing in all day do not block it", async () => {
    const user = await makeUser(t.db, { password: "rightpass" });
    const login = (password: string) =>
      t.app.inject({ method: "POST", url: "/api/login", remoteAddress: "192.0.2.202", payload: { email: user.email, password } });
    for (let i = 0; i < THROTTLE.maxAddressFailures + 5; i++) expect((await login("rightpass")).statusCode).toBe(200);
  });

  it("does not count attempts on a blocked account against the address they come from", async () => {
    const blocked = await makeUser(t.db, { password: "rightpass" });
    const colleague = await makeUser(t.db, { password: "rightpass" });
    const login = (email: string, password: string) =>
      t.app.inject({ method: "POST", url: "/api/login", remoteAddress: "192.0.2.203", payload: { email, password } });
    for (let i = 0; i < THROTTLE.maxAccountFailures; i++) await login(blocked.email, "typo-pass");
    // A locked-out user pressing Sign in again and again, well past the address limit.
    for (let i = 0; i < THROTTLE.maxAddressFailures + 5; i++) expect((await login(blocked.email, "rightpass")).statusCode).toBe(429);
    expect((await login(colleague.email, "rightpass")).statusCode).toBe(200);
  });

  it("refuses a write from another origin", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/login",
      headers: { origin: "https://evil.example", host: "localhost:5000" },
      payload: { email: "known@example.com", password: "rightpass" },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe("dealership membership", () => {
  it("lets a member switch current dealership and refuses a non-member with 403", async () => {
    const a = await makeDealership(t.db);
    const b = await makeDealership(t.db);
    const other = await makeDealership(t.db);
    const user = await makeUser(t.db, { memberships: [{ dealershipId: a.id, role: "sales" }, { dealershipId: b.id, role: "frontDesk" }] });
    const me = await signIn(t.app, user);
    expect((await me.post("/api/user/current-dealership", { dealershipId: b.id })).statusCode).toBe(200);
    expect((await me.get("/api/user")).json().currentDealershipId).toBe(b.id);
    expect((await me.post("/api/user/current-dealership", { dealershipId: other.id })).statusCode).toBe(403);
    expect((await me.get("/api/user")).json().currentDealershipId).toBe(b.id);
  });

  it("answers a member's role per dealership, 403 for another dealership", async () => {
    const a = await makeDealership(t.db);
    const other = await makeDealership(t.db);
    const user = await makeUser(t.db, { memberships: [{ dealershipId: a.id, role: "frontDesk" }] });
    const me = await signIn(t.app, user);
    expect((await me.get(`/api/dealerships/${a.id}/users/${user.id}/role`)).json()).toEqual({ role: "frontDesk" });
    expect((await me.get(`/api/dealerships/${other.id}/users/${user.id}/role`)).statusCode).toBe(403);
  });

  it("stops access at once when a membership is deactivated", async () => {
    const a = await makeDealership(t.db);
    const user = await makeUser(t.db, { memberships: [{ dealershipId: a.id, role: "sales" }] });
    const me = await signIn(t.app, user);
    await t.db.update(dealershipUsers).set({ active: false }).where(eq(dealershipUsers.userId, user.id));
    expect((await me.get(`/api/dealerships/${a.id}/users/${user.id}/role`)).statusCode).toBe(403);
    expect((await me.get("/api/dealerships")).json()).toEqual([]);
  });
});

describe("health", () => {
  it("answers ok while the database answers", async () => {
    const response = await anonymous(t.app).get("/api/health");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });
});
