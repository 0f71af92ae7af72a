import { text, timestamp } from "drizzle-orm/pg-core";
import { nanoid } from "nanoid";

/** 21-character generated identifier (part 1 §3). */
export function id() {
  return text("id")
    .primaryKey()
    .$defaultFn(() => nanoid());
}

export function createdAt() {
  return timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
}

export function updatedAt() {
  return timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
}

export function at(name: string) {
  return timestamp(name, { withTimezone: true });
}
