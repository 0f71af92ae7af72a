import { Activity, CalendarCheck, CarFront, Medal, UserCheck, Users } from "lucide-react";
import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import { ROLE_LABELS } from "../../shared/constants";
import { fullName } from "../../shared/format";
import {
  activityCount,
  DEFAULT_SALES_REP_ANALYTICS_PERIOD,
  RECENT_ACTIVITY_PER_REP,
  SALES_REP_ANALYTICS_PERIODS,
  SALES_REP_PERIOD_LABELS,
  type SalesRep,
  type SalesRepAnalytics,
  type SalesRepAnalyticsPeriod,
} from "../../shared/schemas/analytics";
import { AccessDenied } from "../components/access-denied";
import { EmptyState, PageHeader } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { useCan, useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { NoDealership } from "../dealerships/NoDealership";
import { toast } from "../lib/toast";
import { useSalesRepAnalytics } from "./api";
import { ChartSkeleton, StatCard, StatCardsSkeleton } from "./components";
import { oneDecimalText, perDay, shortMonthDay } from "./format";
import { LeadSourcesPanel } from "./LeadSourcesPanel";
import { LostReasonsPanel } from "./LostReasonsPanel";
import { SpeedToLeadPanel } from "./SpeedToLeadPanel";

// /sales-analytics (spec part 2 §2 Sales Rep Analytics), management only: Last 7 / 30 / 90 Days or Last Year (?days=,
// default 30); Sales Reps, Leads Claimed, Appointments and Test Drives; a chart of each rep's activity; Top Performers;
// Team Averages and Quick Stats to one decimal; Individual Performance with the three latest activities; "No Sales
// Reps Found". Anyone else sees Access Denied with Go Back. The chart's code is its own download (decision 068).

const RepActivityChart = lazy(() => import("./charts").then((m) => ({ default: m.RepActivityChart })));

/** The chart shows the most active reps; the list below has everyone. */
const CHART_REPS = 10;

function periodFrom(value: string | null): SalesRepAnalyticsPeriod {
  const n = Number(value);
  return (SALES_REP_ANALYTICS_PERIODS as readonly number[]).includes(n) ? (n as SalesRepAnalyticsPeriod) : DEFAULT_SALES_REP_ANALYTICS_PERIOD;
}

const repName = (rep: SalesRep) => fullName(rep) || rep.email;

export function SalesRepAnalyticsPage() {
  const { dealership, dealerships, isLoading } = useCurrentDealership();
  const { isLoading: roleLoading } = useRole();
  const allowed = useCan("managementAccess");
  if (!isLoading && dealerships.length === 0) return <NoDealership />;
  if (!dealership || roleLoading) {
    return (
      <div className="mx-auto max-w-7xl" aria-busy="true">
        <Skeleton className="h-8 w-64" />
        <div className="mt-8">
          <StatCardsSkeleton />
        </div>
      </div>
    );
  }
  if (!allowed) {
    return <AccessDenied goBack>You need management access to view sales rep analytics</AccessDenied>;
  }
  return <Analytics key={dealership.id} dealershipId={dealership.id} dealershipName={dealership.name} timezone={dealership.timezone} />;
}

function Analytics({ dealershipId, dealershipName, timezone }: { dealershipId: string; dealershipName: string; timezone: string }) {
  const [params, setParams] = useSearchParams();
  const days = periodFrom(params.get("days"));
  const query = useSalesRepAnalytics(dealershipId, days);
  const data = query.data;

  useEffect(() => {
    if (query.isError) toast({ title: "Error", description: "Failed to fetch sales rep analytics", variant: "destructive" });
  }, [query.isError]);

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="Sales Rep Analytics"
        description={`How ${dealershipName}'s sales team is doing.`}
        actions={
          <Select value={String(days)} onValueChange={(v) => setParams(Number(v) === DEFAULT_SALES_REP_ANALYTICS_PERIOD ? {} : { days: v }, { replace: true })}>
            <SelectTrigger aria-label="Period" className="w-full sm:w-44" data-testid="period-select">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {SALES_REP_ANALYTICS_PERIODS.map((p) => (
                <SelectItem key={p} value={String(p)}>
                  {SALES_REP_PERIOD_LABELS[p]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        }
      />
      {!data ? (
        query.isError ? (
          <Card>
            <EmptyState icon={<Activity />} title="Failed to fetch sales rep analytics" action={<Button onClick={() => void query.refetch()}>Try again</Button>}>
              Check your connection and try again.
            </EmptyState>
          </Card>
        ) : (
          <div className="grid gap-6">
            <StatCardsSkeleton />
            <Skeleton className="h-80 rounded-xl" />
          </div>
        )
      ) : (
        <Figures data={data} days={days} timezone={timezone} updating={query.isPlaceholderData} />
      )}
      {/* Leads by source for the same period (issue 14, decision 150). */}
      {data && (
        <div className="mt-6 transition-opacity" style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
          <LeadSourcesPanel rows={data.leadsBySource} period={SALES_REP_PERIOD_LABELS[days].toLowerCase()} />
        </div>
      )}
      {/* Lost reasons for the same period (issue 27, decision 202). */}
      {data && (
        <div className="mt-6 transition-opacity" style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
          <LostReasonsPanel rows={data.lostReasons} period={SALES_REP_PERIOD_LABELS[days].toLowerCase()} />
        </div>
      )}
      {/* Speed to lead for the same period (issue 14, decision 141). */}
      <div className="mt-6">
        <SpeedToLeadPanel dealershipId={dealershipId} days={days} />
      </div>
    </div>
  );
}

function Figures({ data, days, timezone, updating }: { data: SalesRepAnalytics; days: SalesRepAnalyticsPeriod; timezone: string; updating: boolean }) {
  const { summary, topPerformers, salesReps } = data;
  const totalActivities = summary.totalLeadsClaimed + summary.totalAppointmentsScheduled + summary.totalTestDrivesTaken;
  const activeReps = salesReps.filter((r) => activityCount(r) > 0).length;
  const chartReps = salesReps.slice(0, CHART_REPS).map((r) => ({
    name: repName(r),
    leads: r.periodStats.leadsClaimed,
    appointments: r.periodStats.appointmentsScheduled,
    testDrives: r.periodStats.testDrivesTaken,
  }));
  const period = SALES_REP_PERIOD_LABELS[days].toLowerCase();

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6 transition-opacity" style={{ opacity: updating ? 0.6 : 1 }} aria-busy={updating} data-testid="sales-rep-analytics">
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard label="Sales Reps" value={summary.totalReps} hint="On the team" icon={Users} testId="sales-reps" />
        <StatCard label="Leads Claimed" value={summary.totalLeadsClaimed} hint={`Claimed, ${period}`} icon={UserCheck} testId="leads-claimed" />
        <StatCard label="Appointments" value={summary.totalAppointmentsScheduled} hint={`Scheduled, ${period}`} icon={CalendarCheck} testId="appointments" />
        <StatCard label="Test Drives" value={summary.totalTestDrivesTaken} hint={`Taken, ${period}`} icon={CarFront} testId="test-drives" />
      </div>

      {salesReps.length === 0 ? (
        <Card>
          <EmptyState icon={<Users />} title="No Sales Reps Found">
            Invite sales reps from the Admin Panel; their claimed leads, appointments and test drives show up here.
          </EmptyState>
        </Card>
      ) : (
        <>
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
            <Card className="min-w-0 lg:col-span-2">
              <CardHeader>
                <CardTitle>Activity per rep</CardTitle>
                <CardDescription>
                  Leads claimed, appointments scheduled and test drives taken, {period}
                  {salesReps.length > CHART_REPS ? ` (the ${CHART_REPS} most active)` : ""}.
                </CardDescription>
              </CardHeader>
              <CardContent>
                {chartReps.every((r) => r.leads + r.appointments + r.testDrives === 0) ? (
                  <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground" data-testid="rep-chart-empty">
                    No activity {period}.
                  </p>
                ) : (
                  <Suspense fallback={<ChartSkeleton />}>
                    <RepActivityChart reps={chartReps} />
                  </Suspense>
                )}
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <Medal className="size-4 text-muted-foreground" aria-hidden="true" />
                  Top Performers
                </CardTitle>
              </CardHeader>
              <CardContent className="grid gap-3" data-testid="top-performers">
                <Performer title="Most Leads" rep={topPerformers.mostLeads} count={(r) => r.periodStats.leadsClaimed} unit="leads" />
                <Performer title="Most Appointments" rep={topPerformers.mostAppointments} count={(r) => r.periodStats.appointmentsScheduled} unit="appointments" />
                <Performer title="Most Test Drives" rep={topPerformers.mostTestDrives} count={(r) => r.periodStats.testDrivesTaken} unit="test drives" />
              </CardContent>
            </Card>
          </div>

          <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle>Team Averages</CardTitle>
                <CardDescription>Per rep, {period}.</CardDescription>
              </CardHeader>
              <CardContent>
                <dl className="grid grid-cols-3 gap-3" data-testid="team-averages">
                  <Figure label="Leads per Rep" value={oneDecimalText(summary.avgLeadsPerRep)} />
                  <Figure label="Appointments per Rep" value={oneDecimalText(summary.avgAppointmentsPerRep)} />
                  <Figure label="Test Drives per Rep" value={oneDecimalText(summary.avgTestDrivesPerRep)} />
                </dl>
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>Quick Stats</CardTitle>
                <CardDescription>The whole team, {period}.</CardDescription>
              </CardHeader>
              <CardContent>
                <dl className="grid grid-cols-3 gap-3" data-testid="quick-stats">
                  <Figure label="Active Sales Reps" value={String(activeReps)} />
                  <Figure label="Total Activities" value={String(totalActivities)} />
                  <Figure label="Avg per Day" value={perDay(totalActivities, days)} />
                </dl>
              </CardContent>
            </Card>
          </div>

          <Card>
            <CardHeader>
              <CardTitle>Individual Performance</CardTitle>
              <CardDescription>Most active first, with each rep's latest activity.</CardDescription>
            </CardHeader>
            <CardContent className="max-md:px-3">
              <ul className="grid max-h-[40rem] gap-3 overflow-y-auto pr-1" data-testid="individual-performance" tabIndex={0} aria-label="Individual Performance">
                {salesReps.map((rep) => (
                  <RepRow key={rep.id} rep={rep} timezone={timezone} />
                ))}
              </ul>
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-lg bg-muted/60 p-3">
      <dt className="text-xs leading-tight text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

function Performer({ title, rep, count, unit }: { title: string; rep: SalesRep | null; count: (rep: SalesRep) => number; unit: string }) {
  return (
    <div className="flex items-center gap-3 rounded-lg border p-3">
      <div className="min-w-0 flex-1">
        <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{title}</p>
        <p className="truncate text-sm font-semibold">{rep ? repName(rep) : <span className="font-normal text-muted-foreground">Nobody yet</span>}</p>
      </div>
      {rep && (
        <span className="shrink-0 text-right">
          <span className="block text-lg font-bold tabular-nums leading-none">{count(rep)}</span>
          <span className="text-[11px] text-muted-foreground">{unit}</span>
        </span>
      )}
    </div>
  );
}

const ACTIVITY_DOT = { lead: "bg-primary", appointment: "bg-success", testdrive: "bg-warning" } as const;

function RepRow({ rep, timezone }: { rep: SalesRep; timezone: string }) {
  const total = activityCount(rep);
  const stats = [
    { label: "Leads", value: rep.periodStats.leadsClaimed },
    { label: "Appointments", value: rep.periodStats.appointmentsScheduled },
    { label: "Test Drives", value: rep.periodStats.testDrivesTaken },
  ];
  return (
    <li className="rounded-lg border p-4" data-testid="rep-row">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary" aria-hidden="true">
            {(rep.firstName?.[0] ?? rep.email[0] ?? "?").toUpperCase()}
            {(rep.lastName?.[0] ?? "").toUpperCase()}
          </span>
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 font-semibold">
              <span className="truncate">{repName(rep)}</span>
              <Badge variant="secondary">{ROLE_LABELS[rep.role]}</Badge>
            </p>
            <p className="truncate text-sm text-muted-foreground">{rep.email}</p>
          </div>
        </div>
        <Badge variant={total > 0 ? "primary" : "outline"} className="self-start" data-testid="rep-activity-count">
          {total} {total === 1 ? "activity" : "activities"}
        </Badge>
      </div>
      <dl className="mt-3 grid grid-cols-3 gap-2">
        {stats.map((s) => (
          <div key={s.label} className="rounded-md bg-muted/60 px-3 py-2">
            <dt className="text-[11px] text-muted-foreground">{s.label}</dt>
            <dd className="text-base font-semibold tabular-nums">{s.value}</dd>
          </div>
        ))}
      </dl>
      {rep.recentActivity.length > 0 && (
        <ul className="mt-3 grid gap-1.5 border-t pt-3">
          {rep.recentActivity.slice(0, RECENT_ACTIVITY_PER_REP).map((a, i) => (
            <li key={i} className="flex items-center gap-2 text-sm">
              <span className={`size-1.5 shrink-0 rounded-full ${ACTIVITY_DOT[a.type]}`} aria-hidden="true" />
              <span className="min-w-0 flex-1 truncate">{a.description}</span>
              <span className="shrink-0 text-xs tabular-nums text-muted-foreground">{shortMonthDay(a.date, timezone)}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
