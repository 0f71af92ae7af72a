import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { PASSWORD_TOO_COMMON } from "../../shared/schemas/password";
import { VERIFICATION_CODE_MAX_ATTEMPTS } from "../../shared/schemas/team";
import { makeDealership, makeUser } from "../db/factories";
import { dealershipInvites } from "../db/schema/dealerships";
import { emailVerificationCodes } from "../db/schema/notifications";
import { users } from "../db/schema/users";
import { CODE_BURNED, CODE_CAPS, INVALID_CODE, INVITATION_LOCKED, TOO_MANY_CODE_REQUESTS } from "./verification";

// Sign-up by e-mail code (spec part 1 §2.2, §4, §5; decision 031): wrong, expired, reused and guessed codes.

let t: TestApp;
let smtp: SmtpReceiver;
let dealershipId: string;
let manager: Agent;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
  dealershipId = (await makeDealership(t.db, { name: "Code Motors" })).id;
  manager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId, role: "management" }] }));
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Invites the e-mail, requests a code and answers it as read from the mailbox. */
async function invitedWithCode(email: string): Promise<string> {
  const invited = await manager.post(`/api/dealerships/${dealershipId}/invites`, { email, firstName: "A", lastName: "B", role: "sales" });
  expect(invited.statusCode).toBe(201);
  return requestCode(email);
}

// Each request comes from its own address unless a test says otherwise, so the per-address cap on code
// requests (decision 008) only bites where a test means it to.
let lastAddress = 0;
const freshAddress = () => `198.18.${Math.floor(++lastAddress / 250)}.${lastAddress % 250}`;

function askForCode(email: string, remoteAddress = freshAddress()) {
  return t.app.inject({ method: "POST", url: "/api/auth/email-verification/request", remoteAddress, payload: { email } });
}

async function requestCode(email: string): Promise<string> {
  const before = smtp.mailsTo(email).length;
  const response = await askForCode(email);
  expect(response.statusCode).toBe(200);
  return codeIn(await smtp.waitFor(email, { subject: /verification code/, since: before }));
}

/** Lets the next code be requested without waiting out the resend interval. */
async function codeSentLongAgo(email: string) {
  await t.db
    .update(emailVerificationCodes)
    .set({ createdAt: new Date(Date.now() - 60_000) })
    .where(eq(emailVerificationCodes.email, email));
}

const verify = (body: object) => anonymous(t.app).post("/api/auth/email-verification/verify", body);

/** Distinct wrong codes for `code`, from the `from`-th on. */
const wrongCodes = (code: string, count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => String((Number(code) + from + i) % 1_000_000).padStart(6, "0"));

async function guessWrong(email: string, code: string, count: number) {
  const answers = [];
  for (const guess of wrongCodes(code, count)) answers.push(await verify(profile(email, guess)));
  return answers;
}

const profile = (email: string, code: string) => ({
  email,
  code,
  firstName: "New",
  lastName: "Person",
  password: "secret123",
  confirmPassword: "secret123",
});

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function accountExists(email: string) {
  return (await t.db.select().from(users).where(eq(users.email, email))).length > 0;
}

