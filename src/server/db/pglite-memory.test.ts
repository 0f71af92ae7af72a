import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newPglite } from "./client";

// The embedded database's memory settings (decision 061): smaller shared buffers, and nothing that trades away
// committed data.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the embedded database", () => {
  it("starts with 16 MB of shared buffers instead of PostgreSQL's 128 MB", async () => {
    const db = newPglite();
    const { rows } = await db.query<{ shared_buffers: string }>("show shared_buffers");
    await db.close();
    expect(rows[0]?.shared_buffers).toBe("16MB");
  });

  it("still has every committed row after it is closed and opened again", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "showroom-pglite-"));
    dirs.push(dir);
    const first = newPglite(dir);
    await first.exec("create table kept (n int)");
    await first.query("insert into kept select generate_series(1, 5000)");
    await first.close();

    const again = newPglite(dir);
    const { rows } = await again.query<{ n: number }>("select count(*)::int as n from kept");
    await again.close();
    expect(rows[0]?.n).toBe(5000);
  });

  it("lets the event loop turn between queued statements, so waiting connections are accepted and read", async () => {
    const db = newPglite();
    await db.query("select 1");
    let done = 0;
    const queued = Array.from({ length: 40 }, () => db.query("select 1").then(() => done++));
    // An I/O turn (what accepting a connection or reading a request needs) scheduled behind the queue...
    const doneAtTurn = await new Promise<number>((resolve) => setImmediate(() => resolve(done)));
    await Promise.all(queued);
    await db.close();
    // ...comes after a statement or two, not after all 40 ran back to back in one chain of promise continuations.
    expect(doneAtTurn).toBeLessThan(5);
    expect(done).toBe(40);
  });

  it("keeps a transaction's statements together: nothing else runs between them", async () => {
    const db = newPglite();
    await db.exec("create table turns (who text, n int)");
    const tx = db.transaction(async (t) => {
      for (let n = 1; n <= 5; n++) await t.query("insert into turns values ('tx', $1)", [n]);
    });
    const other = db.query("insert into turns values ('other', 0)");
    await Promise.all([tx, other]);
    const { rows } = await db.query<{ who: string }>("select who from turns order by ctid");
    await db.close();
    expect(rows.map((r) => r.who)).toEqual(["tx", "tx", "tx", "tx", "tx", "other"]);
  });
});
