import { CalendarPlus, CarFront } from "lucide-react";
import { Link } from "react-router";
import { detailStatusOf, type TestDrive } from "../../shared/schemas/test-drive";
import { formatSlot, mediumDate } from "../appointments/format";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Button } from "../components/ui/button";
import { Skeleton } from "../components/ui/skeleton";
import { useLeadTestDrives } from "../test-drives/api";
import { TestDriveStatusBadge } from "../test-drives/components";

// The lead detail page's test drives (spec part 2 Lead detail): vehicleDriven, status, date or 'Date TBD', time and
// notes, from GET /api/test-drives?leadId= (decision 064); each opens its details, and "Book" starts a booking for
// this client.

function DriveItem({ drive }: { drive: TestDrive }) {
  return (
    <li className="rounded-lg border p-3" data-testid="lead-test-drive" data-status={detailStatusOf(drive.status)}>
      <div className="flex items-start justify-between gap-2">
        <Link to={`/test-drives/${drive.id}`} className="min-w-0 break-words text-sm font-semibold hover:underline">
          {drive.vehicleDriven ?? "Test drive"}
        </Link>
        <TestDriveStatusBadge status={drive.status} neutralOthers />
      </div>
      <p className="mt-1 text-xs tabular-nums text-muted-foreground">
        {drive.testDriveDate ? mediumDate(drive.testDriveDate) : "Date TBD"}
        {drive.testDriveTime ? ` · ${formatSlot(drive.testDriveTime)}` : ""}
      </p>
      {drive.notes && <p className="mt-1.5 line-clamp-3 text-sm text-muted-foreground">{drive.notes}</p>}
    </li>
  );
}

export function LeadTestDrives({ leadId }: { leadId: string }) {
  const query = useLeadTestDrives(leadId);
  const drives = query.data ?? [];
  return (
    <Card data-testid="lead-test-drives">
      <CardHeader className="flex-row items-center justify-between gap-3 space-y-0">
        <CardTitle>Test Drives</CardTitle>
        <Button asChild variant="outline" size="sm">
          <Link to={`/test-drives/book?leadId=${encodeURIComponent(leadId)}`}>
            <CalendarPlus />
            Book
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <Skeleton className="h-16 rounded-lg" />
          </div>
        ) : query.isError ? (
          <p className="text-sm text-muted-foreground">Test drives could not be loaded.</p>
        ) : drives.length === 0 ? (
          <div className="flex items-center gap-3 rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            <CarFront className="size-5 shrink-0" aria-hidden="true" />
            No test drives for this lead yet.
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-2">
            {drives.map((drive) => (
              <DriveItem key={drive.id} drive={drive} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
