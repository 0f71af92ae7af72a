import { Timer } from "lucide-react";
import { formatResponseTime, SPEED_TO_LEAD_DASHBOARD_DAYS } from "../../shared/speed-to-lead";
import type { SpeedFigures } from "../../shared/schemas/speed-to-lead";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useSpeedToLead } from "../leads/duplicates-api";
import type { DashboardSectionProps } from "./sections";
import { useDeferredRead } from "../lib/use-deferred-read";

// Speed-to-lead on the dashboard (issue 14; decisions 140, 141): how fast the dealership answered the leads of the
// last 7 days on its clock: the median wait and the share answered within 5 and 15 minutes.

const percent = (share: number | null) => (share === null ? "—" : `${Math.round(share * 100)}%`);

/** The three figures, shared with the sales-rep analytics. */
export function SpeedFiguresRow({ figures }: { figures: SpeedFigures }) {
  const unanswered = figures.arrived - figures.answered;
  return (
    <>
      <dl className="grid grid-cols-3 gap-3">
        {[
          { label: "Median answer", testId: "speed-median", value: formatResponseTime(figures.medianSeconds) },
          { label: "Within 5 min", testId: "speed-within5", value: percent(figures.within5Share) },
          { label: "Within 15 min", testId: "speed-within15", value: percent(figures.within15Share) },
        ].map((figure) => (
          <div key={figure.testId} className="grid gap-1">
            <dt className="text-xs font-medium text-muted-foreground">{figure.label}</dt>
            <dd className="text-2xl font-bold tabular-nums tracking-tight" data-testid={figure.testId}>
              {figure.value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-muted-foreground" data-testid="speed-counts">
        {figures.arrived} {figures.arrived === 1 ? "lead" : "leads"} arrived
        {unanswered > 0 ? ` · ${unanswered} not answered yet` : ""}
      </p>
    </>
  );
}

export function SpeedToLeadCard({ dealership }: DashboardSectionProps) {
  const query = useDeferredRead(useSpeedToLead(dealership.id, SPEED_TO_LEAD_DASHBOARD_DAYS));
  return (
    <Card data-testid="speed-to-lead-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Timer className="size-5 text-primary" aria-hidden="true" />
          Speed to Lead
        </CardTitle>
        <CardDescription>Time from a lead&apos;s arrival to its first claim, call or status change, last 7 days</CardDescription>
      </CardHeader>
      <CardContent>
        {query.data ? (
          <SpeedFiguresRow figures={query.data.dealership} />
        ) : query.isError ? (
          <p className="text-sm text-muted-foreground">The figures could not be loaded.</p>
        ) : (
          <Skeleton className="h-16 w-full" />
        )}
      </CardContent>
    </Card>
  );
}
