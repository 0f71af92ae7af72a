// Display helpers of the test-drive screens (spec part 2 §2, §9). Durations: formatDuration in shared/schemas/analytics.

/** Minutes between two instants, rounded down (a drive still out counts up to now). */
export function minutesBetween(from: string, to: string | Date): number {
  const end = to instanceof Date ? to.getTime() : new Date(to).getTime();
  return Math.max(0, Math.floor((end - new Date(from).getTime()) / 60_000));
}

/** A price stored in cents as the showroom writes it: "$24,500" (cents only when there are some). */
export function formatPrice(cents: number | null | undefined): string | null {
  if (cents === null || cents === undefined) return null;
  const dollars = cents / 100;
  return dollars.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: cents % 100 === 0 ? 0 : 2 });
}

/** The odometer as entered, grouped ("45,000"): the spec names no unit, so none is invented. */
export function formatMileage(mileage: number | null | undefined): string | null {
  if (mileage === null || mileage === undefined) return null;
  return mileage.toLocaleString("en-US");
}

/** "2024 Honda Civic" (trim left out: the card shows it on its own line). */
export function vehicleTitle(v: { year: string | number; make: string; model: string }): string {
  return `${v.year} ${v.make} ${v.model}`;
}

/** "Monday, November 23, 2026" and "2:05:09 PM EST" at `now` in `timezone`. */
export function clockText(now: Date, timezone: string): { date: string; time: string } {
  const date = now.toLocaleDateString("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: timezone });
  const time = now.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit", second: "2-digit", timeZoneName: "short", timeZone: timezone });
  return { date, time };
}

/** "America/Toronto" → "Toronto": how a person names the clock. */
export function zoneCity(timezone: string): string {
  return (timezone.split("/").pop() ?? timezone).replace(/_/g, " ");
}
