import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { agent, anonymous, createTestApp, signIn, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { makeDealership, makeUser } from "../db/factories";
import { dealershipInvites, dealershipUsers } from "../db/schema/dealerships";
import { emailsLog } from "../db/schema/notifications";
import { users } from "../db/schema/users";

// Invitations and joining by invitation (spec part 1 §1, §4; part 2 §2 Users, §4, §5), with mail going through a
// real SMTP server on 127.0.0.1.

let t: TestApp;
let smtp: SmtpReceiver;
let northside: { id: string; name: string };
let lakeshore: { id: string; name: string };
let manager: Agent;
let lakeshoreManager: Agent;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url, appUrl: "https://showroom.example" });
  northside = await makeDealership(t.db, { name: "Northside Motors" });
  lakeshore = await makeDealership(t.db, { name: "Lakeshore Auto" });
  manager = await signIn(
    t.app,
    await makeUser(t.db, { firstName: "Morgan", lastName: "Manager", memberships: [{ dealershipId: northside.id, role: "management" }] }),
  );
  lakeshoreManager = await signIn(t.app, await makeUser(t.db, { memberships: [{ dealershipId: lakeshore.id, role: "management" }] }));
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const invite = (email: string, role = "sales") => ({ email, firstName: "Ivy", lastName: "Invitee", role });

function cookieOf(response: { headers: Record<string, unknown> }): string {
  const raw = response.headers["set-cookie"];
  const first = Array.isArray(raw) ? raw[0] : (raw as string);
  return first.split(";")[0]!;
}

