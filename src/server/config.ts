import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { loadIntakeConfig, type IntakeConfig } from "./intake-config";

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
  /** Which proxies' X-Forwarded-* headers to believe: a hop count or addresses/CIDRs (decision 038). */
  TRUST_PROXY: z.string().default(""),
  /** Key for two-factor secrets at rest (decision 081); without it a key is made once in DATA_DIR/app-secret.key. */
  APP_SECRET: z.string().min(32, { message: "must be at least 32 characters" }).optional().or(z.literal("").transform(() => undefined)),
  /** Web push (decision 110): both keys or neither; without them a pair is made once and kept in the database. */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().optional(),
  /** Allows push endpoints on this machine (https://localhost): tests and local push servers only (decision 111). */
  PUSH_LOCAL_ENDPOINTS: flag,
  /** GET /metrics on the app's port answers `Authorization: Bearer METRICS_TOKEN` (decision 211). */
  METRICS_TOKEN: z.string().min(16, { message: "must be at least 16 characters" }).optional().or(z.literal("").transform(() => undefined)),
  /** A listener of its own for GET /metrics, without a token, on HOST (decision 211). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional().or(z.literal("").transform(() => undefined)),
  /** Requests a minute per API token (issue 28, decision 225). */
  API_RATE_LIMIT: z.coerce.number().int().positive().default(600),
  /** Webhooks may call http:// and private addresses (tests, intranets): off by default (decision 227). */
  WEBHOOKS_ALLOW_PRIVATE: flag,
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
  /**
   * Whose X-Forwarded-For/-Host/-Proto to believe, as Fastify's trustProxy takes it: false (nobody: the socket's
   * address is the client's), a number of proxy hops in front of us, or the proxies' addresses and CIDR ranges.
   */
  trustProxy: TrustProxy;
  /** APP_SECRET: the key behind two-factor secrets at rest; undefined means DATA_DIR/app-secret.key. */
  appSecret?: string | undefined;
  /** Secure cookies: true when the public address is HTTPS. */
  secureCookies: boolean;
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url); undefined: a pair kept in the database (decision 110). */
  vapidKeys?: { publicKey: string; privateKey: string } | undefined;
  /** Who push services may contact about our pushes: VAPID_SUBJECT, else an https APP_URL, else MAIL_FROM's address. */
  vapidSubject: string;
  /** PUSH_LOCAL_ENDPOINTS: accept push endpoints on localhost / loopback addresses (tests). */
  pushLocalEndpoints: boolean;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for on the app's port (decision 211). */
  metricsToken?: string | undefined;
  /** METRICS_PORT: /metrics on a listener of its own, no token. */
  metricsPort?: number | undefined;
  /** API_RATE_LIMIT: requests a minute per API token (600 when unset). */
  apiRateLimit?: number | undefined;
  /** WEBHOOKS_ALLOW_PRIVATE: webhooks may use http:// and private or loopback addresses. */
  webhooksAllowPrivate?: boolean | undefined;
  /** INTAKE_SMTP_PORT, INTAKE_SMTP_HOST, INTAKE_DOMAIN: the e-mail lead intake (issue 14, decision 134). */
  intake?: IntakeConfig | undefined;
}

export type TrustProxy = false | number | string[];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
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
    trustProxy,
    secureCookies: appUrl.startsWith("https://"),
    appSecret: e.APP_SECRET,
    vapidKeys: parseVapidKeys(e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY),
    vapidSubject: parseVapidSubject(e.VAPID_SUBJECT, appUrl, e.MAIL_FROM),
    pushLocalEndpoints: e.PUSH_LOCAL_ENDPOINTS ?? false,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    intake: loadIntakeConfig(env),
    apiRateLimit: e.API_RATE_LIMIT,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE ?? false,
  };
}

/** The VAPID pair from the environment: both or neither, a P-256 public point (65 bytes) and private key (32). */
function parseVapidKeys(publicKey = "", privateKey = ""): Config["vapidKeys"] {
  if (!publicKey && !privateKey) return undefined;
  const decoded = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? Buffer.from(key, "base64url").length : 0);
  if (decoded(publicKey) !== 65 || decoded(privateKey) !== 32) {
    throw new Error("Invalid environment: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both, base64url, as `npx web-push generate-vapid-keys` prints them");
  }
  return { publicKey, privateKey };
}

function parseVapidSubject(subject: string | undefined, appUrl: string, mailFrom: string): string {
  if (subject) {
    if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(subject)) throw new Error("Invalid environment: VAPID_SUBJECT: a mailto: address or an https: URL");
    return subject;
  }
  if (appUrl.startsWith("https://")) return appUrl;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}

/** Proxy names proxy-addr (Fastify's trustProxy) knows for common private ranges. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: empty or 0 trusts nobody; a whole number is the count of proxy hops; otherwise a comma-separated list
 * of addresses, CIDR ranges (10.0.0.0/8) or proxy-addr's names (loopback, linklocal, uniquelocal). `true` (trust
 * every hop) is refused: it would let any client choose its own address again.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (text === "" || text === "0" || text === "false") return false;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(",").map((entry) => entry.trim()).filter(Boolean);
  const invalid = entries.filter((entry) => !isProxyAddress(entry));
  if (invalid.length > 0 || entries.length === 0) {
    throw new Error(
      `Invalid environment: TRUST_PROXY: expected a hop count (1) or proxy addresses/CIDR ranges (10.0.0.1,10.1.0.0/16); not ${invalid.join(", ") || text}`,
    );
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = "", prefix, ...extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra.length > 0) return false;
  if (prefix === undefined) return true;
  // A prefix length, or (IPv4 only) a dotted netmask such as 255.255.255.0, as proxy-addr accepts.
  if (/^\d+$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(prefix) === 4;
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
