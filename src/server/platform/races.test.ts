import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp } from "../../../tests/helpers/test-app";
import { raceRounds } from "../../../tests/helpers/races";
import { makeUser } from "../db/factories";
import { platformAdmins } from "../db/schema/platform";
import { grantPlatformAdminByEmail } from "./admins";

// The last platform admin stays however the calls interleave (decision 092). On PGlite requests run one after another;
// the PostgreSQL run (TEST_DATABASE_URL) is where two admins really act at the same moment.

const ROUNDS = raceRounds(15);
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function twoAdmins() {
  const a = await makeUser(t.db);
  const b = await makeUser(t.db);
  for (const u of [a, b]) await grantPlatformAdminByEmail(t.db, u.email);
  return { a: { ...a, agent: await signIn(t.app, a) }, b: { ...b, agent: await signIn(t.app, b) } };
}

async function stillAdmin(userId: string): Promise<boolean> {
  const [row] = await t.db.select().from(platformAdmins).where(eq(platformAdmins.userId, userId));
  return Boolean(row?.active);
}

/** Only these two are admins during a round: every other grant is revoked first. */
async function onlyThese(ids: string[]): Promise<void> {
  const rows = await t.db.select().from(platformAdmins);
  for (const row of rows) if (!ids.includes(row.userId)) await t.db.update(platformAdmins).set({ active: false }).where(eq(platformAdmins.userId, row.userId));
}

describe("two platform admins acting on each other at once", () => {
  it("revoking each other leaves exactly one of them an admin", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { a, b } = await twoAdmins();
      await onlyThese([a.id, b.id]);
      const [first, second] = await Promise.all([a.agent.delete(`/api/platform/admins/${b.id}`), b.agent.delete(`/api/platform/admins/${a.id}`)]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 403]);
      expect([await stillAdmin(a.id), await stillAdmin(b.id)].filter(Boolean)).toHaveLength(1);
    }
  });

  it("deleting each other leaves exactly one of them, still an admin", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { a, b } = await twoAdmins();
      await onlyThese([a.id, b.id]);
      const [first, second] = await Promise.all([a.agent.delete(`/api/platform/users/${b.id}`), b.agent.delete(`/api/platform/users/${a.id}`)]);
      // The loser's session went with their account (401) or they were no longer an admin when it ran (403).
      expect([first.statusCode, second.statusCode].filter((s) => s === 200)).toHaveLength(1);
      expect([await stillAdmin(a.id), await stillAdmin(b.id)].filter(Boolean)).toHaveLength(1);
    }
  });
});
