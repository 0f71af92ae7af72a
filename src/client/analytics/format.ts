// How the analytics screens write their figures (spec part 2 §2 Test Drive Analytics and Sales Rep Analytics, §9).
// Periods, durations and the "+N more" rule are in shared/schemas/analytics.

/** Averages to one decimal, always written with it (part 2 §9): 2 → "2.0", 2.25 → "2.3". */
export function oneDecimalText(value: number): string {
  if (!Number.isFinite(value)) return "0.0";
  return (Math.round(value * 10) / 10).toFixed(1);
}

/** A per-day figure over a period: total ÷ days in the period, one decimal. */
export function perDay(total: number, days: number): string {
  return oneDecimalText(days > 0 ? total / days : 0);
}

const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** A YYYY-MM-DD date, or an instant on the dealership's clock, in short month-day form ("Nov 22"). */
export function shortMonthDay(value: string, timezone?: string): string {
  const date = isDate(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: isDate(value) ? "UTC" : timezone });
}

/** "Mon, Nov 22" for a day of the breakdown. */
export function weekdayMonthDay(value: string): string {
  const date = new Date(`${value}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
}

/** "Nov 22, 2:05 PM" for an instant on the dealership's clock. */
export function shortDateTime(value: string | null, timezone: string): string {
  if (!value) return "—";
  return new Date(value).toLocaleString("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: timezone });
}

/** A part of a whole as a whole percentage ("67%"); "—" when there is no whole. */
export function percentText(part: number, whole: number): string {
  if (!(whole > 0)) return "—";
  return `${Math.round((part / whole) * 100)}%`;
}