describe("the e-mailed code", () => {
  it("is stored only as a hash", async () => {
    const code = await invitedWithCode("hash@example.com");
    const [row] = await t.db.select().from(emailVerificationCodes).where(eq(emailVerificationCodes.email, "hash@example.com"));
    expect(row?.code).not.toContain(code);
    expect(row?.code).toHaveLength(64);
  });

  it("refuses a wrong code and creates nothing", async () => {
    const code = await invitedWithCode("wrong@example.com");
    const response = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("wrong@example.com", wrong(code)));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("Invalid or expired verification code.");
    expect(await accountExists("wrong@example.com")).toBe(false);
    // The right code still works afterwards.
    const right = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("wrong@example.com", code));
    expect(right.statusCode).toBe(201);
  });

  it("refuses an expired code", async () => {
    const code = await invitedWithCode("expired@example.com");
    await t.db
      .update(emailVerificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailVerificationCodes.email, "expired@example.com"));
    const response = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("expired@example.com", code));
    expect(response.statusCode).toBe(400);
    expect(await accountExists("expired@example.com")).toBe(false);
  });

  it("works only once", async () => {
    const code = await invitedWithCode("once@example.com");
    const first = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("once@example.com", code));
    expect(first.statusCode).toBe(201);
    const second = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("once@example.com", code));
    expect(second.statusCode).toBe(400);
  });

  it(`is burned after ${VERIFICATION_CODE_MAX_ATTEMPTS} wrong tries, even tried all at once`, async () => {
    const code = await invitedWithCode("guess@example.com");
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const answers = await Promise.all(
      guesses.map((g) => anonymous(t.app).post("/api/auth/email-verification/verify", profile("guess@example.com", g))),
    );
    expect(answers.every((a) => a.statusCode === 400)).toBe(true);
    const [row] = await t.db.select().from(emailVerificationCodes).where(eq(emailVerificationCodes.email, "guess@example.com"));
    expect(row?.failedAttempts).toBe(VERIFICATION_CODE_MAX_ATTEMPTS);
    // Now even the right code is refused, with a message saying to ask for a new one.
    const right = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("guess@example.com", code));
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toMatch(/request a new verification code/);
    expect(await accountExists("guess@example.com")).toBe(false);
  });

  it("is replaced by a new code on request (after a short wait), and the old one stops working", async () => {
    const first = await invitedWithCode("again@example.com");
    const tooSoon = await askForCode("again@example.com");
    expect(tooSoon.statusCode).toBe(429);
    await t.db
      .update(emailVerificationCodes)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(emailVerificationCodes.email, "again@example.com"));
    const second = await requestCode("again@example.com");
    if (second !== first) {
      const old = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("again@example.com", first));
      expect(old.statusCode).toBe(400);
    }
    const response = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("again@example.com", second));
    expect(response.statusCode).toBe(201);
  });

  it("does not register anyone once the invitation has expired", async () => {
    const code = await invitedWithCode("lapsed@example.com");
    await t.db
      .update(dealershipInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dealershipInvites.email, "lapsed@example.com"));
    const response = await anonymous(t.app).post("/api/auth/email-verification/verify", profile("lapsed@example.com", code));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/expired/);
    expect(await accountExists("lapsed@example.com")).toBe(false);
  });

  it("is not sent to an e-mail without an invitation", async () => {
    const response = await askForCode("stranger@example.com");
    expect(response.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mailsTo("stranger@example.com")).toEqual([]);
    expect(await t.db.select().from(emailVerificationCodes).where(eq(emailVerificationCodes.email, "stranger@example.com"))).toEqual([]);
  });

  it("checks the form with the spec's messages", async () => {
    const response = await anonymous(t.app).post("/api/auth/email-verification/verify", {
      email: "nope",
      code: "12",
      firstName: "",
      lastName: "",
      password: "123",
      confirmPassword: "456",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      email: "Please enter a valid email",
      code: "Verification code must be 6 digits",
      firstName: "First name is required",
      lastName: "Last name is required",
      password: "Password must be at least 6 characters",
      confirmPassword: "Passwords don't match",
    });
  });
});

