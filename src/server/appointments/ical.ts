import { TZDate } from "@date-fns/tz";
import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import { fullName } from "../../shared/format";
import type { AppointmentWithUser } from "./queries";

// The iCalendar (RFC 5545) document of a calendar subscription (decision 023). Times are written in the
// dealership's zone (DTSTART;TZID=America/Toronto:20261122T100000) with a VTIMEZONE block, so Google, Outlook
// and Apple Calendar place them right whatever zone the subscriber is in. UIDs are the appointment ids, so an
// edited or re-fetched appointment updates the same event instead of adding a copy.

const STATUS_LABELS: Record<string, string> = {
  scheduled: "Scheduled",
  arrived: "Arrived",
  completed: "Completed",
  cancelled: "Cancelled",
  "no-show": "No Show",
};

/** The VTIMEZONE component for an IANA zone, from a maintained tz database build (null if unknown). */
export function vtimezone(timezone: string): string | null {
  const block = tzlib_get_ical_block(timezone);
  const text = Array.isArray(block) ? block[0] : null;
  return text && text.startsWith("BEGIN:VTIMEZONE") ? text : null;
}

/** The dealership-local start of an appointment as an instant. */
export function appointmentStart(date: string, time: string, timezone: string): TZDate {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [hh, mm] = time.split(":").map(Number) as [number, number];
  return new TZDate(y, m - 1, d, hh, mm, 0, timezone);
}

export interface FeedContext {
  dealership: { name: string; address: string | null; timezone: string };
  /** "My appointments" or "All appointments". */
  label: string;
  appUrl: string;
  /** How often calendar apps should refresh, in seconds. */
  refreshSeconds: number;
}

export function appointmentsCalendar(context: FeedContext, rows: AppointmentWithUser[]): string {
  const { dealership, appUrl } = context;
  const calendar = ical({
    name: `Showroom · ${dealership.name} · ${context.label}`,
    description: `Appointments at ${dealership.name} from Showroom`,
    prodId: { company: "Showroom", product: "Appointments", language: "EN" },
    method: ICalCalendarMethod.PUBLISH,
    // No calendar-wide zone name: ical-generator would then write DTSTAMP and CREATED as local times, which
    // RFC 5545 requires in UTC. Each event names its zone, and the generator adds that zone's VTIMEZONE.
    timezone: { name: null, generator: vtimezone },
    ttl: context.refreshSeconds,
    url: `${appUrl}/calendar`,
  });
  for (const row of rows) {
    const start = appointmentStart(row.date, row.time, dealership.timezone);
    const end = new TZDate(start.getTime() + row.duration * 60_000, dealership.timezone);
    const customer = fullName(row);
    const lines = [
      `Customer: ${customer}`,
      row.phone ? `Phone: ${row.phone}` : null,
      row.email ? `Email: ${row.email}` : null,
      `Status: ${STATUS_LABELS[row.status] ?? row.status}`,
      row.assignedToUser ? `Sales Associate: ${fullName(row.assignedToUser)}` : null,
      row.description ? `\n${row.description}` : null,
    ].filter((l): l is string => l !== null);
    calendar.createEvent({
      id: `${row.id}@showroom`,
      start,
      end,
      timezone: dealership.timezone,
      summary: `${row.title} – ${customer}`,
      description: lines.join("\n"),
      location: dealership.address ? `${dealership.name}, ${dealership.address}` : dealership.name,
      url: `${appUrl}/calendar?date=${row.date}`,
      status: ICalEventStatus.CONFIRMED,
      created: row.createdAt,
    });
  }
  return calendar.toString();
}
