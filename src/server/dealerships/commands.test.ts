import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publishedTypes } from "../../../tests/helpers/published";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { viewerOf, type Viewer } from "../auth/tenancy";
import type { Database } from "../db/client";
import { makeDealership, makeUser } from "../db/factories";
import { dealerships } from "../db/schema/dealerships";
import { domainEvents } from "../db/schema/events";
import { changeDealershipSettings, dismissFirstRunChecklist } from "./commands";

// The dealership's commands without HTTP (issue 25): each change publishes exactly one event in its transaction; a
// save of the settings as they are (after the first), a second dismissal and a refused change publish none.

let database: Database & { drop(): Promise<void> };
let manager: Viewer;

const eventTypes = () => publishedTypes(database.db, "dealership.");

async function aManager(name: string): Promise<Viewer> {
  const dealershipId = (await makeDealership(database.db, { name })).id;
  const boss = await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] });
  return viewerOf(boss.id, dealershipId, "management");
}

beforeAll(async () => {
  database = await createTestDatabase();
  manager = await aManager("Settings Motors");
});
afterAll(() => database.drop());
beforeEach(() => database.db.delete(domainEvents));

describe("the dealership's commands", () => {
  it("the first save publishes even unchanged, a later one only when something changes", async () => {
    const settings = await changeDealershipSettings(database.db, manager, { name: "Settings Motors" });
    expect(settings).toMatchObject({ name: "Settings Motors", savedAt: expect.any(String) });
    await changeDealershipSettings(database.db, manager, { name: "Settings Motors" });
    expect(await eventTypes()).toEqual(["dealership.settings_changed"]);
    expect(await changeDealershipSettings(database.db, manager, { address: "1 Main Street" })).toMatchObject({ address: "1 Main Street" });
    await changeDealershipSettings(database.db, manager, { address: "1 Main Street" });
    expect(await eventTypes()).toEqual(["dealership.settings_changed", "dealership.settings_changed"]);
    const [, changed] = await database.db.select().from(domainEvents).orderBy(asc(domainEvents.id));
    expect(changed!.payload).toMatchObject({ changes: { address: { after: "1 Main Street" } } });
    expect(Object.keys((changed!.payload as { changes: object }).changes)).toEqual(["address"]);
  });

  it("the checklist's dismissal publishes once, however often it is dismissed", async () => {
    const first = await dismissFirstRunChecklist(database.db, manager);
    expect(first).toMatchObject({ show: false, dismissedAt: expect.any(String) });
    expect(await dismissFirstRunChecklist(database.db, manager)).toEqual(first);
    expect(await eventTypes()).toEqual(["dealership.first_run_dismissed"]);
  });

  it("a dealership out of service: its settings' save is a 403 and nothing is published", async () => {
    const closing = await aManager("Closing Motors");
    await database.db.update(dealerships).set({ active: false }).where(eq(dealerships.id, closing.dealershipId));
    await expect(changeDealershipSettings(database.db, closing, { name: "Closed Motors" })).rejects.toMatchObject({ statusCode: 403 });
    expect((await dismissFirstRunChecklist(database.db, closing)).dismissedAt).toBeNull();
    expect(await eventTypes()).toEqual([]);
    const [row] = await database.db.select().from(dealerships).where(eq(dealerships.id, closing.dealershipId));
    expect(row).toMatchObject({ name: "Closing Motors", settingsSavedAt: null, firstRunDismissedAt: null });
  });
});
