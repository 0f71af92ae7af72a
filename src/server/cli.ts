import path from "node:path";
import { BackupError, restoreBackup, writeBackup, type BackupSummary } from "./backup/backup";
import { appIsRunning, askRunningApp } from "./backup/control-socket";
import { loadConfig, type Config } from "./config";
import { migrateDatabase, openPglite, openPostgres } from "./db/client";
import { grantPlatformAdminByEmail } from "./platform/admins";

const USAGE = `usage:
  npm run cli -- grant-platform-admin EMAIL
  npm run cli -- backup FILE            a backup of DATABASE_URL, or of DATA_DIR's embedded database, and DATA_DIR's files
  npm run cli -- restore FILE [--force] into DATABASE_URL or DATA_DIR; --force replaces a database that has data`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const [command, arg] = args.filter((a) => a !== "--force");
  const config = loadConfig();
  if (command === "grant-platform-admin" && arg) return grantPlatformAdmin(config, arg);
  if (command === "backup" && arg) return backup(config, arg);
  if (command === "restore" && arg) return restore(config, arg, force);
  console.error(USAGE);
  return 2;
}

const openDatabase = (config: Config) =>
  config.databaseUrl ? openPostgres(config.databaseUrl, 1) : openPglite({ dataDir: path.join(config.dataDir, "pglite") });

async function grantPlatformAdmin(config: Config, email: string): Promise<number> {
  const database = openDatabase(config);
  try {
    await migrateDatabase(database);
    if (!(await grantPlatformAdminByEmail(database.db, email))) {
      console.error(`No user with the e-mail ${email}`);
      return 1;
    }
    console.log(`${email} is now a platform admin`);
    return 0;
  } finally {
    await database.close();
  }
}

const said = (file: string, s: BackupSummary) =>
  `${file}: ${s.database === "pglite" ? `${s.tables} tables, ${s.rows} rows` : "pg_dump custom format"}; files: ${s.files.join(", ") || "none"}`;

async function backup(config: Config, file: string): Promise<number> {
  const target = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  const absolute = path.resolve(file);
  if (!config.databaseUrl) {
    // The serving process writes it: only it may touch the embedded database while it runs.
    const answer = await askRunningApp(config.dataDir, absolute);
    if (answer) {
      if (!answer.ok) throw new BackupError(answer.message);
      console.log(`backup written by the running app to ${said(absolute, answer.summary)}`);
      return 0;
    }
  }
  const database = openDatabase(config);
  try {
    console.log(`backup written to ${said(absolute, await writeBackup(database, target, absolute))}`);
    return 0;
  } finally {
    await database.close();
  }
}

async function restore(config: Config, file: string, force: boolean): Promise<number> {
  if (!config.databaseUrl && (await appIsRunning(config.dataDir))) {
    throw new BackupError(`an app is running on ${config.dataDir}: stop it before restoring into its embedded database`);
  }
  const summary = await restoreBackup({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }, path.resolve(file), { force });
  console.log(`restored ${said(path.resolve(file), summary)} into ${config.databaseUrl ? "DATABASE_URL" : path.join(config.dataDir, "pglite")}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof BackupError) {
      console.error(`error: ${error.message}`);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  },
);
