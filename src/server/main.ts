import path from "node:path";
import { buildApp, DEFAULT_CLIENT_DIR } from "./app";
import { deleteExpiredSessions } from "./auth/sessions";
import { loadConfig } from "./config";
import { isEmptyDatabase, migrateDatabase, openPglite, openPostgres, type Database } from "./db/client";
import { DEMO_PASSWORD, seedDemo } from "./db/seed-demo";
import { createLogger } from "./http/logging";
import { startUnattendedLeadsJob } from "./leads/unattended-leads";
import { grantConfiguredPlatformAdmins } from "./platform/admins";

// Process entry: config -> database -> migrations -> demo data -> listen; graceful shutdown on SIGTERM.
const SHUTDOWN_DEADLINE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const open = (): Database =>
    config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite({ dataDir: path.join(config.dataDir, "pglite") });
  let database = open();
  logger.info({ database: database.kind, dataDir: config.databaseUrl ? undefined : config.dataDir }, "opening database");

  await migrateDatabase(database);
  if (config.seedDemo && (await isEmptyDatabase(database.db))) {
    const logins = await seedDemo(database.db);
    logger.info({ demoLogins: logins, password: DEMO_PASSWORD }, "demo data created");
    // Also as plain text: the JSON log line is for machines, this block is for the person who just ran npm start.
    const lines = logins.map((l) => `  ${l.email.padEnd(34)} ${l.role}`).join("\n");
    process.stdout.write(`\nDemo logins (password "${DEMO_PASSWORD}"):\n${lines}\n\n`);
    if (database.kind === "pglite") {
      // Making the database and the demo data grows the embedded database's WebAssembly memory, which never shrinks:
      // about 400 MiB more than the same data opened afresh (bench/RESULTS.md). Open it again and let that go.
      await database.close();
      database = open();
    }
  }
  await grantConfiguredPlatformAdmins(database.db, config.platformAdminEmails);
  await deleteExpiredSessions(database.db);

  const app = await buildApp({ config, database, clientDir: DEFAULT_CLIENT_DIR, logger });
  // Before listening: mail queued by an earlier run (stopped, or killed, before sending it) goes out now.
  await app.mailer.start();
  // Every minute, new leads nobody answered in their dealership's set time are e-mailed to management (decision 142).
  const unattendedLeads = await startUnattendedLeadsJob(database, logger);
  await app.listen({ port: config.port, host: config.host });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const deadline = setTimeout(() => {
      logger.error("shutdown took too long; exiting");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    // close() stops accepting and waits for requests in flight; then the mailer delivers what is due for up to 3 s
    // and stops (its onClose hook). Mail not sent by then is in the database for the next start.
    await unattendedLeads.stop(1000);
    await app.close();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
