import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDealershipWorld, type DealershipWorld } from "../../../tests/helpers/dealership-world";
import { createTestApp, type TestApp } from "../../../tests/helpers/test-app";
import { emailTemplateSchema } from "../../shared/schemas/responses/customer-email";
import { makeLead } from "../db/factories-leads";
import { emailTemplates } from "../db/schema/customer-mail";
import { domainEvents } from "../db/schema/events";
import { vehicleOfInterestIn } from "./templates";

// Management's e-mail templates (issue 26, decision 228): CRUD with one event per change, who may read and change
// them, placeholders checked, and a template filled in for a lead as the composer starts from it.

let t: TestApp;
let ours: string;
let theirs: string;
let people: DealershipWorld["people"];
let as: DealershipWorld["as"];

const TEMPLATE = {
  name: "First contact",
  subject: "{{firstName}}, your {{vehicle}} at {{dealershipName}}",
  body: "Hi {{firstName}},\n\nThanks for your interest in the {{vehicle}}.\n\n{{repName}}\n{{dealershipName}}",
};

beforeAll(async () => {
  t = await createTestApp();
  ({ ours, theirs, people, as } = await makeDealershipWorld(t));
}, 240_000);
afterAll(() => t?.close());

const templateEvents = (id: string) => t.db.select().from(domainEvents).where(and(sql`${domainEvents.type} like 'email_template.%'`, sql`${domainEvents.payload}->'template'->>'id' = ${id}`));

describe("e-mail templates", () => {
  it("are kept by management, one event per change, and read by every member", async () => {
    const created = await as.management.post(`/api/dealerships/${ours}/email-templates`, TEMPLATE);
    expect(created.statusCode, created.body).toBe(201);
    const template = emailTemplateSchema.parse(created.json());
    for (const who of ["sales", "frontDesk", "management"] as const) {
      const list = await as[who].get(`/api/dealerships/${ours}/email-templates`);
      expect(list.statusCode).toBe(200);
      expect(list.json().map((x: { id: string }) => x.id)).toContain(template.id);
    }
    const changed = await as.management.put(`/api/dealerships/${ours}/email-templates/${template.id}`, { ...TEMPLATE, name: "First contact (web)" });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ id: template.id, name: "First contact (web)" });
    expect((await as.management.delete(`/api/dealerships/${ours}/email-templates/${template.id}`)).json()).toEqual({ id: template.id });
    expect((await as.management.delete(`/api/dealerships/${ours}/email-templates/${template.id}`)).statusCode).toBe(404);
    expect((await templateEvents(template.id)).map((e) => e.type).sort()).toEqual(["email_template.created", "email_template.deleted", "email_template.updated"]);
  });

  it("are changed by management only, and another dealership's are out of reach", async () => {
    const template = (await as.management.post(`/api/dealerships/${ours}/email-templates`, TEMPLATE)).json();
    for (const who of ["sales", "frontDesk"] as const) {
      expect((await as[who].post(`/api/dealerships/${ours}/email-templates`, TEMPLATE)).statusCode).toBe(403);
      expect((await as[who].put(`/api/dealerships/${ours}/email-templates/${template.id}`, TEMPLATE)).statusCode).toBe(403);
      expect((await as[who].delete(`/api/dealerships/${ours}/email-templates/${template.id}`)).statusCode).toBe(403);
    }
    expect((await as.outsider.get(`/api/dealerships/${ours}/email-templates`)).statusCode).toBe(403);
    expect((await as.outsider.put(`/api/dealerships/${theirs}/email-templates/${template.id}`, TEMPLATE)).statusCode).toBe(404);
    expect((await as.outsider.delete(`/api/dealerships/${theirs}/email-templates/${template.id}`)).statusCode).toBe(404);
    const lead = await makeLead(t.db, { dealershipId: theirs });
    expect((await as.outsider.get(`/api/leads/${lead.id}/email-draft?templateId=${template.id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `/api/dealerships/${ours}/email-templates` })).statusCode).toBe(401);
    const [row] = await t.db.select().from(emailTemplates).where(eq(emailTemplates.id, template.id));
    expect(row!.name).toBe("First contact");
  });

  it("answer 400 naming the field for unknown placeholders and hostile input, and save nothing", async () => {
    const before = (await as.management.get(`/api/dealerships/${ours}/email-templates`)).json().length;
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ ...TEMPLATE, body: "Hi {{firstname}}" }, "body"],
      [{ ...TEMPLATE, subject: "For {{customer}}" }, "subject"],
      [{ ...TEMPLATE, subject: "Hi\r\nBcc: all@example.com" }, "subject"],
      [{ ...TEMPLATE, name: "x".repeat(101) }, "name"],
      [{ ...TEMPLATE, name: "" }, "name"],
      [{ ...TEMPLATE, body: "a\u0000b" }, "body"],
      [{ ...TEMPLATE, body: "x".repeat(20_001) }, "body"],
    ];
    for (const [payload, field] of refusals) {
      const response = await as.management.post(`/api/dealerships/${ours}/email-templates`, payload);
      expect(response.statusCode, field).toBe(400);
      expect(Object.keys(response.json().fields ?? {})).toContain(field);
    }
    expect((await as.management.get(`/api/dealerships/${ours}/email-templates`)).json()).toHaveLength(before);
  });

  it("are filled in for a lead: the customer's first name, the rep, the dealership and the vehicle of interest", async () => {
    const template = (await as.management.post(`/api/dealerships/${ours}/email-templates`, TEMPLATE)).json();
    const lead = await makeLead(t.db, {
      dealershipId: ours,
      firstName: "Maximiliano",
      claimedBy: people.sales.id,
      description: "Wants it soon.\nVehicle of interest: new 2026 Toyota RAV4 (quote price CAD 38,995)\nTrade-in: used 2016 Mazda 3",
    });
    const draft = await as.management.get(`/api/leads/${lead.id}/email-draft?templateId=${template.id}`);
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toEqual({
      subject: "Maximiliano, your new 2026 Toyota RAV4 at Northside Motors",
      body: "Hi Maximiliano,\n\nThanks for your interest in the new 2026 Toyota RAV4.\n\nSam Sales\nNorthside Motors",
    });
    // A lead nobody has claimed: whoever writes signs it.
    const pooled = await makeLead(t.db, { dealershipId: ours, firstName: "Zoë", description: null });
    const mine = (await as.sales2.get(`/api/leads/${pooled.id}/email-draft?templateId=${template.id}`)).json();
    expect(mine.body).toBe("Hi Zoë,\n\nThanks for your interest in the .\n\nRiley Chen\nNorthside Motors");
    expect((await as.sales2.get(`/api/leads/${lead.id}/email-draft?templateId=${template.id}`)).statusCode).toBe(404);
    expect((await as.sales.get(`/api/leads/${lead.id}/email-draft?templateId=nope`)).statusCode).toBe(404);
    expect((await as.sales.get(`/api/leads/${lead.id}/email-draft`)).statusCode).toBe(400);
  });

  it("read the vehicle of interest from the ADF line of the description", () => {
    expect(vehicleOfInterestIn("Vehicle of interest: used 2021 Honda Civic EX (VIN 2HGFC2F59MH512345, stock U1234)")).toBe("used 2021 Honda Civic EX");
    expect(vehicleOfInterestIn("Trade-in: used 2016 Mazda 3")).toBeNull();
    expect(vehicleOfInterestIn(null)).toBeNull();
  });
});
