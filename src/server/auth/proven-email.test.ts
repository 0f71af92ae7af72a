import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../../../tests/helpers/smtp-receiver";
import { agent, anonymous, createTestApp, type Agent, type TestApp } from "../../../tests/helpers/test-app";
import { UNPROVEN_EMAIL } from "./proven-email";

// An unverified owner (issue 30, decision 193): a self-registered owner works in their new dealership at once, but
// may not make Showroom send mail or traffic to addresses they choose (invitations, customer e-mail, API tokens,
// webhooks) until they enter the code mailed at registration.

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

const cookieOf = (response: LightMyRequestResponse) => String(response.headers["set-cookie"]).split(";")[0];

async function registerOwner(email: string): Promise<{ session: Agent; dealershipId: string }> {
  const response = await anonymous(t.app).post("/api/register", {
    firstName: "Nadia",
    lastName: "Owner",
    email,
    password: "Plenty-of-cars-77",
    confirmPassword: "Plenty-of-cars-77",
    dealershipName: "Unproven Motors",
  });
  expect(response.statusCode, response.body).toBe(201);
  return { session: agent(t.app, cookieOf(response)), dealershipId: response.json<{ currentDealershipId: string }>().currentDealershipId };
}

describe("an owner whose e-mail is not verified yet", () => {
  it("works in the new dealership but may not invite, e-mail customers, create API tokens or webhooks (403 saying how to verify) until the registration's code is entered", async () => {
    const email = "nadia.owner@example.com";
    const { session, dealershipId } = await registerOwner(email);
    const base = `/api/dealerships/${dealershipId}`;
    const lead = await session.post(`${base}/leads`, { firstName: "Walk", lastName: "In", email: "walk.in@example.com" });
    expect(lead.statusCode, lead.body).toBe(201);
    const leadId = lead.json<{ id: string }>().id;
    const gated = {
      customerMail: () => session.post(`/api/leads/${leadId}/emails`, { subject: "Your visit", body: "Thanks for coming in." }),
      invite: () => session.post(`${base}/invites`, { email: "new.rep@example.com", firstName: "New", lastName: "Rep", role: "sales" }),
      token: () => session.post(`${base}/api-tokens`, { name: "Website", role: "sales" }),
      webhook: () => session.post(`${base}/webhooks`, { url: "https://93.184.215.14/hook", events: ["lead.unattended"] }),
    };
    for (const [what, call] of Object.entries(gated)) {
      const refused = await call();
      expect(refused.statusCode, what).toBe(403);
      expect(refused.json<{ message: string }>().message, what).toBe(UNPROVEN_EMAIL);
    }
    // Even a body that would be refused gets the 403 first: nothing about the body is worth answering yet.
    expect((await session.post(`${base}/invites`, { email: "not an e-mail" })).statusCode).toBe(403);
    expect((await session.get(`${base}/invites`)).json()).toEqual([]);

    // Everything else in its own dealership: leads, settings, vehicles, lead intake.
    expect((await session.post(`${base}/leads`, { firstName: "Phone", lastName: "In", phone: "416-555-0123" })).statusCode).toBe(201);
    expect((await session.put(`${base}/settings`, { address: "1 Main St", phone: "416-555-0100" })).statusCode).toBe(200);
    expect((await session.post(`${base}/intake/credentials`, { name: "Website" })).statusCode).toBe(201);
    expect((await session.post(`${base}/vehicles`, { year: "2024", make: "Honda", model: "Civic", stockNumber: "N100", condition: "new" })).statusCode).toBe(201);

    // The code mailed at registration proves the address; then the same calls work.
    const code = codeIn(await smtp.waitFor(email, { subject: /Verify your Showroom e-mail/ }));
    expect((await session.post("/api/user/email-verification/confirm", { code })).statusCode).toBe(200);
    expect((await gated.customerMail()).statusCode).toBe(201);
    expect((await gated.invite()).statusCode).toBe(201);
    expect((await gated.token()).statusCode).toBe(201);
    expect((await gated.webhook()).statusCode).toBe(201);
  });
});
