import { CalendarPlus, CarFront, KeyRound, ListChecks, Plus, RotateCcw, SearchX, SlidersHorizontal } from "lucide-react";
import { useDeferredValue, useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { Vehicle, VehicleCondition } from "../../shared/schemas/vehicle";
import { EmptyState, PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Input } from "../components/ui/input";
import { SearchInput } from "../components/ui/search-input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/tabs";
import { useCan, useCurrentDealership } from "../dealerships/dealership-context";
import { NoDealership } from "../dealerships/NoDealership";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { AddVehicleDialog } from "./AddVehicleDialog";
import { useRemoveVehicle, useReturnVehicle, useVehicles } from "./api";
import { VEHICLE_STATUS_LOOK } from "./components";
import { DemoUnitsPanel } from "./DemoUnitsPanel";
import { DrivesPanel } from "./DrivesPanel";
import { vehicleTitle } from "./format";
import { TakeOutDialog } from "./TakeOutDialog";
import { VehicleCard } from "./VehicleCard";

// /test-drives (spec part 2 §2 Test drive inventory): the vehicles kept for test drives with search and filters, each
// with its status icon; Take Out Demo, Mark Returned, and Add Vehicle / remove for management. Tabs add the demo units
// and the drives out now or booked. ?tab=units|drives opens those tabs (decision 067).

const ANY = "any";
type Tab = "inventory" | "units" | "drives";

export function TestDrivesPage() {
  const { dealership, dealerships, isLoading } = useCurrentDealership();
  if (!isLoading && dealerships.length === 0) return <NoDealership />;
  if (!dealership) {
    return (
      <div className="mx-auto max-w-7xl" aria-busy="true">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="mt-8 h-28 rounded-xl" />
        <div className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-72 rounded-xl" />
          ))}
        </div>
      </div>
    );
  }
  return <Inventory key={dealership.id} dealershipId={dealership.id} dealershipName={dealership.name} timezone={dealership.timezone} />;
}

function Inventory({ dealershipId, dealershipName, timezone }: { dealershipId: string; dealershipName: string; timezone: string }) {
  const canManage = useCan("manageVehicles");
  const [params, setParams] = useSearchParams();
  const requestedTab = params.get("tab");
  const tab: Tab = requestedTab === "units" || requestedTab === "drives" ? requestedTab : "inventory";
  const [adding, setAdding] = useState(false);
  const [takingOut, setTakingOut] = useState<Vehicle | null>(null);
  const [choosingVehicle, setChoosingVehicle] = useState(false);

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="Test Drives"
        description={`Demo vehicles at ${dealershipName}: who has one out, and what is free to drive.`}
        actions={
          <>
            <Button variant="outline" onClick={() => setChoosingVehicle(true)}>
              <KeyRound />
              Take Out Demo
            </Button>
            <Button asChild variant={canManage ? "outline" : "default"}>
              <Link to="/test-drives/book">
                <CalendarPlus />
                Book Test Drive
              </Link>
            </Button>
            {canManage && (
              <Button onClick={() => setAdding(true)}>
                <Plus />
                Add Vehicle
              </Button>
            )}
          </>
        }
      />

      <Tabs value={tab} onValueChange={(value) => setParams(value === "inventory" ? {} : { tab: value }, { replace: true })}>
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="inventory" className="flex-1 sm:flex-none">
            <CarFront aria-hidden="true" /> Inventory
          </TabsTrigger>
          <TabsTrigger value="units" className="flex-1 sm:flex-none">
            <KeyRound aria-hidden="true" /> Demo Units
          </TabsTrigger>
          <TabsTrigger value="drives" className="flex-1 sm:flex-none">
            <ListChecks aria-hidden="true" /> Drives
          </TabsTrigger>
        </TabsList>
        <TabsContent value="inventory" className="min-w-0">
          <VehicleInventory
            dealershipId={dealershipId}
            timezone={timezone}
            canManage={canManage}
            onAdd={() => setAdding(true)}
            onTakeOut={setTakingOut}
          />
        </TabsContent>
        <TabsContent value="units" className="min-w-0">
          <DemoUnitsPanel dealershipId={dealershipId} timezone={timezone} canManage={canManage} />
        </TabsContent>
        <TabsContent value="drives" className="min-w-0">
          <DrivesPanel dealershipId={dealershipId} timezone={timezone} />
        </TabsContent>
      </Tabs>

      {canManage && <AddVehicleDialog open={adding} onOpenChange={setAdding} dealershipId={dealershipId} />}
      <TakeOutDialog open={takingOut !== null} onOpenChange={(open) => !open && setTakingOut(null)} dealershipId={dealershipId} timezone={timezone} vehicle={takingOut ?? undefined} />
      <TakeOutDialog open={choosingVehicle} onOpenChange={setChoosingVehicle} dealershipId={dealershipId} timezone={timezone} />
    </div>
  );
}

