import { BarChart3, CalendarDays, CarFront, Clock, Gauge, Trophy } from "lucide-react";
import { lazy, Suspense, useEffect } from "react";
import { useSearchParams } from "react-router";
import {
  DAILY_BREAKDOWN_VEHICLES_SHOWN,
  DEFAULT_TEST_DRIVE_ANALYTICS_PERIOD,
  formatDuration,
  TEST_DRIVE_ANALYTICS_PERIODS,
  type TestDriveAnalytics,
  type TestDriveAnalyticsPeriod,
} from "../../shared/schemas/analytics";
import { AccessDenied } from "../components/access-denied";
import { EmptyState, PageHeader } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Segmented } from "../components/ui/segmented";
import { Skeleton } from "../components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../components/ui/table";
import { useCan, useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { NoDealership } from "../dealerships/NoDealership";
import { toast } from "../lib/toast";
import { useTestDriveAnalytics } from "./api";
import { ChartSkeleton, ShareBar, StatCard, StatCardsSkeleton } from "./components";
import { perDay, shortDateTime, weekdayMonthDay } from "./format";

// /tdus (spec part 2 §2 Test Drive Analytics): a period of 1, 7, 30 or 90 days (?days=), total test drives, vehicles
// used, average duration, daily average (total ÷ days), a chart of drives per day, top vehicles, the daily breakdown
// (two vehicles then "+N more") and the recent drives (returned = completed, otherwise in progress). The chart's code
// is its own download, after the figures (decision 068). Management only (part 2 §2, §6; decision 177): anyone else
// sees Access Denied with Go Back, as on /sales-analytics, and the page asks the server nothing.

const DailyTestDrivesChart = lazy(() => import("./charts").then((m) => ({ default: m.DailyTestDrivesChart })));

const PERIOD_OPTIONS = TEST_DRIVE_ANALYTICS_PERIODS.map((days) => ({ value: String(days), label: days === 1 ? "1 Day" : `${days} Days` }));

function periodFrom(value: string | null): TestDriveAnalyticsPeriod {
  const n = Number(value);
  return (TEST_DRIVE_ANALYTICS_PERIODS as readonly number[]).includes(n) ? (n as TestDriveAnalyticsPeriod) : DEFAULT_TEST_DRIVE_ANALYTICS_PERIOD;
}

export function TestDriveAnalyticsPage() {
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
    return <AccessDenied goBack>You need management access to view test drive analytics</AccessDenied>;
  }
  return <Analytics key={dealership.id} dealershipId={dealership.id} dealershipName={dealership.name} timezone={dealership.timezone} />;
}

