import path from "node:path";
import { loadConfig } from "./config";
import { migrateDatabase, openPglite, openPostgres } from "./db/client";
import { grantPlatformAdminByEmail } from "./platform/admins";

// npm run cli -- grant-platform-admin EMAIL
async function main(): Promise<number> {
  const [command, arg] = process.argv.slice(2);
  if (command !== "grant-platform-admin" || !arg) {
    console.error("usage: npm run cli -- grant-platform-admin EMAIL");
    return 2;
  }
  const config = loadConfig();
  const database = config.databaseUrl ? openPostgres(config.databaseUrl, 1) : openPglite({ dataDir: path.join(config.dataDir, "pglite") });
  try {
    await migrateDatabase(database);
    if (!(await grantPlatformAdminByEmail(database.db, arg))) {
      console.error(`No user with the e-mail ${arg}`);
      return 1;
    }
    console.log(`${arg} is now a platform admin`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
