import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { VERIFICATION_CODE_MAX_ATTEMPTS } from "../../shared/schemas/team";
import { makeDealership, makeUser } from "../db/factories";
import { dealershipInvites } from "../db/schema/dealerships";
import { emailVerificationCodes } from "../db/schema/notifications";
import { users } from "../db/schema/users";

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

async function requestCode(email: string): Promise<string> {
  const before = smtp.mailsTo(email).length;
  const response = await anonymous(t.app).post("/api/auth/email-verification/request", { email });
  expect(response.statusCode).toBe(200);
  return codeIn(await smtp.waitFor(email, { subject: /verification code/, since: before }));
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
    const tooSoon = await anonymous(t.app).post("/api/auth/email-verification/request", { email: "again@example.com" });
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
    const response = await anonymous(t.app).post("/api/auth/email-verification/request", { email: "stranger@example.com" });
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
