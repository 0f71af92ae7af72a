import { CalendarClock, CalendarDays, CalendarPlus } from "lucide-react";
import { Link } from "react-router";
import { APPOINTMENT_SKELETONS, UPCOMING_APPOINTMENTS_SHOWN } from "../../shared/constants";
import { fullName } from "../../shared/format";
import { EmptyState } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import type { DashboardSectionProps } from "../dashboard/sections";
import { useUpcomingAppointments } from "./api";
import { statusBadge } from "./format";
import { useDeferredRead } from "../lib/use-deferred-read";

// The dashboard's upcoming-appointments panel (spec part 1 §2.3): the next 5 on the dealership's clock (the server
// applies the rule, decision 021), each with date (YYYY-MM-DD), time (HH:MM), title, names and the Sales Associate,
// and a status badge; 3 skeletons while loading.

export function UpcomingAppointments({ dealership }: DashboardSectionProps) {
  const upcoming = useDeferredRead(useUpcomingAppointments(dealership.id));
  const items = (upcoming.data ?? []).slice(0, UPCOMING_APPOINTMENTS_SHOWN);

  return (
    <Card className="h-full" data-testid="upcoming-appointments">
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0">
        <div>
          <CardTitle>Upcoming Appointments</CardTitle>
          <CardDescription>Your next visits</CardDescription>
        </div>
        <Button asChild variant="ghost" size="sm" className="-mr-2 text-primary">
          <Link to="/calendar">View Calendar</Link>
        </Button>
      </CardHeader>
      <CardContent className="@container">
        {upcoming.isPending ? (
          <ul className="grid grid-cols-1 gap-3 @xl:grid-cols-2 @4xl:grid-cols-3" aria-busy="true" aria-label="Loading upcoming appointments">
            {Array.from({ length: APPOINTMENT_SKELETONS }, (_, i) => (
              <li key={i} data-testid="upcoming-skeleton" className="rounded-lg border p-3">
                <Skeleton className="h-4 w-32" />
                <Skeleton className="mt-2 h-4 w-48" />
                <Skeleton className="mt-2 h-3 w-40" />
              </li>
            ))}
          </ul>
        ) : upcoming.isError ? (
          <p className="py-6 text-center text-sm text-muted-foreground">Upcoming appointments could not be loaded.</p>
        ) : items.length === 0 ? (
          <EmptyState
            className="py-8"
            icon={<CalendarDays />}
            title="No upcoming appointments"
            action={
              <Button asChild variant="outline" size="sm">
                <Link to="/appointments/new">
                  <CalendarPlus />
                  Schedule Appointment
                </Link>
              </Button>
            }
          >
            Appointments you schedule will show up here.
          </EmptyState>
        ) : (
          // The panel may be a narrow column or a full-width row (dashboard layout): lay the items out to fit.
          <ul className="grid grid-cols-1 gap-2.5 @xl:grid-cols-2 @4xl:grid-cols-3">
            {items.map((a) => {
              const badge = statusBadge(a.status);
              return (
                <li key={a.id}>
                  <Link
                    to={`/calendar?date=${a.date}`}
                    className="block rounded-lg border p-3 transition-colors hover:bg-muted/50 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40"
                    data-testid="upcoming-appointment"
                  >
                    <div className="flex items-start justify-between gap-2">
                      <span className="inline-flex items-center gap-1.5 whitespace-nowrap text-xs font-medium tabular-nums text-muted-foreground">
                        <CalendarClock className="size-3.5" aria-hidden="true" />
                        {a.date} · {a.time}
                      </span>
                      <Badge variant={badge.variant}>{badge.label}</Badge>
                    </div>
                    <p className="mt-1.5 line-clamp-2 break-words text-sm font-semibold">{a.title}</p>
                    <p className="truncate text-sm">{fullName(a)}</p>
                    <p className="mt-0.5 truncate text-xs text-muted-foreground">
                      Sales Associate: {a.assignedToUser ? fullName(a.assignedToUser) : "Unassigned"}
                    </p>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
