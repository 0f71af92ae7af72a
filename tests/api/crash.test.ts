import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { newPglite, openPglite } from "../../src/server/db/client";
import { makeDealership, makeUser } from "../../src/server/db/factories";

// Crash safety of the embedded database (issue 31): the process is killed with SIGKILL in the middle of a burst of
// writes, started again on the same DATA_DIR, and every write it had answered 2xx is there.

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", SEED_DEMO: "0", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (await fetch(`${base}/api/ready`).then((r) => r.ok, () => false)) return { child, base };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not start:\n${output}`);
}

describe.skipIf(process.env.TEST_DATABASE_URL)("the embedded database after kill -9", () => {
  it("opens again with every write that was answered 2xx before the kill", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "showroom-crash-"));
    dirs.push(dataDir);
    // A migrated database with a dealership and its manager, as a running installation has.
    const client = newPglite(path.join(dataDir, "pglite"), { loadDataDir: new Blob([readFileSync(inject("pgliteTemplate"))]) });
    const setup = openPglite({ client });
    const dealership = await makeDealership(setup.db);
    const manager = await makeUser(setup.db, { memberships: [{ dealershipId: dealership.id, role: "management" }] });
    await setup.close();

    const first = await startServer(dataDir);
    const login = await fetch(`${first.base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: manager.email, password: manager.password }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;

    // Eight writers at once; each id answered 201 is a promise the database must keep.
    const answered: string[] = [];
    let killed = false;
    const writer = async (n: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const response = await fetch(`${first.base}/api/dealerships/${dealership.id}/leads`, {
            method: "POST",
            headers: { "content-type": "application/json", cookie },
            body: JSON.stringify({ firstName: "Crash", lastName: `Writer ${n}-${i}` }),
          });
          if (response.status === 201) answered.push((await response.json() as { id: string }).id);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, n) => writer(n));
    while (answered.length < 150) await new Promise((r) => setTimeout(r, 5));
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    killed = true;
    await exited;
    await Promise.all(writers);
    const promised = [...answered];

    // The same DATA_DIR (its control socket left behind by the killed process): it opens, recovers, and has them all.
    const second = await startServer(dataDir);
    try {
      const again = await fetch(`${second.base}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: manager.email, password: manager.password }),
      });
      const cookieAgain = (again.headers.get("set-cookie") ?? "").split(";")[0]!;
      const missing: string[] = [];
      for (const id of promised) {
        const response = await fetch(`${second.base}/api/leads/${id}`, { headers: { cookie: cookieAgain } });
        if (response.status !== 200) missing.push(`${id}: ${response.status}`);
      }
      expect(missing).toEqual([]);
      expect(promised.length).toBeGreaterThanOrEqual(150);
    } finally {
      const stopped = new Promise((resolve) => second.child.once("exit", resolve));
      second.child.kill("SIGTERM");
      await stopped;
    }
  }, 240_000);
});
