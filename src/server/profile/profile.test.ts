import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agent, createTestApp, signIn, type TestApp } from "../../../tests/helpers/test-app";
import { EMAIL_CHANGE_NEEDS_PROOF } from "../../shared/schemas/profile";
import { makeUser, type MadeUser } from "../db/factories";

// The profile calls (part 2 §5, §7; issue 15): personal information, password change, and the Active sessions card.

const NEW_PASSWORD = "Brand-new-keys-2026";
const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Signs in as a given browser from a given address, answering the session cookie. */
async function signInFrom(user: MadeUser, userAgent: string, remoteAddress: string, password = user.password): Promise<string> {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/login",
    remoteAddress,
    headers: { "user-agent": userAgent },
    payload: { email: user.email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  const setCookie = response.headers["set-cookie"];
  return (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(";")[0]!;
}

describe("editing personal information", () => {
  it("saves first and last name and answers the user; the e-mail may come along unchanged", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const response = await session.patch("/api/user/profile", { firstName: " Dana ", lastName: "Reyes", email: user.email.toUpperCase() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, firstName: "Dana", lastName: "Reyes", email: user.email });
    expect((await session.get("/api/user")).json()).toMatchObject({ firstName: "Dana", email: user.email });
    expect((await session.patch("/api/user/profile", { firstName: "Dee", lastName: "Reyes" })).json()).toMatchObject({ firstName: "Dee" });
  });

  it("refuses a new e-mail: a session alone cannot move the account's address (decision 169)", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const response = await session.patch("/api/user/profile", { firstName: "A", lastName: "B", email: "somewhere-else@example.com" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { email: EMAIL_CHANGE_NEEDS_PROOF } });
    expect((await session.get("/api/user")).json()).toMatchObject({ email: user.email, firstName: user.firstName });
  });

  it("names each missing or invalid field with the screen's messages", async () => {
    const session = await signIn(t.app, await makeUser(t.db));
    const response = await session.patch("/api/user/profile", { firstName: "", lastName: " ", email: "nope" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      fields: { firstName: "First name is required", lastName: "Last name is required", email: "Invalid email address" },
    });
  });
});

describe("changing the password", () => {
  it("requires the current password", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const response = await session.patch("/api/user/password", { currentPassword: "not-it-at-all", newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { currentPassword: "Current password is incorrect" } });
    expect((await session.get("/api/user")).statusCode).toBe(200);
  });

  it("waits after five wrong current passwords, while signing in elsewhere still works", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    for (let i = 0; i < 5; i++) {
      expect((await session.patch("/api/user/password", { currentPassword: `wrong-guess-${i}`, newPassword: NEW_PASSWORD })).statusCode).toBe(400);
    }
    const blocked = await session.patch("/api/user/password", { currentPassword: user.password, newPassword: NEW_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();
    await signInFrom(user, CHROME_WINDOWS, "10.85.3.1");
  });

  it("applies the password policy to the new one", async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const short = await session.patch("/api/user/password", { currentPassword: user.password, newPassword: "abc" });
    expect(short.json()).toMatchObject({ fields: { newPassword: "New password must be at least 6 characters long" } });
    const common = await session.patch("/api/user/password", { currentPassword: user.password, newPassword: "qwerty123" });
    expect(common.json()).toMatchObject({ fields: { newPassword: "This password is too common. Choose a less guessable one." } });
    const email = await session.patch("/api/user/password", { currentPassword: user.password, newPassword: user.email });
    expect(email.json()).toMatchObject({ fields: { newPassword: "Password cannot be your email address." } });
  });

  it("ends every other session of the user, keeps this browser signed in under a new id, and records the date", async () => {
    const user = await makeUser(t.db);
    const phone = agent(t.app, await signInFrom(user, SAFARI_IPHONE, "10.85.0.1"));
    const laptopCookie = await signInFrom(user, CHROME_WINDOWS, "10.85.0.2");
    const laptop = agent(t.app, laptopCookie);
    expect((await laptop.get("/api/user")).json()).toMatchObject({ passwordChangedAt: null });

    const response = await laptop.patch("/api/user/password", { currentPassword: user.password, newPassword: NEW_PASSWORD });
    expect(response.statusCode, response.body).toBe(200);
    const { passwordChangedAt } = response.json<{ passwordChangedAt: string }>();
    expect(Number.isNaN(Date.parse(passwordChangedAt))).toBe(false);

    expect((await phone.get("/api/user")).statusCode).toBe(401);
    expect((await laptop.get("/api/user")).statusCode).toBe(401);
    const setCookie = response.headers["set-cookie"];
    const renewed = agent(t.app, (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(";")[0]);
    expect((await renewed.get("/api/user")).json()).toMatchObject({ id: user.id, passwordChangedAt });

    const oldPassword = await t.app.inject({ method: "POST", url: "/api/login", payload: { email: user.email, password: user.password } });
    expect(oldPassword.statusCode).toBe(401);
    await signInFrom(user, CHROME_WINDOWS, "10.85.0.3", NEW_PASSWORD);
  });
});

describe("active sessions", () => {
  it("lists the user's signed-in devices with address and last use, this one first and marked", async () => {
    const user = await makeUser(t.db);
    await signInFrom(user, SAFARI_IPHONE, "10.85.1.1");
    const here = agent(t.app, await signInFrom(user, CHROME_WINDOWS, "10.85.1.2"));
    await signIn(t.app, await makeUser(t.db)); // someone else's session is not listed
    const response = await here.get("/api/user/sessions");
    expect(response.statusCode).toBe(200);
    const list = response.json<Array<{ device: string; ipAddress: string; current: boolean; lastSeenAt: string }>>();
    expect(list.map(({ device, ipAddress, current }) => ({ device, ipAddress, current }))).toEqual([
      { device: "Chrome on Windows", ipAddress: "10.85.1.2", current: true },
      { device: "Safari on iPhone", ipAddress: "10.85.1.1", current: false },
    ]);
    expect(JSON.stringify(list)).not.toMatch(/sid|token/i);
  });

  it("signs out every other session and keeps this one", async () => {
    const user = await makeUser(t.db);
    const phone = agent(t.app, await signInFrom(user, SAFARI_IPHONE, "10.85.2.1"));
    const here = agent(t.app, await signInFrom(user, CHROME_WINDOWS, "10.85.2.2"));
    const response = await here.post("/api/user/sessions/sign-out-others");
    expect(response.json()).toEqual({ ended: 1 });
    expect((await phone.get("/api/user")).statusCode).toBe(401);
    expect((await here.get("/api/user/sessions")).json()).toHaveLength(1);
  });
});
