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
});
