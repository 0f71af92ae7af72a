import { Car, CalendarClock, ExternalLink, UserRound } from "lucide-react";
import { Link } from "react-router";
import { TEST_DRIVE_STATUSES, type TestDriveStatus } from "../../shared/schemas/test-drive";
import type { AgendaItem } from "../../shared/schemas/responses/tasks";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { TestDriveStatusBadge } from "../test-drives/components";
import { cn } from "../lib/utils";
import { formatTimeInZone } from "./format";

// A test drive on the calendar's day, beside the appointments (issue 27, decision 230): its time on the dealership's
// clock, a "Test drive" badge of its own, the customer, the vehicle, its status, the rep, and links to the drive and
// the lead. It is read from the day's agenda.

const isDriveStatus = (status: string): status is TestDriveStatus => (TEST_DRIVE_STATUSES as readonly string[]).includes(status);

export function TestDriveCard({ item, timezone }: { item: AgendaItem; timezone: string }) {
  const at = formatTimeInZone(item.at, timezone);
  const [clock, half] = at.split(" ");
  const faded = item.status === "cancelled" || item.status === "no_show";
  return (
    <Card data-testid="test-drive-card" data-status={item.status} aria-label={`Test drive: ${item.name}, ${at}`} className={cn("overflow-hidden", faded && "bg-card/70")}>
      <div className="flex gap-4 p-4 sm:p-5">
        <div className="hidden w-16 shrink-0 flex-col items-center rounded-lg bg-secondary py-2 text-center sm:flex" aria-hidden="true">
          <span className="text-base font-semibold tabular-nums leading-tight">{clock}</span>
          <span className="text-[11px] font-medium uppercase tracking-wide text-muted-foreground">{half}</span>
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <h3 className={cn("break-words text-base font-semibold leading-snug", item.status === "cancelled" && "text-muted-foreground line-through decoration-1")}>{item.name}</h3>
              <p className="break-words text-sm text-muted-foreground">{item.title}</p>
            </div>
            <div className="flex shrink-0 flex-col items-end gap-1.5">
              <Badge variant="secondary" data-testid="test-drive-badge">
                <Car aria-hidden="true" />
                Test drive
              </Badge>
              {isDriveStatus(item.status) && <TestDriveStatusBadge status={item.status} />}
            </div>
          </div>
          <div className="mt-3 flex flex-wrap items-center gap-x-6 gap-y-1.5 text-sm">
            <span className="inline-flex items-center gap-1.5 font-medium">
              <CalendarClock className="size-4 text-muted-foreground" aria-hidden="true" />
              Booked: {at}
            </span>
            <span className="inline-flex min-w-0 items-center gap-2">
              <UserRound className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="min-w-0 break-words">
                <span className="text-muted-foreground">Sales Associate: </span>
                {item.assignee?.name || "Unassigned"}
              </span>
            </span>
          </div>
          <div className="mt-4 grid grid-cols-2 gap-2 border-t pt-4 sm:flex">
            <Button asChild variant="outline" size="sm" className="h-11 sm:h-9">
              <Link to={`/test-drives/${item.id}`} aria-label={`Open test drive: ${item.name}`}>
                <Car aria-hidden="true" />
                Open test drive
              </Link>
            </Button>
            {item.leadId && (
              <Button asChild variant="outline" size="sm" className="h-11 sm:h-9">
                <Link to={`/leads/detail/${item.leadId}`} aria-label={`Open lead: ${item.name}`}>
                  <ExternalLink aria-hidden="true" />
                  Open lead
                </Link>
              </Button>
            )}
          </div>
        </div>
      </div>
    </Card>
  );
}
