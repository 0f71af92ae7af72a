import { useQuery } from "@tanstack/react-query";
import { CalendarPlus, CarFront } from "lucide-react";
import { Link } from "react-router";
import { vehicleDisplayStatus } from "../../shared/schemas/vehicle";
import { VEHICLE_INTEREST_LABELS, type LinkedVehicle } from "../../shared/schemas/vehicle-of-interest";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { VehicleStatusBadge } from "../test-drives/components";
import { formatPrice, vehicleTitle } from "../test-drives/format";
import { VinFacts } from "../test-drives/VinFacts";

// The lead page's vehicles of interest found in the inventory (issue 29, decision 188): what the customer asked for
// by VIN or stock number in their ADF request, as the inventory has it now, with Book Test Drive for this client and
// this vehicle. Nothing shows when the request named no vehicle of ours.

export const leadVehiclesKey = (leadId: string) => ["/api/leads", leadId, "vehicles"] as const;

function LinkedVehicleItem({ leadId, linked }: { leadId: string; linked: LinkedVehicle }) {
  const { vehicle } = linked;
  const title = `${vehicleTitle(vehicle)}${vehicle.trim ? ` ${vehicle.trim}` : ""}`;
  const status = vehicleDisplayStatus(vehicle);
  const price = formatPrice(vehicle.price);
  const book = `/test-drives/book?leadId=${encodeURIComponent(leadId)}&vehicleId=${encodeURIComponent(vehicle.id)}`;
  return (
    <li className="grid min-w-0 gap-3 rounded-lg border p-3 sm:grid-cols-[1fr_auto] sm:items-start" data-testid="lead-vehicle">
      <div className="min-w-0">
        <p className="text-xs font-medium text-muted-foreground">
          {VEHICLE_INTEREST_LABELS[linked.interest]} · matched by {linked.matchedOn === "vin" ? "VIN" : "stock number"}
        </p>
        <p className="mt-0.5 break-words font-semibold">{title}</p>
        <div className="mt-2 flex flex-wrap items-center gap-1.5 text-xs">
          <VehicleStatusBadge status={status} />
          <Badge variant="outline" className="font-mono">
            #{vehicle.stockNumber}
          </Badge>
          {price && <span className="font-semibold tabular-nums">{price}</span>}
        </div>
        {vehicle.vin && <VinFacts vin={vehicle.vin} year={vehicle.year} className="mt-2" />}
      </div>
      {status !== "unavailable" && (
        <Button asChild size="sm" className="w-full sm:w-auto">
          <Link to={book} aria-label={`Book Test Drive of the ${title}`}>
            <CalendarPlus />
            Book Test Drive
          </Link>
        </Button>
      )}
    </li>
  );
}

export function LeadVehicles({ leadId }: { leadId: string }) {
  const query = useQuery<LinkedVehicle[]>({ queryKey: leadVehiclesKey(leadId), staleTime: 30_000 });
  const linked = query.data ?? [];
  if (linked.length === 0) return null;
  return (
    <Card data-testid="lead-vehicles">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CarFront className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          {linked.length === 1 ? "Vehicle of Interest" : "Vehicles of Interest"}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid grid-cols-1 gap-2">
          {linked.map((v) => (
            <LinkedVehicleItem key={v.vehicle.id} leadId={leadId} linked={v} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
