import type { AppointmentStatus } from "../../shared/constants";

// Display helpers of the appointments area. Dates travel as the dealership's local "YYYY-MM-DD" and slot times as
// "HH:MM" (decision 002); these only format them, so the browser's own time zone never shifts a day.

/** "10:30" -> "10:30 AM". */
export function formatSlot(time: string): string {
  const [h, m] = time.split(":").map(Number) as [number, number];
  if (Number.isNaN(h) || Number.isNaN(m)) return time;
  const suffix = h >= 12 ? "PM" : "AM";
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, "0")} ${suffix}`;
}

/** A timestamp's wall-clock time at the dealership: "10:32 AM". */
export function formatTimeInZone(iso: string, timezone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat("en-US", { timeZone: timezone, hour: "numeric", minute: "2-digit" }).format(date);
}

/** "2026-11-22" -> a Date at local midnight of that calendar day (for the date picker, which works in local days). */
export function dateFromIso(value: string): Date {
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** A local Date -> its calendar day "YYYY-MM-DD". */
export function isoFromDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

/** "2026-11-22" -> "Sunday, November 22, 2026". */
export function longDate(value: string): string {
  return dateFromIso(value).toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", year: "numeric" });
}

/** "2026-11-22" -> "Nov 22, 2026". */
export function mediumDate(value: string): string {
  return dateFromIso(value).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
}

export const STATUS_LABELS: Record<AppointmentStatus, string> = {
  scheduled: "Scheduled",
  arrived: "Arrived",
  completed: "Completed",
  cancelled: "Cancelled",
  "no-show": "No Show",
};

export type StatusBadgeVariant = "primary" | "warning" | "success" | "destructive";

/**
 * part 1 §2.3: scheduled and confirmed primary; arrived warning; completed success; cancelled and no-show
 * destructive; an unknown or missing status is treated as scheduled.
 */
export function normalizeStatus(status: string | null | undefined): AppointmentStatus | "confirmed" {
  if (status === "confirmed") return "confirmed";
  return status && status in STATUS_LABELS ? (status as AppointmentStatus) : "scheduled";
}

export function statusBadge(status: string | null | undefined): { label: string; variant: StatusBadgeVariant } {
  const s = normalizeStatus(status);
  switch (s) {
    case "confirmed":
      return { label: "Confirmed", variant: "primary" };
    case "arrived":
      return { label: STATUS_LABELS.arrived, variant: "warning" };
    case "completed":
      return { label: STATUS_LABELS.completed, variant: "success" };
    case "cancelled":
    case "no-show":
      return { label: STATUS_LABELS[s], variant: "destructive" };
    default:
      return { label: STATUS_LABELS.scheduled, variant: "primary" };
  }
}

/** part 1 §5 style search: case-insensitive substring of full name, e-mail or phone (phone also by digits alone). */
export function matchesSearch(a: { firstName: string; lastName: string; email: string | null; phone: string | null }, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const name = `${a.firstName} ${a.lastName}`.toLowerCase();
  if (name.includes(q)) return true;
  if (a.email?.toLowerCase().includes(q)) return true;
  if (a.phone?.toLowerCase().includes(q)) return true;
  const digits = q.replace(/\D/g, "");
  return digits.length >= 3 && digits.length === q.replace(/[\s().+-]/g, "").length && (a.phone ?? "").replace(/\D/g, "").includes(digits);
}
