import { badRequest } from "./errors";

// Page cursors (decision 012): where a list's next page starts, handed to the client in the Link header and sent back
// as ?cursor=. Opaque to the client: base64url of a JSON array of the strings the list orders by. What comes back is
// decoded here, the one decoder for every list, and checked before any of it reaches a query: the input guard
// (decision 037) sees only the base64 text, and a NUL or broken text that appears after decoding made PostgreSQL
// fail the statement, a 500 (decision 172).

export const CURSOR_INVALID = "is not a valid page cursor";

/** Longer than any cursor we write (a timestamp and an id, or a 50-character stock number, in JSON and base64). */
const MAX_CURSOR_CHARS = 300;

// eslint-disable-next-line no-control-regex -- a control character is what is refused here
const NOT_TEXT = /[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function encodePageCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
}

/**
 * The `arity` strings a cursor carries, or null when it is not one we could have written: not canonical base64url,
 * not UTF-8, not a JSON array of that many strings, or a string with a control character or a lone surrogate.
 */
export function decodePageCursor(value: string, arity: number): string[] | null {
  if (value.length === 0 || value.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
  const bytes = Buffer.from(value, "base64url");
  // Node decodes sloppily (stray bits, a lone trailing character): only what we would have encoded is ours.
  if (bytes.toString("base64url") !== value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(bytes));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== arity) return null;
  if (!parsed.every((part): part is string => typeof part === "string" && !NOT_TEXT.test(part))) return null;
  return parsed;
}

/**
 * A list route's ?cursor=: undefined when absent, else what `read` makes of the decoded parts (null: not a cursor of
 * this list), and a 400 naming `cursor` otherwise.
 */
export function cursorQuery<T>(value: string | undefined, arity: number, read: (parts: string[]) => T | null): T | undefined {
  if (value === undefined || value === "") return undefined;
  const parts = decodePageCursor(value, arity);
  const cursor = parts ? read(parts) : null;
  if (cursor === null) throw badRequest(`cursor: ${CURSOR_INVALID}`, { cursor: CURSOR_INVALID });
  return cursor;
}
