// "Today" and "now" on a dealership's clock (dealerships.timezone), whatever zone the server or browser runs in.
// Appointments store the dealership's local calendar date (YYYY-MM-DD) and slot time (HH:MM), so every
// comparison with "now" is made in those local terms (spec part 1 §2.3 upcoming rule, §5 "not before today").

export interface LocalMoment {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, 24-hour */
  time: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone: timezone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timezone, f);
  }
  return f;
}

/** The wall-clock date and time at `now` in `timezone`. */
export function localMoment(timezone: string, now: Date = new Date()): LocalMoment {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timezone).formatToParts(now)) parts[p.type] = p.value;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * A moment as people read it on the dealership's clock, its zone named (issue 29): "Nov 27, 2026, 4:24 PM EST",
 * whatever zone the device is in.
 */
export function onDealershipClock(iso: string | Date, timezone: string): string {
  const at = iso instanceof Date ? iso : new Date(iso);
  return at.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short", timeZone: timezone });
}

/** Today's date (YYYY-MM-DD) in `timezone`. */
export function localToday(timezone: string, now: Date = new Date()): string {
  return localMoment(timezone, now).date;
}

/**
 * The dates the app works with, forms and server alike (decision 037): nothing a dealership schedules or looks up lies
 * outside them, and dates far outside (0000-01-01 is no date to PostgreSQL; 9999-12-31 plus a week is no date to
 * JavaScript) would fail deep inside a query instead of as a 400.
 */
export const EARLIEST_DATE = "2000-01-01";
export const LATEST_DATE = "2100-12-31";

/** Whether a string is a real calendar date written YYYY-MM-DD, whatever the year. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Whether a string is a real calendar date written YYYY-MM-DD between EARLIEST_DATE and LATEST_DATE. */
export function isIsoDate(value: string): boolean {
  return isCalendarDate(value) && value >= EARLIEST_DATE && value <= LATEST_DATE;
}

/** A YYYY-MM-DD date moved by whole days (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whether a timezone name is one this runtime knows (an IANA name such as America/Toronto). */
export function isKnownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a name is an IANA time zone a dealership may choose (issue 30): one this runtime's Intl knows, written as
 * the IANA list writes it ("America/Toronto", "UTC"), not an offset ("+05:00") or another spelling ("america/toronto").
 * A zone the list names by an older alias (Asia/Kolkata, listed as Asia/Calcutta by some ICU versions) counts too.
 */
export function isIanaTimezone(name: string): boolean {
  if (!/^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)*$/.test(name) || !isKnownTimezone(name)) return false;
  if (name === "UTC") return true;
  const listed = timezoneList();
  return listed.has(name) || listed.has(new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone);
}

let zones: Set<string> | undefined;
function timezoneList(): Set<string> {
  return (zones ??= new Set(Intl.supportedValuesOf("timeZone")));
}