describe("the invitation journey", () => {
  it("takes an invitee from the manager's invitation to signed in at the dealership with the invited role", async () => {
    const sent = await manager.post(`/api/dealerships/${northside.id}/invites`, invite("ivy@example.com", "frontDesk"));
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ email: "ivy@example.com", role: "frontDesk", status: "pending", firstName: "Ivy" });

    // The invitation e-mail arrives, HTML and text, with a link to /auth carrying the e-mail.
    const invitation = await smtp.waitFor("ivy@example.com", { subject: /invited to join Northside Motors/ });
    expect(invitation.text).toContain("Morgan Manager has invited you to join Northside Motors on Showroom as Front Desk");
    expect(invitation.text).toContain("https://showroom.example/auth?action=register&email=ivy%40example.com");
    expect(invitation.html).toContain('href="https://showroom.example/auth?action=register&amp;email=ivy%40example.com"');

    // The sign-up screen checks the invitation.
    const lookup = await anonymous(t.app).get("/api/invites/email/ivy%40example.com");
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ dealershipName: "Northside Motors", role: "frontDesk" });

    // A code is requested and read from the verification e-mail.
    const before = smtp.mailsTo("ivy@example.com").length;
    const request = await anonymous(t.app).post("/api/auth/email-verification/request", { email: "Ivy@Example.com" });
    expect(request.statusCode).toBe(200);
    const verification = await smtp.waitFor("ivy@example.com", { subject: /verification code/, since: before });
    const code = codeIn(verification);
    expect(code).toMatch(/^\d{6}$/);

    const verify = await anonymous(t.app).post("/api/auth/email-verification/verify", {
      email: "ivy@example.com",
      code,
      firstName: "Ivy",
      lastName: "Invitee",
      password: "secret123",
      confirmPassword: "secret123",
    });
    expect(verify.statusCode).toBe(201);
    expect(verify.json()).toMatchObject({ email: "ivy@example.com", firstName: "Ivy", currentDealershipId: northside.id });
    expect(verify.json()).not.toHaveProperty("password");

    // Signed in, in the dealership, with the invited role.
    const ivy = agent(t.app, cookieOf(verify));
    expect((await ivy.get("/api/dealerships")).json()).toEqual([expect.objectContaining({ id: northside.id, role: "frontDesk" })]);
    const [row] = await t.db.select().from(dealershipInvites).where(eq(dealershipInvites.email, "ivy@example.com"));
    expect(row?.status).toBe("accepted");
    // The invitation is no longer open: not in the list, and the check refuses it.
    expect((await manager.get(`/api/dealerships/${northside.id}/invites`)).json()).toEqual([]);
    expect((await anonymous(t.app).get("/api/invites/email/ivy@example.com")).statusCode).toBe(404);
    // The manager sees the new member.
    const members = (await manager.get(`/api/dealerships/${northside.id}/users`)).json();
    expect(members).toContainEqual(
      expect.objectContaining({ role: "frontDesk", active: true, user: expect.objectContaining({ email: "ivy@example.com", firstName: "Ivy" }) }),
    );
    // Every mail is recorded as sent.
    const log = await t.db.select().from(emailsLog).where(eq(emailsLog.to, "ivy@example.com"));
    expect(log.map((l) => [l.emailType, l.status]).sort()).toEqual([
      ["email_verification", "sent"],
      ["invitation", "sent"],
    ]);
  });

  it("lets an invitee register through /api/register with the code, without a dealership name", async () => {
    await manager.post(`/api/dealerships/${northside.id}/invites`, invite("reg@example.com", "sales"));
    const before = smtp.mailsTo("reg@example.com").length;
    await anonymous(t.app).post("/api/auth/email-verification/request", { email: "reg@example.com" });
    const code = codeIn(await smtp.waitFor("reg@example.com", { subject: /verification code/, since: before }));
    const form = { firstName: "Reg", lastName: "Ister", email: "reg@example.com", password: "secret123", confirmPassword: "secret123" };

    const withoutCode = await anonymous(t.app).post("/api/register", form);
    expect(withoutCode.statusCode).toBe(400);
    expect(withoutCode.json().fields.code).toMatch(/code/);

    const response = await anonymous(t.app).post("/api/register", { ...form, code });
    expect(response.statusCode).toBe(201);
    const list = (await agent(t.app, cookieOf(response)).get("/api/dealerships")).json();
    expect(list).toEqual([expect.objectContaining({ id: northside.id, role: "sales" })]);
  });

  it("still lets an uninvited person register with a dealership of their own", async () => {
    const response = await anonymous(t.app).post("/api/register", {
      firstName: "Own",
      lastName: "Shop",
      email: "own@example.com",
      password: "secret123",
      confirmPassword: "secret123",
      dealershipName: "Own Cars",
    });
    expect(response.statusCode).toBe(201);
    const list = (await agent(t.app, cookieOf(response)).get("/api/dealerships")).json();
    expect(list).toEqual([expect.objectContaining({ name: "Own Cars", role: "management" })]);
  });
});

