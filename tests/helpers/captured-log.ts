import type { Logger } from "pino";
import { createLogger } from "../../src/server/http/logging";

// A logger made as the app makes its own (same redaction), writing to memory: for a test that checks what was logged
// (an error that should not be, a warning that should). Pass `logger` to buildApp or startListeningApp.

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface CapturedLog {
  logger: Logger;
  /** Every line so far, parsed. */
  lines(): LogLine[];
  /** Lines at warn (40) or above. */
  warnings(): LogLine[];
}

export function captureLog(level = "warn"): CapturedLog {
  const written: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void written.push(line) });
  const lines = () => written.map((line) => JSON.parse(line) as LogLine);
  return { logger, lines, warnings: () => lines().filter((line) => line.level >= 40) };
}
