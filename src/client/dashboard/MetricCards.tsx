import { CalendarCheck, Car, Minus, TrendingDown, TrendingUp, UserPlus, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { can } from "../../shared/permissions";
import { Card } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useMetrics, useNewLeadsCount } from "../leads/api";
import { cn } from "../lib/utils";
import type { DashboardSectionProps } from "./sections";
import { useDeferredRead } from "../lib/use-deferred-read";

// The dashboard's three cards (spec part 1 §2.3): New Leads, Appointments Created, Test Drives Completed, today on the
// dealership's clock, each with its percent change from yesterday: green when up, red when down, and grey when it did
// not move (the spec's "green if zero or more" made 0 against 0 look like good news; issue 30, decision 224).

// Every card counts today only, while the sidebar's New Leads badge counts every lead nobody has claimed: each says
// what it counts, and the New Leads card names the badge's number too (issue 12).

function MetricCard({ title, value, change, icon: Icon, note }: { title: string; value: number; change: number; icon: LucideIcon; note: ReactNode }) {
  const trend = change > 0 ? "up" : change < 0 ? "down" : "flat";
  const Trend = { up: TrendingUp, down: TrendingDown, flat: Minus }[trend];
  return (
    <Card className="p-5" data-testid="metric-card">
      <div className="flex items-start justify-between gap-3">
        <p className="text-sm font-medium text-muted-foreground">{title}</p>
        <span className="flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-[18px]" aria-hidden="true" />
        </span>
      </div>
      <p className="mt-2 text-3xl font-bold tabular-nums tracking-tight">{value}</p>
      <p className="text-xs text-muted-foreground" data-testid="metric-note">
        {note}
      </p>
      <p className="mt-1 flex items-center gap-1.5 text-sm">
        <span
          data-testid="metric-change"
          data-trend={trend}
          className={cn(
            "inline-flex items-center gap-1 font-semibold tabular-nums",
            { up: "text-success", down: "text-destructive", flat: "text-muted-foreground" }[trend],
          )}
        >
          <Trend className="size-4" aria-hidden="true" />
          {trend === "up" ? "+" : ""}
          {change}%
        </span>
        <span className="text-muted-foreground">from yesterday</span>
      </p>
    </Card>
  );
}

function WaitingToBeClaimed({ dealershipId }: { dealershipId: string }) {
  const count = useNewLeadsCount(dealershipId);
  if (!count) return null;
  return (
    <>
      {" · "}
      <Link to="/leads/new" className="font-medium text-primary hover:underline" data-testid="metric-unclaimed">
        {count.more ? `${count.count}+` : count.count} waiting to be claimed
      </Link>
    </>
  );
}

export function MetricCards({ dealership, role }: DashboardSectionProps) {
  const metrics = useDeferredRead(useMetrics(dealership.id));
  if (metrics.isPending) {
    return (
      <div className="grid gap-4 sm:grid-cols-3" role="status" aria-busy="true" aria-label="Loading today's numbers">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-[132px] rounded-xl" />
        ))}
      </div>
    );
  }
  if (metrics.isError || !metrics.data) {
    return <p className="rounded-xl border bg-card p-5 text-sm text-muted-foreground">Today&rsquo;s numbers could not be loaded.</p>;
  }
  const m = metrics.data;
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <MetricCard
        title="New Leads"
        value={m.newLeadsToday}
        change={m.newLeadsTodayChange}
        icon={UserPlus}
        note={
          <>
            Created today
            {can(role, "accessNewLeads") && <WaitingToBeClaimed dealershipId={dealership.id} />}
          </>
        }
      />
      <MetricCard title="Appointments Created" value={m.appointmentsScheduledToday} change={m.appointmentsScheduledTodayChange} icon={CalendarCheck} note="Booked today" />
      <MetricCard title="Test Drives Completed" value={m.testDrivesCompletedToday} change={m.testDrivesCompletedTodayChange} icon={Car} note="Finished today" />
    </div>
  );
}
