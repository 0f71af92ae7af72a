import { ArrowUpRight, CalendarClock, KeyRound, RotateCcw, Trash2, UserRound } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { formatDuration } from "../../shared/schemas/analytics";
import { removeVehicleConfirmText, vehicleDisplayStatus, type Vehicle } from "../../shared/schemas/vehicle";
import { formatSlot, mediumDate } from "../appointments/format";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../components/ui/alert-dialog";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { Spinner } from "../components/ui/spinner";
import { cn } from "../lib/utils";
import { VehicleStatusBadge } from "./components";
import { formatMileage, formatPrice, minutesBetween, vehicleTitle } from "./format";
import { useNow } from "./LiveClock";
import { VinFacts } from "./VinFacts";

// One vehicle of the inventory (spec part 2 §2): year, make, model, trim, stock number, condition, colour, the VIN and
// what it decodes to (issue 30), price,
// mileage, its test-drive status icon and, when out, the client and the time taken out. Actions: Take Out Demo,
// Mark Returned when out, and Remove for management (confirm 'Remove {year} {make} {model} from inventory?').

const MINUTE_MS = 60_000;

export function formatTimeOfDay(iso: string, timezone: string): string {
  return new Date(iso).toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit", timeZone: timezone });
}

/** Since when and for how long a vehicle or unit has been out, counting up by the minute. */
export function OutSince({ takenOutAt, timezone }: { takenOutAt: string; timezone: string }) {
  const now = useNow(MINUTE_MS);
  return (
    <span className="tabular-nums">
      since {formatTimeOfDay(takenOutAt, timezone)} · {formatDuration(minutesBetween(takenOutAt, now))}
    </span>
  );
}

export function VehicleCard({
  vehicle,
  timezone,
  canManage,
  onTakeOut,
  onReturn,
  onRemove,
  returning,
  removing,
}: {
  vehicle: Vehicle;
  timezone: string;
  canManage: boolean;
  onTakeOut: () => void;
  onReturn: () => void;
  onRemove: () => void;
  returning: boolean;
  removing: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const status = vehicleDisplayStatus(vehicle);
  const out = vehicle.testDriveStatus === "out";
  const price = formatPrice(vehicle.price);
  const mileage = formatMileage(vehicle.mileage);
  const title = vehicleTitle(vehicle);

  return (
    <Card className={cn("flex w-full flex-col p-4 transition-opacity sm:p-5", removing && "opacity-50")} data-testid="vehicle-card" aria-label={`${title}, stock ${vehicle.stockNumber}`}>
      <div className="flex items-start justify-between gap-2">
        <VehicleStatusBadge status={status} />
        {canManage && (
          <Button
            variant="ghost"
            size="icon-sm"
            className="-mr-1.5 -mt-1.5 text-muted-foreground hover:text-destructive"
            aria-label={`Remove ${title}`}
            onClick={() => setConfirming(true)}
            disabled={removing}
          >
            <Trash2 />
          </Button>
        )}
      </div>

      <h3 className="mt-3 text-lg font-semibold leading-tight tracking-tight">{title}</h3>
      <p className="mt-0.5 min-h-5 text-sm text-muted-foreground">{vehicle.trim ?? ""}</p>

      <div className="mt-3 flex flex-wrap items-center gap-1.5 text-xs">
        <Badge variant="outline" className="font-mono">
          #{vehicle.stockNumber}
        </Badge>
        <Badge variant="secondary">{vehicle.condition === "new" ? "New" : "Used"}</Badge>
        {vehicle.exteriorColor && (
          <Badge variant="secondary" className="max-w-40">
            <span className="truncate">{vehicle.exteriorColor}</span>
          </Badge>
        )}
      </div>

      {vehicle.vin && <VinFacts vin={vehicle.vin} year={vehicle.year} className="mt-3" />}

      <dl className="mt-4 grid grid-cols-2 gap-3 border-t pt-3 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">Price</dt>
          <dd className="font-semibold tabular-nums">{price ?? <span className="font-normal text-muted-foreground">Not listed</span>}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Mileage</dt>
          <dd className="font-semibold tabular-nums">{mileage ?? <span className="font-normal text-muted-foreground">Not recorded</span>}</dd>
        </div>
      </dl>

      {out && (
        <div className="mt-4 rounded-lg border border-warning/30 bg-warning/10 p-3 text-sm" data-testid="vehicle-out">
          <p className="flex items-center gap-1.5 font-medium">
            <UserRound className="size-4 shrink-0" aria-hidden="true" />
            <span className="truncate">Out with {vehicle.currentClientName ?? "a client"}</span>
          </p>
          {vehicle.takenOutAt && (
            <p className="mt-0.5 text-xs text-warning-foreground/80">
              <OutSince takenOutAt={vehicle.takenOutAt} timezone={timezone} />
            </p>
          )}
        </div>
      )}
      {!out && vehicle.booking && (
        <div className="mt-4 rounded-lg border border-primary/20 bg-primary/5 p-3 text-sm" data-testid="vehicle-booking">
          <p className="flex items-center gap-1.5 font-medium">
            <CalendarClock className="size-4 shrink-0 text-primary" aria-hidden="true" />
            <span className="truncate">Booked for {vehicle.booking.clientName ?? "a client"}</span>
          </p>
          <p className="mt-0.5 text-xs text-muted-foreground">
            {mediumDate(vehicle.booking.testDriveDate)}
            {vehicle.booking.testDriveTime ? ` at ${formatSlot(vehicle.booking.testDriveTime)}` : ""}
          </p>
        </div>
      )}

      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        {out ? (
          <>
            <Button variant="success" className="flex-1" onClick={onReturn} disabled={returning}>
              {returning ? <Spinner /> : <RotateCcw />}
              {returning ? "Returning..." : "Mark Returned"}
            </Button>
            {vehicle.currentTestDriveId && (
              <Button asChild variant="outline" size="icon" aria-label="Open this test drive">
                <Link to={`/test-drives/${vehicle.currentTestDriveId}`}>
                  <ArrowUpRight />
                </Link>
              </Button>
            )}
          </>
        ) : (
          <Button className="flex-1" onClick={onTakeOut} disabled={status === "unavailable"}>
            <KeyRound />
            Take Out Demo
          </Button>
        )}
      </div>

      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{removeVehicleConfirmText(vehicle)}</AlertDialogTitle>
            <AlertDialogDescription>
              Stock #{vehicle.stockNumber} leaves the test-drive inventory. Its past test drives stay in the records and the analytics.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={onRemove}>
              Remove Vehicle
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
