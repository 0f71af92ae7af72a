import { badRequest } from "./errors";

// Refuses text that no field of ours means and that the database cannot take (decision 037): a NUL byte makes
// PostgreSQL fail the whole statement, and a lone UTF-16 surrogate would be stored as U+FFFD. Checked once, for
// every route, before any route code or query runs: path parameters and query strings in onRequest, JSON bodies in
// preValidation (after parsing). The answer is a 400 naming the field, like any other invalid input.

/** C0 control characters and DEL: never in an id, a search or a filter. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_IN_URL = /[\u0000-\u001f\u007f]/;
/** In bodies tab, line feed and carriage return are text (a description typed in a textarea); other C0 are not. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_IN_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** A high surrogate without its low half, or a low one without its high half: not text in any encoding. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const CONTROL_MESSAGE = "must not contain control characters";
const BROKEN_TEXT_MESSAGE = "must be valid text";

function problemWith(text: string, control: RegExp): string | null {
  if (control.test(text)) return CONTROL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return BROKEN_TEXT_MESSAGE;
  return null;
}

/** Field names come from the client: `__proto__` must be a plain key here. */
function noPrototype(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

/** One 400 naming every failing field; the message names the first, as parseInput's do. */
function refuseAny(fields: Record<string, string>): void {
  const [first] = Object.entries(fields);
  if (first) throw badRequest(`${first[0]}: ${first[1]}`, fields);
}

/** Path parameters and query-string values (a repeated key gives an array of strings). */
export function assertCleanUrlInput(request: { params: unknown; query: unknown }): void {
  const fields = noPrototype();
  for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
    const problem = typeof value === "string" ? problemWith(value, CONTROL_IN_URL) : null;
    if (problem) fields[name] ??= problem;
  }
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    const keyProblem = problemWith(name, CONTROL_IN_URL);
    if (keyProblem) fields.query ??= `parameter names ${keyProblem}`;
    for (const item of [value].flat()) {
      const problem = typeof item === "string" ? problemWith(item, CONTROL_IN_URL) : null;
      if (problem && !keyProblem) fields[name] ??= problem;
    }
  }
  refuseAny(fields);
}

/**
 * Every string in a JSON body, keys included, walked without recursion so a deeply nested body cannot overflow the
 * stack. Each failing field is named by its path (`email`, `items.0.name`), as parseInput names zod's failures.
 */
export function assertCleanBody(body: unknown): void {
  const fields = noPrototype();
  const pending: Array<{ value: unknown; path: string }> = [{ value: body, path: "" }];
  for (let next = 0; next < pending.length; next++) {
    const { value, path } = pending[next]!;
    if (typeof value === "string") {
      const problem = problemWith(value, CONTROL_IN_BODY);
      if (problem) fields[path || "body"] ??= problem;
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        const keyProblem = problemWith(key, CONTROL_IN_BODY);
        if (keyProblem) fields[path || "body"] ??= `keys ${keyProblem}`;
        else pending.push({ value: item, path: path ? `${path}.${key}` : key });
      }
    }
  }
  refuseAny(fields);
}
