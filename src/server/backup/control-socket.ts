import { existsSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import path from "node:path";
import type { Logger } from "pino";
import type { Database } from "../db/client";
import { writeBackup, type BackupSummary, type BackupTarget } from "./backup";

// The embedded database has one connection, inside the serving process: another process opening the same directory
// would corrupt it. So `npm run cli -- backup` asks the running app, over a Unix socket in DATA_DIR (readable only by
// whoever may read the database files anyway), to write the backup itself (decision 212).

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, "control.sock");
}

interface Request {
  command: "backup";
  file: string;
}
type Answer = { ok: true; summary: BackupSummary } | { ok: false; message: string };

export async function serveControlSocket(options: { database: Database; target: BackupTarget; logger: Logger }): Promise<Server> {
  const socketPath = controlSocketPath(options.target.dataDir);
  // A socket file left by a killed process: nobody listens on it (the CLI found no answer), so it goes.
  if (existsSync(socketPath)) rmSync(socketPath);
  const server = createServer((connection) => {
    let text = "";
    connection.setEncoding("utf8");
    connection.on("data", (chunk: string) => {
      text += chunk;
      if (!text.includes("\n")) return;
      const answer = (reply: Answer) => connection.end(`${JSON.stringify(reply)}\n`);
      let request: Request;
      try {
        request = JSON.parse(text.slice(0, text.indexOf("\n"))) as Request;
      } catch {
        answer({ ok: false, message: "unreadable request" });
        return;
      }
      if (request.command !== "backup" || typeof request.file !== "string") {
        answer({ ok: false, message: "unknown command" });
        return;
      }
      options.logger.info({ file: request.file }, "backup started");
      writeBackup(options.database, options.target, request.file).then(
        (summary) => {
          options.logger.info({ file: request.file, ...summary }, "backup written");
          answer({ ok: true, summary });
        },
        (error: unknown) => {
          options.logger.error({ err: error }, "backup failed");
          answer({ ok: false, message: (error as Error).message });
        },
      );
    });
    connection.on("error", () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return server;
}

/** Asks the app serving DATA_DIR for a backup; null when no app answers there. */
export function askRunningApp(dataDir: string, file: string): Promise<Answer | null> {
  const socketPath = controlSocketPath(dataDir);
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const connection = createConnection(socketPath);
    let text = "";
    let connected = false;
    connection.setEncoding("utf8");
    connection.on("connect", () => {
      connected = true;
      connection.write(`${JSON.stringify({ command: "backup", file } satisfies Request)}\n`);
    });
    connection.on("data", (chunk: string) => (text += chunk));
    connection.on("end", () => {
      try {
        resolve(JSON.parse(text) as Answer);
      } catch {
        reject(new Error("the running app gave no answer"));
      }
    });
    connection.on("error", (error) => (connected ? reject(error) : resolve(null)));
  });
}

/** True when an app is serving this DATA_DIR (its control socket answers). */
export function appIsRunning(dataDir: string): Promise<boolean> {
  const socketPath = controlSocketPath(dataDir);
  if (!existsSync(socketPath)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const connection = createConnection(socketPath);
    connection.on("connect", () => {
      connection.destroy();
      resolve(true);
    });
    connection.on("error", () => resolve(false));
  });
}
