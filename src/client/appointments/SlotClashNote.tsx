import { TriangleAlert } from "lucide-react";
import { isIsoDate } from "../../shared/dealership-clock";
import { useAuth } from "../auth/auth-provider";
import { cn } from "../lib/utils";
import { useAgenda } from "../tasks/api";
import { clashes, clashText } from "./slot-clash";

// The booking forms' double-booking warning (issue 27, decision 230): the signed-in rep's agenda of the chosen day,
// read from the server, against the chosen time. The note is a polite live region that is always there, so a screen
// reader hears the warning when a time is picked; it does not stop the booking.

export function SlotClashNote({
  dealershipId,
  timezone,
  date,
  time,
  minutes,
  className,
}: {
  dealershipId: string;
  timezone: string;
  date: string | undefined;
  time: string | undefined;
  minutes: number;
  className?: string;
}) {
  const { user } = useAuth();
  const day = date && isIsoDate(date) ? date : "";
  const agenda = useAgenda(day && time ? dealershipId : undefined, day, "mine");
  const text = agenda.data && user && day && time ? clashText(clashes(agenda.data.items, user.id, timezone, { date: day, time, minutes }), timezone) : null;
  return (
    <div role="status" aria-live="polite" data-testid="slot-clash" className={cn(!text && "sr-only", className)}>
      {text && (
        <p className="flex items-start gap-2 rounded-lg border border-warning/40 bg-warning/15 px-3 py-2 text-sm text-warning-foreground">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{text}</span>
        </p>
      )}
    </div>
  );
}
