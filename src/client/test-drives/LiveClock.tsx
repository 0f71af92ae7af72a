import { Clock } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "../lib/utils";
import { clockText, zoneCity } from "./format";

// The booking screen's clock (spec part 2 §2, §9): the time on the dealership's clock (Toronto for the demo
// dealerships), refreshed every second, whatever zone the browser is in.

const CLOCK_TICK_MS = 1000;

export function useNow(intervalMs = CLOCK_TICK_MS): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function LiveClock({ timezone, className }: { timezone: string; className?: string }) {
  const now = useNow();
  const { date, time } = clockText(now, timezone);
  return (
    <div className={cn("flex min-w-0 max-w-full items-center gap-3 rounded-xl border bg-card px-4 py-3 shadow-xs", className)} data-testid="live-clock">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <Clock className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <p className="text-lg font-semibold tabular-nums leading-tight" data-testid="live-clock-time">
          {time}
        </p>
        <p className="truncate text-xs text-muted-foreground">
          {date} · {zoneCity(timezone)} time
        </p>
      </div>
    </div>
  );
}
