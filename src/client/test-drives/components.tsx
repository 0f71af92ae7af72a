import { Ban, CalendarClock, CheckCircle2, KeyRound, type LucideIcon } from "lucide-react";
import { TEST_DRIVE_DETAIL_STATUS_LABELS, detailStatusOf, type TestDriveStatus } from "../../shared/schemas/test-drive";
import type { VehicleDisplayStatus } from "../../shared/schemas/vehicle";
import { Badge } from "../components/ui/badge";
import { cn } from "../lib/utils";

// Pieces shared by the test-drive screens: the inventory's four status icons (part 2 §2) and a drive's status badge.

type BadgeVariant = "primary" | "success" | "warning" | "destructive" | "secondary";

export const VEHICLE_STATUS_LOOK: Record<VehicleDisplayStatus, { label: string; icon: LucideIcon; variant: BadgeVariant; dot: string }> = {
  available: { label: "Available", icon: CheckCircle2, variant: "success", dot: "bg-success" },
  out: { label: "Out on test drive", icon: KeyRound, variant: "warning", dot: "bg-warning" },
  booked: { label: "Booked", icon: CalendarClock, variant: "primary", dot: "bg-primary" },
  unavailable: { label: "Unavailable", icon: Ban, variant: "secondary", dot: "bg-muted-foreground" },
};

export function VehicleStatusBadge({ status, className }: { status: VehicleDisplayStatus; className?: string }) {
  const look = VEHICLE_STATUS_LOOK[status];
  const Icon = look.icon;
  return (
    <Badge variant={look.variant} className={className} data-testid="vehicle-status" data-status={status}>
      <Icon aria-hidden="true" />
      {look.label}
    </Badge>
  );
}

/**
 * A drive's status as the detail screen names it (decision 063: stored "out" is "In Progress"). Part 2 §4 styles
 * scheduled, completed and cancelled (on the lead page the others stay neutral: `neutralOthers`); elsewhere "In
 * Progress" gets the inventory's "out" colour so both screens agree.
 */
export function TestDriveStatusBadge({ status, className, neutralOthers = false }: { status: TestDriveStatus; className?: string; neutralOthers?: boolean }) {
  const shown = detailStatusOf(status);
  const variant: BadgeVariant =
    shown === "scheduled"
      ? "primary"
      : shown === "completed"
        ? "success"
        : shown === "cancelled"
          ? "destructive"
          : shown === "in_progress" && !neutralOthers
            ? "warning"
            : "secondary";
  return (
    <Badge variant={variant} className={cn(className)} data-testid="test-drive-status">
      {TEST_DRIVE_DETAIL_STATUS_LABELS[shown]}
    </Badge>
  );
}
