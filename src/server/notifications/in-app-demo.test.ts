import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp } from "../../../tests/helpers/test-app";
import { DEMO_PASSWORD, seedDemo } from "../db/seed-demo";
import { dealerships } from "../db/schema/dealerships";

// The demo's bells are not empty on first start, and keep to the same rules as live notifications.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.db);
}, 180_000);
afterAll(() => t.close());

async function bellOf(email: string, dealershipName: string) {
  const agent = await signIn(t.app, { email, password: DEMO_PASSWORD });
  const [dealership] = (await t.db.select().from(dealerships)).filter((d) => d.name === dealershipName);
  const list = (await agent.get(`/api/dealerships/${dealership!.id}/notifications`)).json<Array<{ message: string; read: boolean; createdAt: string }>>();
  const { count } = (await agent.get(`/api/dealerships/${dealership!.id}/notifications/count`)).json<{ count: number }>();
  return { list, count };
}

describe("demo notifications", () => {
  it("give every demo role a bell with a few unread and older read ones, newest first", async () => {
    for (const email of ["sales@demo.showroom", "frontdesk@demo.showroom", "manager@demo.showroom"]) {
      const { list, count } = await bellOf(email, "Northside Motors");
      expect(list.length, email).toBeGreaterThan(2);
      expect(count, email).toBeGreaterThan(0);
      expect(list.some((n) => n.read), email).toBe(true);
      expect(list.map((n) => n.createdAt)).toEqual([...list.map((n) => n.createdAt)].sort().reverse());
    }
    const lakeshore = await bellOf("lakeshore.manager@demo.showroom", "Lakeshore Auto Group");
    expect(lakeshore.list.length).toBeGreaterThan(0);
  });

  it("tell a rep only about the pool, never a colleague's client", async () => {
    const { list } = await bellOf("sales@demo.showroom", "Northside Motors");
    expect(list.every((n) => n.message.startsWith("New lead: "))).toBe(true);
    expect(list.map((n) => n.message)).not.toContain("New lead: Chloe Nguyen"); // Riley's client
  });
});