function VehicleInventory({
  dealershipId,
  timezone,
  canManage,
  onAdd,
  onTakeOut,
}: {
  dealershipId: string;
  timezone: string;
  canManage: boolean;
  onAdd: () => void;
  onTakeOut: (vehicle: Vehicle) => void;
}) {
  const [search, setSearch] = useState("");
  const [condition, setCondition] = useState<VehicleCondition | "">("");
  const [status, setStatus] = useState<"available" | "out" | "">("");
  const [year, setYear] = useState("");
  const q = useDeferredValue(search.trim());
  const list = useVehicles(dealershipId, { q, condition, status, year });
  const returnVehicle = useReturnVehicle(dealershipId);
  const removeVehicle = useRemoveVehicle(dealershipId);
  const filtered = q !== "" || condition !== "" || status !== "" || year !== "";

  function markReturned(vehicle: Vehicle) {
    returnVehicle.mutate(vehicle.id, {
      onSuccess: () => toast({ title: "Demo Returned", description: `${vehicleTitle(vehicle)} is available again.`, variant: "success" }),
      onError: (error) => toast({ title: "Error", description: serverMessage(error, "Failed to return demo vehicle"), variant: "destructive" }),
    });
  }

  function remove(vehicle: Vehicle) {
    removeVehicle.mutate(vehicle.id, {
      onSuccess: () => toast({ title: "Vehicle Removed", description: `${vehicleTitle(vehicle)} was removed from the inventory.`, variant: "success" }),
      onError: (error) => toast({ title: "Error", description: serverMessage(error, "Failed to remove vehicle."), variant: "destructive" }),
    });
  }

  function clearFilters() {
    setSearch("");
    setCondition("");
    setStatus("");
    setYear("");
  }

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="flex-row items-center justify-between gap-3 space-y-0 pb-3 sm:pb-4">
          <CardTitle className="flex items-center gap-2">
            <SlidersHorizontal className="size-4 text-muted-foreground" aria-hidden="true" />
            Vehicle Search &amp; Filters
          </CardTitle>
          {filtered && (
            <Button variant="ghost" size="sm" onClick={clearFilters}>
              <RotateCcw />
              Clear
            </Button>
          )}
        </CardHeader>
        <CardContent className="grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
          <SearchInput value={search} onValueChange={setSearch} placeholder="Search make, model, stock # or VIN" label="Search vehicles" className="col-span-2 lg:col-span-1" />
          <Select value={condition || ANY} onValueChange={(v) => setCondition(v === ANY ? "" : (v as VehicleCondition))}>
            <SelectTrigger aria-label="Condition" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Any condition</SelectItem>
              <SelectItem value="new">New</SelectItem>
              <SelectItem value="used">Used</SelectItem>
            </SelectContent>
          </Select>
          <Select value={status || ANY} onValueChange={(v) => setStatus(v === ANY ? "" : (v as "available" | "out"))}>
            <SelectTrigger aria-label="Test drive status" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Any status</SelectItem>
              <SelectItem value="available">Available</SelectItem>
              <SelectItem value="out">Out on test drive</SelectItem>
            </SelectContent>
          </Select>
          <Input
            inputMode="numeric"
            maxLength={4}
            value={year}
            onChange={(e) => setYear(e.target.value.replace(/\D/g, ""))}
            placeholder="Year"
            aria-label="Year"
            className="col-span-2 lg:col-span-1"
          />
        </CardContent>
      </Card>

      <StatusLegend />

      {list.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" role="status" aria-busy="true" aria-label="Loading vehicles">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-72 rounded-xl" />
          ))}
        </div>
      ) : list.isError && list.items.length === 0 ? (
        <Card>
          <EmptyState title="Vehicles could not be loaded" action={<Button onClick={() => void list.refetch()}>Try again</Button>}>
            Check your connection and try again.
          </EmptyState>
        </Card>
      ) : list.items.length === 0 ? (
        <Card>
          {filtered ? (
            <EmptyState icon={<SearchX />} title="No vehicles match" action={<Button variant="outline" onClick={clearFilters}>Clear filters</Button>}>
              Try another search or fewer filters.
            </EmptyState>
          ) : (
            <EmptyState
              icon={<CarFront />}
              title="No vehicles in the inventory"
              action={
                canManage ? (
                  <Button onClick={onAdd}>
                    <Plus />
                    Add Vehicle
                  </Button>
                ) : undefined
              }
            >
              {canManage ? "Add the vehicles your team takes out for test drives." : "Management adds the vehicles available for test drives."}
            </EmptyState>
          )}
        </Card>
      ) : (
        <>
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Vehicles">
            {list.items.map((vehicle) => (
              <li key={vehicle.id} className="flex">
                <VehicleCard
                  vehicle={vehicle}
                  timezone={timezone}
                  canManage={canManage}
                  onTakeOut={() => onTakeOut(vehicle)}
                  onReturn={() => markReturned(vehicle)}
                  onRemove={() => remove(vehicle)}
                  returning={returnVehicle.isPending && returnVehicle.variables === vehicle.id}
                  removing={removeVehicle.isPending && removeVehicle.variables === vehicle.id}
                />
              </li>
            ))}
          </ul>
          {list.hasNextPage && (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? "Loading..." : "Load more"}
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

/** What the four status icons mean (part 2 §2). */
function StatusLegend() {
  return (
    <ul className="-mt-2 flex flex-wrap gap-x-5 gap-y-2 text-xs text-muted-foreground" aria-label="Status icons">
      {Object.entries(VEHICLE_STATUS_LOOK).map(([key, look]) => {
        const Icon = look.icon;
        return (
          <li key={key} className="flex items-center gap-1.5">
            <Icon className="size-3.5" aria-hidden="true" />
            {look.label}
          </li>
        );
      })}
    </ul>
  );
}
