import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import { makeDealership } from "../db/factories";
import { dealerships } from "../db/schema/dealerships";
import { actorIdOf, actorLabel, systemViewer, viewerOf, writeInDealership } from "./tenancy";

// A job's viewer (decision 249): named, with no user; its writes hold the dealership only while it is in service.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe("systemViewer", () => {
  it("writes in an active dealership without an account, and is refused (403) once the dealership is deleted", async () => {
    const dealership = await makeDealership(database.db);
    const job = systemViewer(dealership.id, "follow-ups");
    expect(await writeInDealership(database.db, job, async () => "written")).toBe("written");
    await database.db.update(dealerships).set({ active: false }).where(eq(dealerships.id, dealership.id));
    await expect(writeInDealership(database.db, job, async () => "written")).rejects.toMatchObject({ statusCode: 403 });
  });

  it("names its job as the actor of a log line; its events' actor is null, a person's is their id", () => {
    const job = systemViewer("d1", "webhook-delivery");
    expect(actorIdOf(job)).toBeNull();
    expect(actorLabel(job)).toBe("system:webhook-delivery");
    const person = viewerOf("u1", "d1", "sales");
    expect(actorIdOf(person)).toBe("u1");
    expect(actorLabel(person)).toBe("u1");
  });
});