function Analytics({ dealershipId, dealershipName, timezone }: { dealershipId: string; dealershipName: string; timezone: string }) {
  const [params, setParams] = useSearchParams();
  const days = periodFrom(params.get("days"));
  const query = useTestDriveAnalytics(dealershipId, days);
  const data = query.data;

  useEffect(() => {
    if (query.isError) toast({ title: "Error", description: "Failed to fetch analytics", variant: "destructive" });
  }, [query.isError]);

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="Test Drive Analytics"
        description={`How ${dealershipName}'s demo vehicles are being driven.`}
        actions={
          <Segmented
            label="Period"
            value={String(days)}
            options={PERIOD_OPTIONS}
            onChange={(v) => setParams(Number(v) === DEFAULT_TEST_DRIVE_ANALYTICS_PERIOD ? {} : { days: v }, { replace: true })}
            className="w-full sm:w-auto"
          />
        }
      />
      {!data ? (
        query.isError ? (
          <Card>
            <EmptyState icon={<BarChart3 />} title="Failed to fetch analytics" action={<Button onClick={() => void query.refetch()}>Try again</Button>}>
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
    </div>
  );
}

function Figures({ data, days, timezone, updating }: { data: TestDriveAnalytics; days: number; timezone: string; updating: boolean }) {
  const periodText = days === 1 ? "today" : `in the last ${days} days`;
  const activeDays = [...data.dailyBreakdown].filter((d) => d.count > 0).reverse();
  const topMax = Math.max(0, ...data.topVehicles.map((v) => v.count));
  return (
    <div className="grid min-w-0 grid-cols-1 gap-6 transition-opacity" style={{ opacity: updating ? 0.6 : 1 }} aria-busy={updating} data-testid="test-drive-analytics">
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard label="Total Test Drives" value={data.totalTestDrives} hint={`Taken out ${periodText}`} icon={CarFront} testId="total-test-drives" />
        <StatCard label="Vehicles Used" value={data.vehiclesUsed} hint="Different vehicles driven" icon={Gauge} testId="vehicles-used" />
        {/* No returned drive has no average: "—", not "0m" (the API answers 0, part 2 §9; issue 30). */}
        <StatCard label="Average Duration" value={data.avgDuration > 0 ? formatDuration(data.avgDuration) : "—"} hint="Of the returned drives" icon={Clock} testId="average-duration" />
        <StatCard label="Daily Average" value={perDay(data.totalTestDrives, days)} hint={`Test drives a day over ${days} ${days === 1 ? "day" : "days"}`} icon={CalendarDays} testId="daily-average" />
      </div>

      {days > 1 && (
        <Card>
          <CardHeader>
            <CardTitle>Test drives per day</CardTitle>
            <CardDescription>Every day of the period on the dealership's clock.</CardDescription>
          </CardHeader>
          <CardContent>
            {/* An empty period is said, not drawn as bars of zero on an axis from 0 to 4 (issue 30). */}
            {data.dailyBreakdown.every((d) => d.count === 0) ? (
              <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground" data-testid="daily-chart-empty">
                No test drives {periodText}.
              </p>
            ) : (
              <Suspense fallback={<ChartSkeleton />}>
                <DailyTestDrivesChart days={data.dailyBreakdown} />
              </Suspense>
            )}
          </CardContent>
        </Card>
      )}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Trophy className="size-4 text-muted-foreground" aria-hidden="true" />
              Top Vehicles
            </CardTitle>
            <CardDescription>The most driven vehicles {periodText}.</CardDescription>
          </CardHeader>
          <CardContent>
            {data.topVehicles.length === 0 ? (
              <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">No test drives {periodText}.</p>
            ) : (
              <ol className="grid gap-4" data-testid="top-vehicles">
                {data.topVehicles.map((v, i) => (
                  <li key={`${v.vehicle}-${v.stockNumber ?? i}`} className="grid gap-1.5">
                    <div className="flex items-center gap-3 text-sm">
                      <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-muted text-xs font-semibold tabular-nums">{i + 1}</span>
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-medium">{v.vehicle}</span>
                        {v.stockNumber && <span className="block font-mono text-xs text-muted-foreground">#{v.stockNumber}</span>}
                      </span>
                      <span className="shrink-0 font-semibold tabular-nums">
                        {v.count} <span className="font-normal text-muted-foreground">{v.count === 1 ? "drive" : "drives"}</span>
                      </span>
                    </div>
                    <ShareBar value={v.count} max={topMax} className="ml-9 w-auto" />
                  </li>
                ))}
              </ol>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Daily Breakdown</CardTitle>
            <CardDescription>Days with test drives, newest first.</CardDescription>
          </CardHeader>
          <CardContent>
            {activeDays.length === 0 ? (
              <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">No test drives {periodText}.</p>
            ) : (
              <ul className="-mx-2 grid max-h-80 overflow-y-auto" data-testid="daily-breakdown" tabIndex={0} aria-label="Daily breakdown">
                {activeDays.map((d) => (
                  <li key={d.date} className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 rounded-md px-2 py-2 text-sm odd:bg-muted/40">
                    <span className="font-medium tabular-nums">{weekdayMonthDay(d.date)}</span>
                    <span className="row-span-2 font-semibold tabular-nums">
                      {d.count} <span className="text-xs font-normal text-muted-foreground">{d.count === 1 ? "drive" : "drives"}</span>
                    </span>
                    {/* Two names, then "+N more" (part 2 §9); the count stays visible however long the names are. */}
                    <span className="flex min-w-0 gap-1 text-xs text-muted-foreground" title={d.vehicles.join(", ")}>
                      <span className="truncate">{d.vehicles.slice(0, DAILY_BREAKDOWN_VEHICLES_SHOWN).join(", ")}</span>
                      {d.vehicles.length > DAILY_BREAKDOWN_VEHICLES_SHOWN && <span className="shrink-0">+{d.vehicles.length - DAILY_BREAKDOWN_VEHICLES_SHOWN} more</span>}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Recent Test Drives</CardTitle>
          <CardDescription>The latest drives {periodText}; returned drives are completed.</CardDescription>
        </CardHeader>
        <CardContent className="max-md:px-3">
          {data.recentTestDrives.length === 0 ? (
            <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">No test drives {periodText}.</p>
          ) : (
            <>
              <div className="hidden md:block">
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>Vehicle</TableHead>
                      <TableHead>Client</TableHead>
                      <TableHead>Taken out</TableHead>
                      <TableHead>Returned</TableHead>
                      <TableHead>Duration</TableHead>
                      <TableHead>Sales Associate</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {data.recentTestDrives.map((d) => (
                      <TableRow key={d.id} data-testid="recent-test-drive">
                        <TableCell>
                          <span className="block font-medium">{d.vehicleDriven ?? "—"}</span>
                          {d.stockNumber && <span className="font-mono text-xs text-muted-foreground">#{d.stockNumber}</span>}
                        </TableCell>
                        <TableCell>{d.clientName}</TableCell>
                        <TableCell className="whitespace-nowrap tabular-nums">{shortDateTime(d.takenOutAt, timezone)}</TableCell>
                        <TableCell className="whitespace-nowrap tabular-nums">
                          {d.returnedAt ? shortDateTime(d.returnedAt, timezone) : <Badge variant="warning">In progress</Badge>}
                        </TableCell>
                        <TableCell className="tabular-nums">{d.returnedAt ? <Badge variant="success">{formatDuration(d.duration)}</Badge> : "—"}</TableCell>
                        <TableCell>{d.salesAssociate ?? <span className="text-muted-foreground">—</span>}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
              <ul className="grid grid-cols-1 gap-2 md:hidden">
                {data.recentTestDrives.map((d) => (
                  <li key={d.id} className="rounded-lg border p-3 text-sm" data-testid="recent-test-drive-card">
                    <div className="flex items-start justify-between gap-2">
                      <span className="min-w-0">
                        <span className="block truncate font-semibold">{d.vehicleDriven ?? "—"}</span>
                        <span className="block truncate text-xs text-muted-foreground">
                          {d.clientName}
                          {d.stockNumber ? ` · #${d.stockNumber}` : ""}
                        </span>
                      </span>
                      {d.returnedAt ? <Badge variant="success">{formatDuration(d.duration)}</Badge> : <Badge variant="warning">In progress</Badge>}
                    </div>
                    <p className="mt-2 text-xs tabular-nums text-muted-foreground">
                      {shortDateTime(d.takenOutAt, timezone)}
                      {d.returnedAt ? ` → ${shortDateTime(d.returnedAt, timezone)}` : ""}
                      {d.salesAssociate ? ` · ${d.salesAssociate}` : ""}
                    </p>
                  </li>
                ))}
              </ul>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