describe("an existing user invited to another dealership", () => {
  it("joins with the e-mailed code and their current password, and then sees both dealerships", async () => {
    const casey = await makeUser(t.db, { email: "casey@example.com", memberships: [{ dealershipId: lakeshore.id, role: "sales" }] });
    const sent = await manager.post(`/api/dealerships/${northside.id}/invites`, invite("casey@example.com", "management"));
    expect(sent.statusCode).toBe(201);
    const mail = await smtp.waitFor("casey@example.com");
    expect(mail.text).toContain("https://showroom.example/auth?action=register&email=casey%40example.com");
    expect(mail.text).toContain("You already have a Showroom account with casey@example.com");

    // Signing in alone does not join: the account is not proof of the inbox (decision 033).
    const session = await signIn(t.app, casey);
    expect((await session.get("/api/dealerships")).json().map((d: { id: string }) => d.id)).toEqual([lakeshore.id]);

    const before = smtp.mailsTo("casey@example.com").length;
    expect((await anonymous(t.app).post("/api/auth/email-verification/request", { email: "casey@example.com" })).statusCode).toBe(200);
    const code = codeIn(await smtp.waitFor("casey@example.com", { subject: /verification code/, since: before }));
    const form = { email: "casey@example.com", code, firstName: "Other", lastName: "Name", password: "wrong-password", confirmPassword: "wrong-password" };

    // The inbox alone is not enough either: the account's password is required.
    const wrong = await anonymous(t.app).post("/api/auth/email-verification/verify", form);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields.password).toMatch(/current password/);
    expect((await session.get("/api/dealerships")).json()).toHaveLength(1);

    const right = await anonymous(t.app).post("/api/auth/email-verification/verify", { ...form, password: casey.password, confirmPassword: casey.password });
    expect(right.statusCode).toBe(201);
    // Same account, names untouched, now working in the dealership they joined.
    expect(right.json()).toMatchObject({ id: casey.id, firstName: casey.firstName, currentDealershipId: northside.id });
    const list = (await agent(t.app, cookieOf(right)).get("/api/dealerships")).json();
    expect(list.map((d: { id: string; role: string }) => [d.id, d.role]).sort()).toEqual(
      [
        [lakeshore.id, "sales"],
        [northside.id, "management"],
      ].sort(),
    );
    // Their earlier session sees the new dealership too: membership is read per request.
    expect((await session.get(`/api/dealerships/${northside.id}/invites`)).statusCode).toBe(200);
    expect(await t.db.select().from(users).where(eq(users.email, "casey@example.com"))).toHaveLength(1);
  });

  it("with two-factor on, joins but gets no session until the authenticator code is given at sign-in", async () => {
    const robin = await makeUser(t.db, { email: "robin@example.com", memberships: [{ dealershipId: lakeshore.id, role: "sales" }] });
    await t.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, robin.id));
    expect((await manager.post(`/api/dealerships/${northside.id}/invites`, invite("robin@example.com"))).statusCode).toBe(201);
    await smtp.waitFor("robin@example.com");
    const before = smtp.mailsTo("robin@example.com").length;
    await anonymous(t.app).post("/api/auth/email-verification/request", { email: "robin@example.com" });
    const code = codeIn(await smtp.waitFor("robin@example.com", { subject: /verification code/, since: before }));
    const joined = await anonymous(t.app).post("/api/auth/email-verification/verify", {
      email: "robin@example.com",
      code,
      firstName: "Robin",
      lastName: "Two",
      password: robin.password,
      confirmPassword: robin.password,
    });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({ requiresTwoFactor: true });
    expect(joined.headers["set-cookie"]).toBeUndefined();
    const [member] = await t.db
      .select()
      .from(dealershipUsers)
      .where(and(eq(dealershipUsers.userId, robin.id), eq(dealershipUsers.dealershipId, northside.id)));
    expect(member?.active).toBe(true);
  });

  it("is not joined by someone who merely registered the invited e-mail first and signs in", async () => {
    // An account made through plain registration proves nothing about the inbox.
    const squatter = await makeUser(t.db, { email: "target@example.com", memberships: [{ dealershipId: lakeshore.id, role: "management" }] });
    await manager.post(`/api/dealerships/${northside.id}/invites`, invite("target@example.com", "management"));
    const session = await signIn(t.app, squatter);
    expect((await session.get(`/api/dealerships/${northside.id}/users`)).statusCode).toBe(403);
    const [row] = await t.db.select().from(dealershipInvites).where(eq(dealershipInvites.email, "target@example.com"));
    expect(row?.status).toBe("pending");
  });
});

