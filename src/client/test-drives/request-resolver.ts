import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

// A react-hook-form resolver for forms whose fields are not the request's (a "full name" split in two, a price typed
// in dollars and sent in cents): the values become the request body, the shared zod schema validates that body, and
// each message lands on the field it is about. So the form checks exactly what the server will (invariant 3).

export function requestResolver<V extends FieldValues>(
  schema: z.ZodType,
  toRequest: (values: V) => unknown,
  fieldOf: (requestField: string) => keyof V | undefined,
  /** Checks of the form's own (before the request exists), e.g. "this is no amount of dollars". */
  own?: (values: V) => Partial<Record<keyof V, string>>,
): Resolver<V> {
  return (values) => {
    const messages: Array<[keyof V, string]> = [];
    for (const [field, message] of Object.entries(own?.(values) ?? {})) if (typeof message === "string") messages.push([field, message]);
    const result = schema.safeParse(toRequest(values));
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = fieldOf(String(issue.path[0] ?? ""));
        if (field !== undefined) messages.push([field, issue.message]);
      }
    }
    if (messages.length === 0) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const [field, message] of messages) errors[field as string] ??= { type: "validate", message };
    return { values: {}, errors: errors as FieldErrors<V> };
  };
}

/** The server's per-field messages (a 400's {fields}) as [form field, message] pairs. */
export function serverFieldMessages<V>(fields: Record<string, string>, fieldOf: (requestField: string) => keyof V | undefined): Array<[keyof V, string]> {
  const out: Array<[keyof V, string]> = [];
  for (const [path, message] of Object.entries(fields)) {
    const field = fieldOf(path);
    if (field !== undefined) out.push([field, message]);
  }
  return out;
}
