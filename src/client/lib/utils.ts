import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names and lets later Tailwind classes win over earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** Initials for an avatar: first letters of first and last name, else of the e-mail, else "U" (part 2 profile). */
export function initialsOf(person: { firstName?: string | null; lastName?: string | null; email?: string | null } | null | undefined): string {
  const fromName = `${person?.firstName?.[0] ?? ""}${person?.lastName?.[0] ?? ""}`;
  if (fromName) return fromName.toUpperCase();
  return (person?.email?.[0] ?? "U").toUpperCase();
}
