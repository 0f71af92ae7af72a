import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === "1" || v === "true"));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  SEED_DEMO: flag,
  PLATFORM_ADMIN_EMAILS: z.string().default(""),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Showroom <no-reply@showroom.local>"),
  /** Public address used in links inside e-mails; defaults to http://localhost:PORT. */
  APP_URL: z.string().optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(60 * 24 * 7),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().int().positive().default(30),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  NODE_ENV: z.string().default("development"),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  seedDemo: boolean;
  platformAdminEmails: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  appUrl: string;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  logLevel: string;
  /** Secure cookies: true when the public address is HTTPS. */
  secureCookies: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    // Demo data by default only for the embedded database (issue 2).
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    platformAdminEmails: parseEmailList(e.PLATFORM_ADMIN_EMAILS),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    appUrl,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: e.SESSION_ABSOLUTE_DAYS * 86_400_000,
    logLevel: e.LOG_LEVEL,
    secureCookies: appUrl.startsWith("https://"),
  };
}

export function parseEmailList(list: string): string[] {
  return list
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** A config for tests: in-memory, quiet, no seeding. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ LOG_LEVEL: "silent", SEED_DEMO: "0" }), ...overrides };
}
