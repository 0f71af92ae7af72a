import path from "node:path";
import { buildApp, DEFAULT_CLIENT_DIR } from "./app";
import { deleteExpiredSessions } from "./auth/sessions";
import { loadConfig } from "./config";
import { isEmptyDatabase, migrateDatabase, openPglite, openPostgres, type Database } from "./db/client";
import { DEMO_PASSWORD, seedDemo } from "./db/seed-demo";
import { createLogger } from "./http/logging";
import { serveMetrics } from "./http/metrics";
import { serveControlSocket } from "./backup/control-socket";
import { startPurgeDeletedLeadsJob } from "./leads/deleted-archive";
import { startUnattendedLeadsJob } from "./leads/unattended-leads";
import { grantConfiguredPlatformAdmins } from "./platform/admins";
import { startTaskRemindersJob } from "./tasks/reminders";
import { startLeadDistributionJob } from "./distribution/job";

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
  // Every minute, open tasks whose due time came remind their assignee, once (issue 27, decision 198).
  const taskReminders = await startTaskRemindersJob(database, logger);
  // Every hour, leads deleted or merged away more than 30 days ago are dropped for good (decision 214).
  const purgeDeletedLeads = await startPurgeDeletedLeadsJob(database, logger);
  // Every minute, leads nobody claimed in the dealership's minutes go to the reps on the floor (decision 201).
  const leadDistribution = await startLeadDistributionJob(database, logger);
  await app.listen({ port: config.port, host: config.host });
  const metricsServer = app.metrics && config.metricsPort ? await serveMetrics(app.metrics, config.metricsPort, config.host) : null;
  // `npm run cli -- backup` asks this process: only it may read the embedded database while it serves (decision 212).
  // A DATA_DIR whose path is too long for a Unix socket (about 100 bytes) only loses the live backup, not the app.
  const controlSocket =
    database.kind === "pglite"
      ? await serveControlSocket({ database, target: { dataDir: config.dataDir }, logger }).catch((error: unknown) => {
          logger.warn({ err: error }, "no backup control socket in DATA_DIR: `npm run cli -- backup` needs the app stopped");
          return null;
        })
      : null;

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
    // /api/ready answers 503 from now on, so a load balancer stops sending new requests while these finish.
    app.drain();
    metricsServer?.close();
    controlSocket?.close();
    // close() stops accepting and waits for requests in flight; then the dispatcher, push and the mailer stop (onClose
    // hooks): the mailer delivers what is due for up to 3 s, and resolves only once its workers are done with the
    // database, which closes next. Mail not sent by then is in the database for the next start.
    await unattendedLeads.stop(1000);
    await taskReminders.stop(1000);
    await purgeDeletedLeads.stop(1000);
    await leadDistribution.stop(1000);
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
