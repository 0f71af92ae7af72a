import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/helpers/test-app";
import type { Db } from "../db/client";
import { attemptsSoFar, countAttempt, giveBackAttempts, type CounterRule } from "./attempt-counter";

// The counters behind sign-in throttling and the e-mailed code caps (decisions 007, 008), on the real database.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database.drop());

const rule = (key: string, limit = 3): CounterRule => ({ key, limit, windowMs: 60_000, blockMs: 120_000 });

describe("an attempt counter", () => {
  it("lets exactly the limit through, then blocks for the block time", async () => {
    const r = rule("test:limit");
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await countAttempt(db, [r]));
    expect(answers.map((a) => a.blockedForSeconds === null)).toEqual([true, true, true, false, false]);
    expect(answers[3]!.blockedForSeconds).toBeGreaterThan(60);
    expect(answers[3]!.blockedForSeconds).toBeLessThanOrEqual(120);
    // Refused attempts are not counted, so the block does not slide.
    expect(answers.map((a) => a.counts["test:limit"])).toEqual([1, 2, 3, 4, 4]);
  });

  it("refuses an attempt when any of its keys is blocked, and counts it against none", async () => {
    const blocked = rule("test:blocked", 1);
    const other = rule("test:other", 10);
    await countAttempt(db, [blocked]);
    await countAttempt(db, [blocked]);
    const refused = await countAttempt(db, [blocked, other]);
    expect(refused.blockedForSeconds).not.toBeNull();
    expect(await attemptsSoFar(db, other)).toEqual({ count: 0, blocked: false });
  });

  it("starts afresh once the window has passed or the block has ended", async () => {
    const r = rule("test:fresh", 2);
    await countAttempt(db, [r]);
    await countAttempt(db, [r]);
    await db.execute(sql`update login_attempts set window_start = now() - interval '2 minutes' where key = 'test:fresh'`);
    expect((await countAttempt(db, [r])).counts["test:fresh"]).toBe(1);
    await countAttempt(db, [r]);
    expect((await countAttempt(db, [r])).blockedForSeconds).not.toBeNull();
    await db.execute(sql`update login_attempts set blocked_until = now() - interval '1 second' where key = 'test:fresh'`);
    const after = await countAttempt(db, [r]);
    expect(after.blockedForSeconds).toBeNull();
    expect(after.counts["test:fresh"]).toBe(1);
  });

  it("gives attempts back without going below zero or lifting a block", async () => {
    const r = rule("test:back", 2);
    await countAttempt(db, [r]);
    await giveBackAttempts(db, { "test:back": 5 });
    expect(await attemptsSoFar(db, r)).toEqual({ count: 0, blocked: false });
    for (let i = 0; i < 3; i++) await countAttempt(db, [r]);
    await giveBackAttempts(db, { "test:back": 3 });
    expect((await attemptsSoFar(db, r)).blocked).toBe(true);
    expect((await countAttempt(db, [r])).blockedForSeconds).not.toBeNull();
  });

  it("hands out each count once to a burst of concurrent attempts", async () => {
    const r = rule("test:burst", 7);
    const answers = await Promise.all(Array.from({ length: 40 }, () => countAttempt(db, [r, rule("test:burst-second", 100)])));
    expect(answers.filter((a) => a.blockedForSeconds === null)).toHaveLength(7);
    const counts = answers.filter((a) => a.blockedForSeconds === null).map((a) => a.counts["test:burst"]);
    expect(counts.sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
