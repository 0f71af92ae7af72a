import { CalendarClock, ChevronRight, KeyRound, Undo2 } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { fullName } from "../../shared/format";
import { formatDuration } from "../../shared/schemas/analytics";
import type { TestDrive } from "../../shared/schemas/test-drive";
import { formatSlot, mediumDate } from "../appointments/format";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useDealershipTestDrives } from "./api";
import { TestDriveStatusBadge } from "./components";
import { OutSince } from "./VehicleCard";

// The drives tab of /test-drives: who is out right now (inventory, units and manual entries alike), the bookings from
// today on, soonest first, and the drives that came back, most recent first (a returned drive used to vanish from every
// tab; issue 30) (GET /api/dealerships/{id}/test-drives?status=..., decision 064). Each opens its details.

function DriveRow({ drive, children }: { drive: TestDrive; children: ReactNode }) {
  return (
    <li>
      <Link
        to={`/test-drives/${drive.id}`}
        className="flex items-center gap-3 px-4 py-3 transition-colors hover:bg-muted/60 focus-visible:bg-muted/60 focus-visible:outline-none sm:px-6"
        data-testid="drive-row"
      >
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold">{fullName(drive)}</p>
          <p className="truncate text-xs text-muted-foreground">
            {drive.vehicleDriven ?? "Vehicle not recorded"}
            {drive.stockNumber ? ` · #${drive.stockNumber}` : ""}
          </p>
        </div>
        <div className="shrink-0 text-right text-xs text-muted-foreground">{children}</div>
        <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      </Link>
    </li>
  );
}

function DriveList({ title, description, icon, query, empty, render }: {
  title: string;
  description: string;
  icon: ReactNode;
  query: { isPending: boolean; isError: boolean; data?: TestDrive[] };
  empty: string;
  render: (drive: TestDrive) => ReactNode;
}) {
  const drives = query.data ?? [];
  return (
    <Card>
      <CardHeader className="flex-row items-start gap-3 space-y-0">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-[18px]">{icon}</span>
        <div>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="px-0 sm:px-0">
        {query.isPending ? (
          <div className="grid gap-2 px-4 sm:px-6" aria-busy="true">
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : query.isError ? (
          <p className="px-4 text-sm text-muted-foreground sm:px-6">These drives could not be loaded.</p>
        ) : drives.length === 0 ? (
          <p className="mx-4 rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground sm:mx-6">{empty}</p>
        ) : (
          <ul className="divide-y border-y">{drives.map(render)}</ul>
        )}
      </CardContent>
    </Card>
  );
}

/** When a drive came back, on the dealership's clock: "Nov 27, 3:40 PM". */
function returnedAt(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: timezone }).format(new Date(iso));
}

export function DrivesPanel({ dealershipId, timezone }: { dealershipId: string; timezone: string }) {
  const out = useDealershipTestDrives(dealershipId, "out");
  const booked = useDealershipTestDrives(dealershipId, "scheduled");
  const returned = useDealershipTestDrives(dealershipId, "completed");
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <DriveList
        title="Out now"
        description="Every vehicle on a test drive at this moment."
        icon={<KeyRound />}
        query={out}
        empty="No vehicle is out right now."
        render={(drive) => (
          <DriveRow key={drive.id} drive={drive}>
            {drive.takenOutAt ? <OutSince takenOutAt={drive.takenOutAt} timezone={timezone} /> : <TestDriveStatusBadge status={drive.status} />}
          </DriveRow>
        )}
      />
      <DriveList
        title="Upcoming bookings"
        description="Booked test drives from today on, soonest first."
        icon={<CalendarClock />}
        query={booked}
        empty="No test drive is booked."
        render={(drive) => (
          <DriveRow key={drive.id} drive={drive}>
            <span className="block font-medium text-foreground">{drive.testDriveDate ? mediumDate(drive.testDriveDate) : "Date TBD"}</span>
            {drive.testDriveTime && <span className="tabular-nums">{formatSlot(drive.testDriveTime)}</span>}
          </DriveRow>
        )}
      />
      <div className="lg:col-span-2">
        <DriveList
          title="Returned"
          description="Drives that came back, most recent first."
          icon={<Undo2 />}
          query={returned}
          empty="No test drive has come back yet."
          render={(drive) => (
            <DriveRow key={drive.id} drive={drive}>
              <span className="block font-medium text-foreground">{drive.returnedAt ? returnedAt(drive.returnedAt, timezone) : "Returned"}</span>
              {drive.duration !== null && <span className="tabular-nums">{formatDuration(drive.duration)}</span>}
            </DriveRow>
          )}
        />
      </div>
    </div>
  );
}
