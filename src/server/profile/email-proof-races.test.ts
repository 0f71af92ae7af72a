import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverMail } from "../../../tests/helpers/deliver-mail";
import { raceRounds } from "../../../tests/helpers/races";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { VERIFICATION_CODE_MAX_ATTEMPTS } from "../../shared/schemas/team";
import { makeUser } from "../db/factories";
import { users } from "../db/schema/users";
import { CODE_BURNED, INVALID_CODE } from "../team/verification";

// The e-mail change and the e-mail proof under 50 requests at once (decision 169; review of issue 23). A code is used
// once however many requests bring it together; wrong guesses are all counted, so 50 at once burn the code like 50 in
// a row; two accounts confirming moves to one address leave one owner. Real overlap only on the PostgreSQL server
// (raceRounds); on PGlite the same rounds check the outcome logic.

const AT_ONCE = 50;

let t: TestApp;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function changeCode(session: Agent, email: string, currentPassword: string): Promise<string> {
  const before = smtp.mailsTo(email).length;
  const asked = await session.post("/api/user/email-change/request", { email, currentPassword });
  expect(asked.statusCode, asked.body).toBe(200);
  return codeIn(await smtp.waitFor(email, { subject: /Confirm your new Showroom e-mail/, since: before }));
}

const wrong = (code: string, n: number) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

describe(`${AT_ONCE} requests at once`, () => {
  it("confirming one e-mail change with its code: one change, one notice to the old address, no 5xx", async () => {
    for (let round = 0; round < raceRounds(3); round++) {
      const user = await makeUser(t.db);
      const session = await signIn(t.app, user);
      const target = `moved-${round}-${Date.now()}@example.com`;
      const code = await changeCode(session, target, user.password);
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => session.post("/api/user/email-change/confirm", { code })));
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 400)).toBe(true);
      const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
      expect(row!.email).toBe(target);
      await deliverMail(t.app);
      await smtp.waitFor(user.email, { subject: /Your Showroom e-mail was changed/ });
      expect(smtp.mailsTo(user.email).filter((m) => /Your Showroom e-mail was changed/.test(m.subject))).toHaveLength(1);
    }
  });

  it(`wrong codes together are all counted: the code is burned after ${VERIFICATION_CODE_MAX_ATTEMPTS}, and the right one is refused after`, async () => {
    for (let round = 0; round < raceRounds(3); round++) {
      const user = await makeUser(t.db);
      const session = await signIn(t.app, user);
      const target = `guessed-${round}-${Date.now()}@example.com`;
      const code = await changeCode(session, target, user.password);
      const answers = await Promise.all(
        Array.from({ length: AT_ONCE }, (_, i) => session.post("/api/user/email-change/confirm", { code: wrong(code, i + 1) })),
      );
      expect(answers.map((a) => a.statusCode).filter((s) => s !== 400)).toEqual([]);
      const messages = answers.map((a) => a.json<{ message: string }>().message);
      // Never more "wrong code" answers than the attempts allowed: each guess counted, none lost to a concurrent one.
      expect(messages.filter((m) => m === INVALID_CODE).length).toBeLessThanOrEqual(VERIFICATION_CODE_MAX_ATTEMPTS);
      expect(messages.filter((m) => m !== INVALID_CODE).every((m) => m === CODE_BURNED)).toBe(true);
      const late = await session.post("/api/user/email-change/confirm", { code });
      expect(late.statusCode).toBe(400);
      const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
      expect(row!.email).toBe(user.email);
    }
  });

  it("two accounts confirming a move to the same address: one gets it, the other is refused, nothing half-done", async () => {
    for (let round = 0; round < raceRounds(3); round++) {
      const [first, second] = [await makeUser(t.db), await makeUser(t.db)];
      const [firstSession, secondSession] = [await signIn(t.app, first), await signIn(t.app, second)];
      const target = `contested-${round}-${Date.now()}@example.com`;
      const firstCode = await changeCode(firstSession, target, first.password);
      const secondCode = await changeCode(secondSession, target, second.password);
      const [a, b] = await Promise.all([
        firstSession.post("/api/user/email-change/confirm", { code: firstCode }),
        secondSession.post("/api/user/email-change/confirm", { code: secondCode }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const owners = await t.db.select({ id: users.id }).from(users).where(eq(users.email, target));
      expect(owners).toHaveLength(1);
      const loser = a.statusCode === 200 ? second : first;
      const [kept] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, loser.id));
      expect(kept!.email).toBe(loser.email);
    }
  });

  it("asking for a proof code: one mail however many requests arrive together", async () => {
    for (let round = 0; round < raceRounds(3); round++) {
      const user = await makeUser(t.db, { emailVerified: false });
      const session = await signIn(t.app, user);
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => session.post("/api/user/email-verification/request")));
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      await deliverMail(t.app);
      await smtp.waitFor(user.email, { subject: /Verify your Showroom e-mail/ });
      expect(smtp.mailsTo(user.email).filter((m) => /Verify your Showroom e-mail/.test(m.subject))).toHaveLength(1);
    }
  });
});
