import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";

// The one place loggers are made (the process's in main.ts, a test app's in app.ts), so every log line goes through
// the same redaction (decision 036): no password, hash, token, code or cookie, and no SQL parameters of a failed query,
// whose values are customers' data and password hashes.

const REDACTED = "[Redacted]";

/** Keys whose values are secrets at any depth, compared lower-cased without `-` and `_`. */
const SECRET_KEYS = new Set([
  "password",
  "newpassword",
  "currentpassword",
  "oldpassword",
  "token",
  "code",
  "verificationcode",
  "backupcodes",
  "twofactorbackupcodes",
  "cookie",
  "setcookie",
  "authorization",
  "proxyauthorization",
  "secret",
  "twofactorsecret",
  "hash",
  "apikey",
  "smtpurl",
  "databaseurl",
  "sid",
  "params",
  "parameters",
]);
/** ...and keys ending in one of these (passwordHash, sessionToken, feedToken, clientSecret). */
const SECRET_SUFFIXES = ["password", "hash", "token", "secret"];

/** Error properties worth keeping as they are: database error codes and names of schema objects, never row values. */
const ERROR_CODE = /^(?:[0-9A-Z]{5}|[A-Z][A-Z0-9_]+)$/;
/** Error properties of PostgreSQL errors that quote row values ("Key (email)=(ann@example.com) already exists."). */
const VALUE_BEARING_ERROR_KEYS = new Set(["detail", "where", "internalQuery", "query_params"]);
const MAX_DEPTH = 8;
/** Errors already made safe: pino's err serializer sees them again and must not re-judge their `code`. */
const redactedErrors = new WeakSet<object>();

export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_]/g, "");
  return SECRET_KEYS.has(k) || SECRET_SUFFIXES.some((suffix) => k.endsWith(suffix));
}

/**
 * An error message without the values it quotes: drizzle's "Failed query: ...\nparams: a,b" loses its params, and
 * PostgreSQL's `invalid input syntax for type integer: "value"` its quoted value. The SQL text and the reason stay.
 */
export function scrubErrorMessage(message: string): string {
  const params = message.indexOf("\nparams:");
  const withoutParams = params === -1 ? message : `${message.slice(0, params)}\nparams: ${REDACTED}`;
  return withoutParams.replace(/: "[^\n]*"/g, `: "${REDACTED}"`);
}

/** An error as a log line shows it: type, scrubbed message and stack, codes, cause; secret properties redacted. */
export function redactError(error: Error, depth = 0, seen = new WeakSet<object>()): Record<string, unknown> {
  seen.add(error);
  const message = scrubErrorMessage(String(error.message));
  const out: Record<string, unknown> = { type: error.constructor?.name || error.name, message };
  if (typeof error.stack === "string") {
    out.stack = error.stack.includes(error.message)
      ? error.stack.replace(error.message, message)
      : error.stack
          .split("\n")
          .filter((line) => /^\s+at /.test(line))
          .join("\n");
  }
  for (const key of Object.keys(error)) {
    if (key === "message" || key === "stack" || key === "cause") continue;
    const value = (error as unknown as Record<string, unknown>)[key];
    if (key === "code" && typeof value === "string") out.code = ERROR_CODE.test(value) ? value : REDACTED;
    else if ((key === "statusCode" || key === "status") && typeof value === "number") out[key] = value;
    else if (VALUE_BEARING_ERROR_KEYS.has(key) || isSecretKey(key)) out[key] = REDACTED;
    else out[key] = redactLogValue(value, depth + 1, seen);
  }
  if (error.cause !== undefined) out.cause = redactLogValue(error.cause, depth + 1, seen);
  redactedErrors.add(out);
  return out;
}

/** A copy of a value fit for a log line: secret keys redacted at any depth, errors as redactError shows them. */
export function redactLogValue(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[Circular]";
  if (redactedErrors.has(value)) return value;
  if (depth > MAX_DEPTH) return "[Too deep]";
  if (value instanceof Error) return redactError(value, depth, seen);
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) {
    seen.add(value);
    return value.map((item) => redactLogValue(item, depth + 1, seen));
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  // Class instances other than errors (a request, a Date) are left to pino and its serializers.
  if (proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = isSecretKey(key) ? REDACTED : redactLogValue(item, depth + 1, seen);
  return out;
}

/** Options shared by every logger of the process; exported for tests that need their own destination. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    hooks: {
      // Every call passes here before pino reads it: `log.error(err)` and `log.info({ user }, "...")` alike.
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        if (first instanceof Error) {
          const err = redactError(first);
          return method.apply(this, [{ err }, ...(rest.length > 0 ? rest : [err.message])] as Parameters<typeof method>);
        }
        if (first !== null && typeof first === "object") {
          return method.apply(this, [redactLogValue(first), ...rest] as Parameters<typeof method>);
        }
        return method.apply(this, args);
      },
    },
    // Fastify's default err serializer would re-read our plain object; errors that reach pino some other way are redacted.
    serializers: { err: (value: unknown) => redactLogValue(value) },
    formatters: { bindings: (bindings) => redactLogValue(bindings) as Record<string, unknown> },
  };
}

/**
 * The process's logger: JSON lines on stdout (or `destination`), redacted. Written asynchronously: lines logged while a
 * write is under way go out together in the next one, instead of one blocking write per request line (issue 13); pino
 * writes what is left synchronously when the process exits.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(loggerOptions(level), destination ?? pino.destination({ dest: 1, sync: false }));
}