describe("caps across codes", () => {
  it(`refuses an invitation's codes after ${CODE_CAPS.wrongTriesPerInvitation} wrong tries over several codes, until management resends it`, async () => {
    const email = "capped@example.com";
    const first = await invitedWithCode(email);
    const firstAnswers = await guessWrong(email, first, 5);
    expect(firstAnswers.at(-1)!.json().message).toBe(CODE_BURNED);
    await codeSentLongAgo(email);
    const second = await requestCode(email);
    expect((await guessWrong(email, second, 3)).every((a) => a.json().message === INVALID_CODE)).toBe(true);
    await codeSentLongAgo(email);
    const third = await requestCode(email);
    const last = await guessWrong(email, third, 2);
    // The tenth wrong try says so at once.
    expect(last.at(-1)!.statusCode).toBe(400);
    expect(last.at(-1)!.json()).toEqual({ message: INVITATION_LOCKED, fields: { code: INVITATION_LOCKED } });

    // The third code has tries of its own left, but the invitation has none: even the right code is refused.
    const right = await verify(profile(email, third));
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toBe(INVITATION_LOCKED);
    expect(await accountExists(email)).toBe(false);
    // Asking for another code says the same and sends nothing.
    await codeSentLongAgo(email);
    const mailsBefore = smtp.mailsTo(email).length;
    const another = await askForCode(email);
    expect(another.statusCode).toBe(409);
    expect(another.json().message).toBe(INVITATION_LOCKED);
    expect(smtp.mailsTo(email)).toHaveLength(mailsBefore);

    const [invite] = await t.db.select().from(dealershipInvites).where(eq(dealershipInvites.email, email));
    expect((await manager.post(`/api/dealerships/${dealershipId}/invites/${invite!.id}/resend`)).statusCode).toBe(200);
    const fresh = await requestCode(email);
    expect((await verify(profile(email, fresh))).statusCode).toBe(201);
  });

  it("gives a burst of wrong codes no more tries than the invitation has left", async () => {
    const email = "burst@example.com";
    const first = await invitedWithCode(email);
    await guessWrong(email, first, 5);
    await codeSentLongAgo(email);
    const second = await requestCode(email);
    await guessWrong(email, second, CODE_CAPS.wrongTriesPerInvitation - 5 - 1);
    await codeSentLongAgo(email);
    const third = await requestCode(email);

    const answers = await Promise.all(wrongCodes(third, 20).map((guess) => verify(profile(email, guess))));
    expect(answers.every((a) => a.statusCode === 400)).toBe(true);
    const [row] = await t.db.select().from(emailVerificationCodes).where(eq(emailVerificationCodes.email, email));
    expect(row?.failedAttempts).toBe(1);
    expect((await verify(profile(email, third))).json().message).toBe(INVITATION_LOCKED);
    expect(await accountExists(email)).toBe(false);
  });

  it("does not count a right code against the invitation, even when the rest of the form is refused", async () => {
    const email = "patient@example.com";
    const code = await invitedWithCode(email);
    for (let i = 0; i < CODE_CAPS.wrongTriesPerInvitation + 2; i++) {
      const refused = await verify({ ...profile(email, code), password: "password1", confirmPassword: "password1" });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual({ password: PASSWORD_TOO_COMMON });
    }
    expect((await verify(profile(email, code))).statusCode).toBe(201);
  });

  it(`answers 429 with Retry-After to the request after ${CODE_CAPS.requestsPerEmail} in an hour for one e-mail, invited or not`, async () => {
    for (let i = 0; i < CODE_CAPS.requestsPerEmail; i++) expect((await askForCode("flood@example.com")).statusCode).toBe(200);
    const refused = await askForCode("flood@example.com");
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(TOO_MANY_CODE_REQUESTS);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await askForCode("someone.else@example.com")).statusCode).toBe(200);
  });

  it(`answers 429 to the request after ${CODE_CAPS.requestsPerAddress} in an hour from one address, without blocking other addresses`, async () => {
    const from = "198.51.100.60";
    for (let i = 0; i < CODE_CAPS.requestsPerAddress; i++) expect((await askForCode(`spray${i}@example.com`, from)).statusCode).toBe(200);
    const refused = await askForCode("spray-last@example.com", from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(TOO_MANY_CODE_REQUESTS);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await askForCode("spray-last@example.com", "198.51.100.61")).statusCode).toBe(200);
  });

  it("counts a burst of code requests for one e-mail exactly", async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => askForCode("burst-request@example.com")));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(CODE_CAPS.requestsPerEmail);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(30 - CODE_CAPS.requestsPerEmail);
  });
});

describe("the password of a new account", () => {
  it("is judged by the password policy when the code creates the account", async () => {
    const email = "newpass@example.com";
    const code = await invitedWithCode(email);
    for (const password of ["123456", "password", "      ", email]) {
      const refused = await verify({ ...profile(email, code), password, confirmPassword: password });
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json().fields)).toEqual(["password"]);
    }
    expect(await accountExists(email)).toBe(false);
  });

  it("is judged the same when an invited e-mail registers through /api/register", async () => {
    const email = "viaregister@example.com";
    const code = await invitedWithCode(email);
    const body = { ...profile(email, code), password: "123456", confirmPassword: "123456" };
    const refused = await anonymous(t.app).post("/api/register", body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ password: PASSWORD_TOO_COMMON });
    expect(await accountExists(email)).toBe(false);
  });

  it("is not judged when an existing account joins with its current password, however common", async () => {
    const existing = await makeUser(t.db, { email: "oldtimer@example.com", password: "password" });
    const code = await invitedWithCode(existing.email);
    const joined = await verify({ ...profile(existing.email, code), password: "password", confirmPassword: "password" });
    expect(joined.statusCode).toBe(201);
  });
});
