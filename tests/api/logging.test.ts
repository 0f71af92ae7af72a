import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { testConfig } from "../../src/server/config";
import { makeUser } from "../../src/server/db/factories";
import { users } from "../../src/server/db/schema/users";
import { createLogger } from "../../src/server/http/logging";
import { createTestDatabase, type TestApp } from "../helpers/test-app";

// What reaches the log (decision 036): secrets are planted where a careless line would print them, and the captured
// output is searched for them.

const lines: string[] = [];
const log = () => lines.join("");
let t: Omit<TestApp, "database">;
let app: FastifyInstance;

/** A value nobody else would write, so finding it in the log can only mean a leak. */
const planted = (what: string) => `${what}-${Math.random().toString(36).slice(2)}-planted`;

beforeAll(async () => {
  const database = await createTestDatabase();
  app = await buildApp({ config: testConfig(), database, logger: createLogger("info", { write: (line: string) => void lines.push(line) }) });
  // Throwaway routes that fail the way real code does: a query whose parameters carry a secret.
  app.post<{ Body: { id: string; email: string; passwordHash: string } }>("/api/test/duplicate-user", async (request) => {
    await app.db.insert(users).values({ id: request.body.id, email: request.body.email, password: request.body.passwordHash });
    return { ok: true };
  });
  app.post<{ Body: { value: string } }>("/api/test/bad-cast", async (request) => {
    await app.db.execute(sql`select ${request.body.value}::integer as n`);
    return { ok: true };
  });
  await app.ready();
  t = { app, db: database.db, close: async () => (await app.close(), await database.drop()) };
});
afterAll(() => t.close());

describe("the log", () => {
  it("keeps a failed query's parameters out of the log, and still says which query failed", async () => {
    const existing = await makeUser(t.db);
    const secretEmail = `${planted("customer")}@example.com`;
    const secretHash = `$argon2id$v=19$m=19456,t=2,p=1$${planted("hash")}`;
    const response = await app.inject({
      method: "POST",
      url: "/api/test/duplicate-user",
      payload: { id: existing.id, email: secretEmail, passwordHash: secretHash },
    });
    expect(response.statusCode).toBe(500);
    const output = log();
    expect(output).toContain("unhandled error");
    expect(output).toContain('insert into \\"users\\"');
    expect(output).toContain('"code":"23505"');
    expect(output).not.toContain(secretEmail);
    expect(output).not.toContain(secretHash);
  });

  it("keeps a value that PostgreSQL quotes in its message out of the log", async () => {
    const secret = planted("phone");
    const response = await app.inject({ method: "POST", url: "/api/test/bad-cast", payload: { value: secret } });
    expect(response.statusCode).toBe(500);
    expect(log()).toContain("invalid input syntax for type integer");
    expect(log()).not.toContain(secret);
  });

  it("keeps a real route's failed insert out of the log: no password hash, e-mail or name", async () => {
    // A constraint planted in the database makes registration fail after the password is hashed.
    const name = planted("name");
    await t.db.execute(sql.raw(`alter table users add constraint planted_check check (first_name <> '${name}')`));
    try {
      const email = `${planted("register")}@example.com`;
      const response = await app.inject({
        method: "POST",
        url: "/api/register",
        payload: {
          firstName: name,
          lastName: "Logged",
          email,
          password: "Correct-Horse-Battery-91",
          confirmPassword: "Correct-Horse-Battery-91",
          dealershipName: "Planted Motors",
        },
      });
      expect(response.statusCode).toBe(500);
      expect(log()).toContain("planted_check");
      expect(log()).not.toContain(name);
      expect(log()).not.toContain(email);
      expect(log()).not.toContain("$argon2");
    } finally {
      await t.db.execute(sql`alter table users drop constraint planted_check`);
    }
  });

  it("redacts secret fields at any depth in any line, whatever logger child writes it", () => {
    const secrets = { password: planted("pw"), hash: planted("hash"), token: planted("token"), code: planted("code"), cookie: planted("cookie") };
    app.log.child({ reqId: "r1" }).info(
      {
        user: { email: "a@example.com", passwordHash: secrets.hash, profile: { twoFactorSecret: secrets.token } },
        headers: { cookie: secrets.cookie, Authorization: `Bearer ${secrets.token}` },
        attempts: [{ code: secrets.code }],
        password: secrets.password,
      },
      "something happened",
    );
    const line = lines.at(-1)!;
    for (const secret of Object.values(secrets)) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ msg: "something happened", user: { email: "a@example.com", passwordHash: "[Redacted]" } });
  });

  it("redacts an error logged on its own or under any key", async () => {
    const secret = planted("param");
    let failure: unknown;
    try {
      await t.db.execute(sql`select ${secret}::integer as n`);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(Error);
    app.log.error(failure as Error);
    app.log.warn({ failure, context: { nested: failure } }, "query failed");
    app.log.error({ err: failure });
    expect(lines.slice(-3).join("")).not.toContain(secret);
    expect(JSON.parse(lines.at(-1)!).msg).toContain("Failed query");
  });
});
