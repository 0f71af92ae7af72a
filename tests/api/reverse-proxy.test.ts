import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPostgres } from "../../src/server/db/client";
import { makeDealership, makeUser } from "../../src/server/db/factories";
import { openSocket } from "../helpers/ws-client";

// deploy/nginx/showroom.conf as a system administrator installs it (issue 31): nginx with a self-signed certificate
// in front of two app processes on one PostgreSQL database, checked through https. Needs TEST_DATABASE_URL (the
// PostgreSQL run) and Debian's nginx (/usr/sbin/nginx; .ci/run installs it).

const serverUrl = process.env.TEST_DATABASE_URL;
const NGINX = "/usr/sbin/nginx";
const hasNginx = existsSync(NGINX) && spawnSync("openssl", ["version"]).status === 0;
const BUILT = path.resolve("dist/client/index.html");
const METRICS_TOKEN = "reverse-proxy-test-metrics-token";
const CLIENT = "127.0.0.5";

if (!serverUrl || !hasNginx) {
  describe("behind nginx, two app processes", () => {
    it.skip(`skipped: needs ${serverUrl ? "" : "a PostgreSQL server (TEST_DATABASE_URL) "}${hasNginx ? "" : "nginx (/usr/sbin/nginx: apt-get install nginx) and openssl"}`, () => undefined);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Whether nothing listens on the port now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/** A free port whose next one is free too: nginx listens on both (https, and http on the next). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65535 && (await isFree(port + 1))) return port;
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe.runIf(serverUrl && hasNginx)("behind nginx, two app processes", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "showroom-proxy-"));
  chmodSync(dir, 0o755); // nginx's workers read and write here when it runs as root
  const apps = new Map<number, ChildProcess>();
  let nginx: ChildProcess;
  let base: string;
  let httpsPort: number;
  let ports: [number, number];
  let databaseName: string;
  let cert: Buffer;
  let agent: https.Agent;
  let dealershipId: string;
  let manager: { email: string; password: string };
  let cookie: string;

  /** One request through nginx over TLS (the certificate trusted), optionally from another loopback address. */
  function request(method: string, url: string, options: { body?: unknown; headers?: Record<string, string>; localAddress?: string } = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const req = https.request(
        {
          host: "127.0.0.1",
          servername: "localhost",
          port: httpsPort,
          path: url,
          method,
          agent: options.localAddress ? new https.Agent({ ca: cert, localAddress: options.localAddress }) : agent,
          ca: cert,
          headers: { host: `localhost:${httpsPort}`, ...(payload ? { "content-type": "application/json" } : {}), ...options.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  async function startApp(port: number): Promise<void> {
    const url = new URL(serverUrl!);
    url.pathname = `/${databaseName}`;
    let output = "";
    const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: url.toString(),
        DATA_DIR: path.join(dir, "data"),
        APP_URL: `https://localhost:${httpsPort}`,
        TRUST_PROXY: "1",
        SEED_DEMO: "0",
        METRICS_TOKEN,
        LOG_LEVEL: "warn",
        APP_SECRET: "a".repeat(40),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    apps.set(port, child);
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`app on ${port} exited:\n${output}`);
      if (await fetch(`http://127.0.0.1:${port}/api/ready`).then((r) => r.ok, () => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`app on ${port} not ready:\n${output}`);
  }

  async function stopApp(port: number): Promise<number | null> {
    const child = apps.get(port)!;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    return exited;
  }

  /** The site file with this test's ports, certificate and paths, inside a minimal nginx.conf of its own. */
  function nginxConfig(): string {
    const site = readFileSync("deploy/nginx/showroom.conf", "utf8")
      .replace(/^\s*#.*$/gm, "")
      .replace(/^\s*listen \[::\].*$/gm, "")
      .replace(/listen 80;/, `listen 127.0.0.1:${httpsPort + 1};`)
      .replace(/listen 443 ssl/, `listen 127.0.0.1:${httpsPort} ssl`)
      .replace(/server 127\.0\.0\.1:5001/, `server 127.0.0.1:${ports[0]}`)
      .replace(/server 127\.0\.0\.1:5002/, `server 127.0.0.1:${ports[1]}`)
      .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${dir}/cert.pem;`)
      .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${dir}/key.pem;`);
    expect(site).not.toMatch(/5001|5002|letsencrypt|:443|listen 80/);
    return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`;
  }

  beforeAll(async () => {
    httpsPort = await freePortPair();
    ports = [await freePort(), await freePort()];
    const made = spawnSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`,
    ]);
    if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
    cert = readFileSync(`${dir}/cert.pem`);
    // The test's client comes from 127.0.0.5 (nginx reaches the apps from 127.0.0.1): the apps must see 127.0.0.5.
    agent = new https.Agent({ ca: cert, keepAlive: true, maxSockets: 8, localAddress: CLIENT });

    // One database (a copy of the migrated template) with a dealership and its manager.
    databaseName = `showroom_proxy_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.query(`create database ${databaseName} template ${inject("postgresTemplate")}`);
    await admin.end();
    const url = new URL(serverUrl!);
    url.pathname = `/${databaseName}`;
    const database = openPostgres(url.toString(), 2);
    const dealership = await makeDealership(database.db);
    dealershipId = dealership.id;
    manager = await makeUser(database.db, { memberships: [{ dealershipId, role: "management" }] });
    await database.close();

    await Promise.all(ports.map((port) => startApp(port)));
    // The free ports were free when asked; another test's process may take one before nginx binds it (CI,
    // 2026-11-28): then nginx starts again on others, and the apps with them (their APP_URL names nginx's port).
    for (let attempt = 1; ; attempt++) {
      writeFileSync(`${dir}/nginx.conf`, nginxConfig());
      let log = "";
      nginx = spawn(NGINX, ["-c", `${dir}/nginx.conf`, "-p", dir, "-e", `${dir}/error.log`], { stdio: ["ignore", "pipe", "pipe"] });
      nginx.stderr?.on("data", (d) => (log += d));
      const deadline = Date.now() + 10_000;
      let taken = false;
      for (;;) {
        if (nginx.exitCode !== null) {
          taken = /Address already in use/.test(log) && attempt < 5;
          if (taken) break;
          throw new Error(`nginx exited: ${log}${existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, "utf8") : ""}`);
        }
        if (await request("GET", "/api/ready").then((r) => r.status === 200, () => false)) break;
        if (Date.now() > deadline) throw new Error(`nginx did not answer: ${log}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      if (!taken) break;
      httpsPort = await freePortPair();
      await Promise.all(ports.map((port) => stopApp(port)));
      await Promise.all(ports.map((port) => startApp(port)));
    }
    base = `https://localhost:${httpsPort}`;
  }, 120_000);

  afterAll(async () => {
    agent?.destroy();
    nginx?.kill("SIGQUIT");
    await Promise.all([...apps.keys()].map((port) => (apps.get(port)!.exitCode === null ? stopApp(port) : null)));
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it("signs in over https with a Secure session cookie, and sends HSTS", async () => {
    const login = await request("POST", "/api/login", { body: { email: manager.email, password: manager.password } });
    expect(login.status, login.body.toString()).toBe(200);
    const setCookie = String(login.headers["set-cookie"]);
    expect(setCookie).toMatch(/; Secure/i);
    expect(setCookie).toMatch(/; HttpOnly/i);
    cookie = setCookie.split(";")[0]!;
    expect(login.headers["strict-transport-security"]).toMatch(/max-age=\d{7,}/);
    expect((await request("GET", "/api/user", { headers: { cookie } })).status).toBe(200);
  });

  it("counts the client's address in the sign-in limit, not nginx's (TRUST_PROXY=1)", async () => {
    const refused = await request("POST", "/api/login", { body: { email: "nobody@proxy.example", password: "wrong-password-1" }, localAddress: "127.0.0.2" });
    expect(refused.status).toBe(401);
    const url = new URL(serverUrl!);
    url.pathname = `/${databaseName}`;
    const database = new pg.Client({ connectionString: url.toString() });
    await database.connect();
    try {
      const keys = (await database.query<{ key: string }>("select key from login_attempts where key like 'address:%'")).rows.map((r) => r.key);
      expect(keys).toContain("address:127.0.0.2");
      expect(keys).not.toContain("address:127.0.0.1");
      const login = await request("POST", "/api/login", { body: { email: manager.email, password: manager.password }, localAddress: "127.0.0.3" });
      expect(login.status).toBe(200);
      // Each session remembers the address it was started from: the clients', never nginx's.
      const sessions = await database.query<{ ip: string }>("select distinct ip_address as ip from sessions order by ip");
      expect(sessions.rows.map((r) => r.ip)).toEqual(["127.0.0.3", CLIENT]);
    } finally {
      await database.end();
    }
  });

  it("upgrades a WebSocket through nginx, and an event written on the other process reaches it", async () => {
    const socket = await openSocket(`wss://localhost:${httpsPort}/ws`, { cookie, origin: base, wsOptions: { ca: cert } });
    try {
      expect((await socket.auth(dealershipId)).type).toBe("authenticated");
      // Which process holds the socket: its realtime_sockets_open says 1.
      const sockets = await Promise.all(
        ports.map(async (port) => {
          const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
          return Number(/^realtime_sockets_open (\d+)$/m.exec(text)?.[1]);
        }),
      );
      expect(sockets.sort()).toEqual([0, 1]);
      const other = ports[sockets.indexOf(0)]!;
      // Written straight to the process without the socket.
      const created = await fetch(`http://127.0.0.1:${other}/api/dealerships/${dealershipId}/leads`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ firstName: "Across", lastName: "Processes" }),
      });
      expect(created.status).toBe(201);
      const message = await socket.next((m) => JSON.stringify(m).includes("Processes"), { timeoutMs: 10_000 });
      expect(message.type).toBeTruthy();
    } finally {
      socket.close();
    }
  });

  it.skipIf(!existsSync(BUILT))("serves the build's assets (npm run build) compressed, with long-lived immutable caching", async () => {
    const page = await request("GET", "/auth", { headers: { "accept-encoding": "identity" } });
    expect(page.status).toBe(200);
    const asset = /\/assets\/[^"]+\.js/.exec(page.body.toString())?.[0];
    expect(asset).toBeTruthy();
    const script = await request("GET", asset!, { headers: { "accept-encoding": "br, gzip" } });
    expect(script.status).toBe(200);
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(script.headers["content-encoding"]).toMatch(/^(br|gzip)$/);
  });

  it("loses no request while one process restarts under load (SIGTERM drain, nginx retrying on the other)", async () => {
    const outcomes = new Map<string, number>();
    let running = true;
    const loop = async () => {
      while (running) {
        const outcome = await request("GET", "/api/user", { headers: { cookie } }).then(
          (r) => String(r.status),
          (e: Error) => e.message,
        );
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    };
    const loops = Array.from({ length: 4 }, loop);
    await new Promise((r) => setTimeout(r, 300));
    const [first] = ports;
    expect(await stopApp(first)).toBe(0);
    await startApp(first);
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await Promise.all(loops);
    expect([...outcomes.keys()]).toEqual(["200"]);
    expect(outcomes.get("200")).toBeGreaterThan(20);
    // Both processes serve again.
    const served = await Promise.all(ports.map((port) => fetch(`http://127.0.0.1:${port}/api/ready`).then((r) => r.status)));
    expect(served).toEqual([200, 200]);
  }, 120_000);
});