describe("managing invitations", () => {
  it("refuses a second invitation while one is pending, and inviting a current member", async () => {
    await manager.post(`/api/dealerships/${northside.id}/invites`, invite("twice@example.com"));
    const again = await manager.post(`/api/dealerships/${northside.id}/invites`, invite("twice@example.com"));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already pending/);
    const member = await makeUser(t.db, { memberships: [{ dealershipId: northside.id, role: "sales" }] });
    const existing = await manager.post(`/api/dealerships/${northside.id}/invites`, invite(member.email));
    expect(existing.statusCode).toBe(409);
    expect(existing.json().message).toMatch(/already a member/);
    const rows = await t.db.select().from(dealershipInvites).where(eq(dealershipInvites.email, "twice@example.com"));
    expect(rows).toHaveLength(1);
  });

  it("requires e-mail, first name, last name and role", async () => {
    const response = await manager.post(`/api/dealerships/${northside.id}/invites`, { email: "", firstName: "", lastName: "", role: "" });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields).sort()).toEqual(["email", "firstName", "lastName", "role"]);
    const bad = await manager.post(`/api/dealerships/${northside.id}/invites`, { ...invite("x@example.com"), role: "owner" });
    expect(bad.statusCode).toBe(400);
  });

  it("treats an expired invitation as unknown, lists it as expired, and renews it on resend", async () => {
    const created = (await manager.post(`/api/dealerships/${northside.id}/invites`, invite("late@example.com"))).json();
    await t.db.update(dealershipInvites).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(dealershipInvites.id, created.id));

    const lookup = await anonymous(t.app).get("/api/invites/email/late@example.com");
    const unknown = await anonymous(t.app).get("/api/invites/email/nobody@example.com");
    expect(lookup.statusCode).toBe(404);
    expect(lookup.json()).toEqual(unknown.json());
    // No code is sent for an expired invitation, and the answer is the same as for anyone.
    const before = smtp.mailsTo("late@example.com").length;
    const request = await anonymous(t.app).post("/api/auth/email-verification/request", { email: "late@example.com" });
    const requestUnknown = await anonymous(t.app).post("/api/auth/email-verification/request", { email: "nobody@example.com" });
    expect(request.statusCode).toBe(200);
    expect(request.json()).toEqual(requestUnknown.json());
    const listed = (await manager.get(`/api/dealerships/${northside.id}/invites`)).json();
    expect(listed.find((i: { id: string }) => i.id === created.id).status).toBe("expired");

    const resent = await manager.post(`/api/dealerships/${northside.id}/invites/${created.id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().status).toBe("pending");
    expect(new Date(resent.json().expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    await smtp.waitFor("late@example.com", { since: before });
    expect(smtp.mailsTo("late@example.com").length).toBe(before + 1);
    expect((await anonymous(t.app).get("/api/invites/email/late@example.com")).statusCode).toBe(200);
  });

  it("answers an odd or malformed e-mail in the invitation check with the same 404", async () => {
    for (const path of ["a%25zz%40example.com", "%20", "not-an-email", "x".repeat(90)]) {
      const response = await anonymous(t.app).get(`/api/invites/email/${path}`);
      expect(response.statusCode, path).toBe(404);
    }
  });

  it("deletes an invitation, after which the e-mail has none", async () => {
    const created = (await manager.post(`/api/dealerships/${northside.id}/invites`, invite("gone@example.com"))).json();
    const response = await manager.delete(`/api/dealerships/${northside.id}/invites/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect((await anonymous(t.app).get("/api/invites/email/gone@example.com")).statusCode).toBe(404);
    expect((await manager.delete(`/api/dealerships/${northside.id}/invites/${created.id}`)).statusCode).toBe(404);
  });

  it("does not let another dealership's manager see, resend or delete the invitation", async () => {
    const created = (await manager.post(`/api/dealerships/${northside.id}/invites`, invite("private@example.com"))).json();
    expect((await lakeshoreManager.get(`/api/dealerships/${northside.id}/invites`)).statusCode).toBe(403);
    // Through their own dealership's path, the invitation does not exist.
    expect((await lakeshoreManager.post(`/api/dealerships/${lakeshore.id}/invites/${created.id}/resend`)).statusCode).toBe(404);
    expect((await lakeshoreManager.delete(`/api/dealerships/${lakeshore.id}/invites/${created.id}`)).statusCode).toBe(404);
    const [row] = await t.db.select().from(dealershipInvites).where(eq(dealershipInvites.id, created.id));
    expect(row?.status).toBe("pending");
  });

  it("refuses to resend an accepted invitation", async () => {
    const [accepted] = await t.db.select().from(dealershipInvites).where(eq(dealershipInvites.email, "ivy@example.com"));
    const response = await manager.post(`/api/dealerships/${northside.id}/invites/${accepted!.id}/resend`);
    expect(response.statusCode).toBe(409);
  });
});
