import { eq, sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestApp, signIn, type TestApp } from "../../../tests/helpers/test-app";
import { PASSWORD_RESET_INVALID, PASSWORD_RESET_SENT } from "../../shared/schemas/profile";
import { rowsOf } from "../db/client";
import { makeUser, type MadeUser } from "../db/factories";
import { passwordResetTokens } from "../db/schema/password-resets";
import { users } from "../db/schema/users";
import { settleAfterAnswer } from "../http/after-answer";
import { RESET_CAPS } from "./password-reset";

// Forgotten password (issue 15; decision 083): same answer for any e-mail, a single-use expiring link by e-mail,
// every session of the user ended when it is used.

const NEW_PASSWORD = "Fresh-start-on-the-lot-42";

let t: TestApp;
let smtp: SmtpReceiver;
let address = 0;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url, appUrl: "https://showroom.example" });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Each test asks from an address of its own, so the per-address cap of one test never decides another. */
function requestReset(email: string, remoteAddress = `10.83.0.${++address}`) {
  return t.app.inject({ method: "POST", url: "/api/auth/password-reset/request", remoteAddress, payload: { email } });
}

function confirm(token: string, newPassword = NEW_PASSWORD) {
  return t.app.inject({ method: "POST", url: "/api/auth/password-reset/confirm", payload: { token, newPassword, confirmPassword: newPassword } });
}

/** Asks for a link and answers the token from the mail that arrives. */
async function tokenFor(user: MadeUser): Promise<string> {
  const before = smtp.mailsTo(user.email).length;
  expect((await requestReset(user.email)).statusCode).toBe(200);
  await deliverMail(t.app);
  const mail = await smtp.waitFor(user.email, { subject: /Reset your Showroom password/, since: before });
  const match = /https:\/\/showroom\.example\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  expect(mail.html).toContain(`reset-password#token=${match[1]}`);
  return match[1]!;
}

function signInStatus(user: MadeUser, password: string) {
  return t.app.inject({ method: "POST", url: "/api/login", remoteAddress: "10.83.1.1", payload: { email: user.email, password } });
}

describe("asking for a password reset", () => {
  it("answers the same whether or not an account has the e-mail, and mails only the account", async () => {
    const user = await makeUser(t.db);
    const known = await requestReset(user.email);
    const unknown = await requestReset("nobody-here@example.com");
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: PASSWORD_RESET_SENT });
    expect(unknown.json()).toEqual(known.json());
    await deliverMail(t.app);
    await smtp.waitFor(user.email, { subject: /Reset your Showroom password/ });
    expect(smtp.mailsTo("nobody-here@example.com")).toEqual([]);
  });

  it("answers before the e-mail is looked up: at the answer there is no link and no mail yet, for an account or not", async () => {
    const user = await makeUser(t.db);
    // One statement, so it sees one moment: the account's links, and mail to the e-mail queued or already sent.
    const madeFor = async (email: string) => {
      const [row] = rowsOf<{ links: number; mails: number }>(
        await t.db.execute(sql`select
          (select count(*) from password_reset_tokens r join users u on u.id = r.user_id where u.email = ${email})::int as links,
          ((select count(*) from pgboss.job where name = 'mail' and data->>'to' = ${email})
            + (select count(*) from emails_log where "to" = ${email}))::int as mails`),
      );
      return row;
    };
    // On the PostgreSQL server the work after the answer runs beside this test's reads, and could write the link before
    // the test looks: the account's row is held for update, so the link's insert (its foreign key) waits until the test
    // has looked. An answer that waited for that work would never come. PGlite runs one statement at a time: no hold.
    const pool = t.database.kind === "postgres" ? (t.db as unknown as { $client: pg.Pool }).$client : undefined;
    for (const [email, made] of [
      [user.email, { links: 1, mails: 1 }],
      ["not-an-account@example.com", { links: 0, mails: 0 }],
    ] as const) {
      const hold = pool && email === user.email ? await pool.connect() : undefined;
      await hold?.query("begin");
      await hold?.query("select 1 from users where id = $1 for update", [user.id]);
      const response = await requestReset(email);
      expect(response.json()).toEqual({ message: PASSWORD_RESET_SENT });
      // The answer waited for the request to be counted, nothing that depends on the e-mail (decision 170).
      expect(await madeFor(email)).toEqual({ links: 0, mails: 0 });
      await hold?.query("commit");
      hold?.release();
      await settleAfterAnswer(t.db);
      expect(await madeFor(email)).toEqual(made);
    }
  });

  it("keeps only a hash of the token", async () => {
    const user = await makeUser(t.db);
    const token = await tokenFor(user);
    const rows = await t.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("is throttled per e-mail, for accounts and unknown e-mails alike", async () => {
    for (const email of [(await makeUser(t.db)).email, "unknown-throttled@example.com"]) {
      for (let i = 0; i < RESET_CAPS.requestsPerEmail; i++) expect((await requestReset(email)).statusCode).toBe(200);
      const refused = await requestReset(email);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toBeDefined();
    }
  });

  it("refuses an e-mail that is not one", async () => {
    const response = await requestReset("not-an-email");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { email: "Please enter a valid email address" } });
  });
});

describe("using a reset link", () => {
  it("sets the new password, records when, and ends every session of the user", async () => {
    const user = await makeUser(t.db);
    const phone = await signIn(t.app, user);
    const laptop = await signIn(t.app, user);
    const token = await tokenFor(user);
    const response = await confirm(token);
    expect(response.statusCode, response.body).toBe(200);
    expect((await phone.get("/api/user")).statusCode).toBe(401);
    expect((await laptop.get("/api/user")).statusCode).toBe(401);
    expect((await signInStatus(user, user.password)).statusCode).toBe(401);
    expect((await signInStatus(user, NEW_PASSWORD)).statusCode).toBe(200);
    const [row] = await t.db.select({ changed: users.passwordChangedAt }).from(users).where(eq(users.id, user.id));
    expect(row?.changed).toBeInstanceOf(Date);
  });

  it("works once", async () => {
    const user = await makeUser(t.db);
    const token = await tokenFor(user);
    expect((await confirm(token)).statusCode).toBe(200);
    const again = await confirm(token, "Another-new-password-77");
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: PASSWORD_RESET_INVALID });
    expect((await signInStatus(user, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it("voids the user's other links when one is used", async () => {
    const user = await makeUser(t.db);
    const first = await tokenFor(user);
    const second = await tokenFor(user);
    expect((await confirm(second)).statusCode).toBe(200);
    expect((await confirm(first, "Another-new-password-77")).statusCode).toBe(400);
  });

  it("refuses a link past its expiry", async () => {
    const user = await makeUser(t.db);
    const token = await tokenFor(user);
    await t.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.userId, user.id));
    const response = await confirm(token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: PASSWORD_RESET_INVALID });
    expect((await signInStatus(user, user.password)).statusCode).toBe(200);
  });

  it("refuses a made-up token", async () => {
    expect((await confirm("x".repeat(43))).statusCode).toBe(400);
  });

  it("applies the password policy and leaves the link usable after a refused password", async () => {
    const user = await makeUser(t.db);
    const token = await tokenFor(user);
    const common = await confirm(token, "password1");
    expect(common.statusCode).toBe(400);
    expect(common.json()).toMatchObject({ fields: { newPassword: "This password is too common. Choose a less guessable one." } });
    const short = await confirm(token, "abc");
    expect(short.json()).toMatchObject({ fields: { newPassword: "New password must be at least 6 characters long" } });
    expect((await confirm(token)).statusCode).toBe(200);
  });
});
