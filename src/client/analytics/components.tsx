import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { cn } from "../lib/utils";

// Pieces of both analytics screens: the figure cards and the loading placeholders.

export function StatCard({ label, value, hint, icon: Icon, testId }: { label: string; value: ReactNode; hint?: ReactNode; icon: LucideIcon; testId?: string }) {
  return (
    <Card className="p-4 sm:p-5" data-testid={testId ?? "stat-card"}>
      <div className="flex items-start justify-between gap-3">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-[18px]" aria-hidden="true" />
        </span>
      </div>
      <p className="mt-2 text-2xl font-bold tabular-nums tracking-tight sm:text-3xl" data-testid="stat-value">
        {value}
      </p>
      {hint && <p className="mt-1 text-xs text-muted-foreground">{hint}</p>}
    </Card>
  );
}

export function StatCardsSkeleton({ count = 4 }: { count?: number }) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-busy="true">
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} className="h-[120px] rounded-xl" />
      ))}
    </div>
  );
}

/** A chart's place while the charting code downloads (it comes after the figures). */
export function ChartSkeleton({ className }: { className?: string }) {
  return <Skeleton className={cn("h-60 w-full rounded-lg", className)} aria-label="Loading chart" />;
}

/** A thin bar showing a share of the largest value (top vehicles, per-rep counts). */
export function ShareBar({ value, max, className }: { value: number; max: number; className?: string }) {
  const width = max > 0 ? Math.max(4, Math.round((value / max) * 100)) : 0;
  return (
    <div className={cn("h-1.5 w-full overflow-hidden rounded-full bg-muted", className)} aria-hidden="true">
      <div className="h-full rounded-full bg-primary" style={{ width: `${width}%` }} />
    </div>
  );
}
