import { localMoment } from "../../shared/dealership-clock";
import type { AgendaItem } from "../../shared/schemas/responses/tasks";
import { formatSlot } from "./format";

// "Booking a rep into a slot they already hold warns (it is allowed, but said)" (issue 27, decision 230). The booking
// forms ask the server for the rep's agenda of the chosen day (the same call as My Day and the calendar) and say which
// of its bookings the new one overlaps, before it is sent. Nothing is refused: a rep may mean to see two customers.

/** A booked test drive has no length of its own: it holds its 30-minute slot. */
export const DRIVE_SLOT_MINUTES = 30;

/** Bookings that no longer hold their rep: cancelled or missed. */
const RELEASED = new Set(["cancelled", "no-show", "no_show", "completed"]);

function minutesOf(time: string): number {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return h * 60 + m;
}

/** The appointments and test drives of `repId` on the agenda that overlap `time` for `minutes`, on the agenda's day. */
export function clashes(items: readonly AgendaItem[], repId: string, timezone: string, booking: { date: string; time: string; minutes: number }): AgendaItem[] {
  const start = minutesOf(booking.time);
  const end = start + booking.minutes;
  return items.filter((item) => {
    if (item.type === "task" || item.assignee?.id !== repId || RELEASED.has(item.status)) return false;
    const local = localMoment(timezone, new Date(item.at));
    if (local.date !== booking.date) return false;
    const from = minutesOf(local.time);
    const to = from + (item.type === "appointment" ? (item.duration ?? DRIVE_SLOT_MINUTES) : DRIVE_SLOT_MINUTES);
    return from < end && start < to;
  });
}

/** What the form says: "You already have Jane Doe's appointment at 10:00 AM (Trade-in appraisal)." */
export function clashText(found: readonly AgendaItem[], timezone: string): string | null {
  if (found.length === 0) return null;
  const one = (item: AgendaItem) => {
    const at = formatSlot(localMoment(timezone, new Date(item.at)).time);
    const what = item.type === "appointment" ? "appointment" : "test drive";
    return `${item.name}'s ${what} at ${at}${item.title ? ` (${item.title})` : ""}`;
  };
  const listed = found.slice(0, 2).map(one).join(" and ");
  const more = found.length > 2 ? ` and ${found.length - 2} more` : "";
  return `You already have ${listed}${more} in this slot. You can still book it.`;
}
