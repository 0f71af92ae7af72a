import { CalendarDays, CalendarPlus } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useLeadAppointments } from "./api";
import { formatSlot, mediumDate, statusBadge } from "./format";

// The lead detail page's appointment list (spec part 2 Lead detail): title, status, date, time, description,
// from GET /api/appointments?leadId= (decision 022). Drop it into the lead page: <LeadAppointments leadId={id} />.

export function LeadAppointments({ leadId }: { leadId: string }) {
  const query = useLeadAppointments(leadId);
  const items = query.data ?? [];
  return (
    <Card data-testid="lead-appointments">
      <CardHeader className="flex-row items-center justify-between gap-3 space-y-0">
        <CardTitle>Appointments</CardTitle>
        <Button asChild variant="outline" size="sm">
          <Link to={`/appointments/new?leadId=${encodeURIComponent(leadId)}`}>
            <CalendarPlus />
            Schedule
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <Skeleton className="h-16 rounded-lg" />
            <Skeleton className="h-16 rounded-lg" />
          </div>
        ) : query.isError ? (
          <p className="text-sm text-muted-foreground">Appointments could not be loaded.</p>
        ) : items.length === 0 ? (
          <div className="flex items-center gap-3 rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            <CalendarDays className="size-5 shrink-0" aria-hidden="true" />
            No appointments for this lead yet.
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-2">
            {items.map((a) => {
              const badge = statusBadge(a.status);
              // part 2 §4: on the lead page only scheduled, completed and cancelled are styled; others are neutral.
              const variant = ["scheduled", "completed", "cancelled"].includes(a.status) ? badge.variant : "secondary";
              return (
                <li key={a.id} className="rounded-lg border p-3" data-testid="lead-appointment">
                  <div className="flex items-start justify-between gap-2">
                    <Link to={`/calendar?date=${a.date}`} className="min-w-0 break-words text-sm font-semibold hover:underline">
                      {a.title}
                    </Link>
                    <Badge variant={variant}>{badge.label}</Badge>
                  </div>
                  <p className="mt-1 text-xs tabular-nums text-muted-foreground">
                    {mediumDate(a.date)} · {formatSlot(a.time)}
                  </p>
                  {a.description && <p className="mt-1.5 line-clamp-3 text-sm text-muted-foreground">{a.description}</p>}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
