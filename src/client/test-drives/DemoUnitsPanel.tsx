import { CarFront, KeyRound, Plus, RotateCcw, Trash2 } from "lucide-react";
import { useState } from "react";
import { createTestDriveUnitSchema, removeVehicleConfirmText, type TestDriveUnit } from "../../shared/schemas/vehicle";
import { EmptyState } from "../components/page-header";
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
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useAddTestDriveUnit, useRemoveTestDriveUnit, useReturnTestDriveUnit, useTestDriveUnits } from "./api";
import { VehicleStatusBadge } from "./components";
import { vehicleTitle } from "./format";
import { TakeOutDialog } from "./TakeOutDialog";
import { OutSince } from "./VehicleCard";

// The dealership's demo and loaner units (spec part 2 §3 Test-drive unit, §4, §5): the same list, take-out, "Return
// Demo", add and remove (management) as the inventory, with the same toasts.

export function DemoUnitsPanel({ dealershipId, timezone, canManage }: { dealershipId: string; timezone: string; canManage: boolean }) {
  const units = useTestDriveUnits(dealershipId);
  const returnUnit = useReturnTestDriveUnit(dealershipId);
  const removeUnit = useRemoveTestDriveUnit(dealershipId);
  const [takingOut, setTakingOut] = useState<TestDriveUnit | null>(null);
  const [removing, setRemoving] = useState<TestDriveUnit | null>(null);
  const [adding, setAdding] = useState(false);

  function returnDemo(unit: TestDriveUnit) {
    returnUnit.mutate(unit.id, {
      onSuccess: () => toast({ title: "Demo Returned", description: `${vehicleTitle(unit)} is available again.`, variant: "success" }),
      onError: (error) => toast({ title: "Error", description: serverMessage(error, "Failed to return demo vehicle"), variant: "destructive" }),
    });
  }

  function remove(unit: TestDriveUnit) {
    removeUnit.mutate(unit.id, {
      onSuccess: () => toast({ title: "Vehicle Removed", description: `${vehicleTitle(unit)} was removed.`, variant: "success" }),
      onError: (error) => toast({ title: "Error", description: serverMessage(error, "Failed to remove vehicle."), variant: "destructive" }),
    });
  }

  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">Demo and loaner units kept for test drives, apart from the vehicles for sale.</p>
        {canManage && (
          <Button variant="outline" onClick={() => setAdding(true)}>
            <Plus />
            Add Unit
          </Button>
        )}
      </div>
      <Card className="overflow-hidden">
        {units.isPending ? (
          <div className="grid gap-2 p-4" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-16 rounded-lg" />
            ))}
          </div>
        ) : units.isError && units.items.length === 0 ? (
          <EmptyState title="Demo units could not be loaded" action={<Button onClick={() => void units.refetch()}>Try again</Button>}>
            Check your connection and try again.
          </EmptyState>
        ) : units.items.length === 0 ? (
          <EmptyState icon={<CarFront />} title="No demo units yet">
            {canManage ? "Add the dealership's demo and loaner units to take them out for test drives." : "Management adds the dealership's demo and loaner units here."}
          </EmptyState>
        ) : (
          <ul className="divide-y">
            {units.items.map((unit) => {
              const out = unit.status === "out";
              return (
                <li key={unit.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="unit-row">
                  <div className="flex min-w-0 flex-1 items-center gap-3">
                    <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-muted text-muted-foreground">
                      <CarFront className="size-5" aria-hidden="true" />
                    </span>
                    <div className="min-w-0">
                      <p className="truncate font-semibold">{vehicleTitle(unit)}</p>
                      <p className="truncate text-sm text-muted-foreground">
                        <span className="font-mono">#{unit.stockNumber}</span>
                        {out && (
                          <>
                            {" · "}with {unit.currentUserName ?? "a client"}
                            {unit.takenOutAt && (
                              <>
                                {" "}
                                <OutSince takenOutAt={unit.takenOutAt} timezone={timezone} />
                              </>
                            )}
                          </>
                        )}
                      </p>
                    </div>
                  </div>
                  <div className="flex items-center gap-2 sm:justify-end">
                    <VehicleStatusBadge status={!unit.isActive ? "unavailable" : out ? "out" : "available"} className="mr-auto sm:mr-2" />
                    {out ? (
                      <Button size="sm" variant="success" onClick={() => returnDemo(unit)} disabled={returnUnit.isPending && returnUnit.variables === unit.id}>
                        <RotateCcw />
                        Return Demo
                      </Button>
                    ) : (
                      <Button size="sm" onClick={() => setTakingOut(unit)} disabled={!unit.isActive}>
                        <KeyRound />
                        Take Out
                      </Button>
                    )}
                    {canManage && (
                      <Button variant="ghost" size="icon-sm" aria-label={`Remove ${vehicleTitle(unit)}`} className="text-muted-foreground hover:text-destructive" onClick={() => setRemoving(unit)}>
                        <Trash2 />
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Card>

      <TakeOutDialog open={takingOut !== null} onOpenChange={(open) => !open && setTakingOut(null)} dealershipId={dealershipId} timezone={timezone} unit={takingOut ?? undefined} />
      <AddUnitDialog open={adding} onOpenChange={setAdding} dealershipId={dealershipId} />
      <AlertDialog open={removing !== null} onOpenChange={(open) => !open && setRemoving(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{removing ? removeVehicleConfirmText(removing) : ""}</AlertDialogTitle>
            <AlertDialogDescription>The unit's past test drives stay in the records and the analytics.</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={() => removing && remove(removing)}>
              Remove Unit
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function AddUnitDialog({ open, onOpenChange, dealershipId }: { open: boolean; onOpenChange: (open: boolean) => void; dealershipId: string }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <AddUnitForm dealershipId={dealershipId} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function AddUnitForm({ dealershipId, onDone }: { dealershipId: string; onDone: () => void }) {
  const form = useZodForm(createTestDriveUnitSchema, { defaultValues: { year: "", make: "", model: "", stockNumber: "" } });
  const add = useAddTestDriveUnit(dealershipId);
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      const unit = await add.mutateAsync(values);
      toast({ title: "Vehicle Added", description: `${vehicleTitle(unit)} (stock #${unit.stockNumber}) is a demo unit now.`, variant: "success" });
      onDone();
    } catch (error) {
      applyServerFieldErrors(form, error);
      toast({ title: "Error", description: serverMessage(error, "Failed to add vehicle."), variant: "destructive" });
    }
  });
  return (
    <>
      <DialogHeader>
        <DialogTitle>Add Demo Unit</DialogTitle>
        <DialogDescription>A demo or loaner unit the team can take out for test drives.</DialogDescription>
      </DialogHeader>
      <form id="add-unit-form" noValidate onSubmit={(e) => void submit(e)} className="grid gap-4 sm:grid-cols-2">
        <FormField label="Year" required error={errors.year?.message}>
          <Input id="unit-year" inputMode="numeric" maxLength={4} autoComplete="off" {...form.register("year")} />
        </FormField>
        <FormField label="Stock number" required error={errors.stockNumber?.message}>
          <Input id="unit-stock" autoComplete="off" {...form.register("stockNumber")} />
        </FormField>
        <FormField label="Make" required error={errors.make?.message}>
          <Input id="unit-make" autoComplete="off" {...form.register("make")} />
        </FormField>
        <FormField label="Model" required error={errors.model?.message}>
          <Input id="unit-model" autoComplete="off" {...form.register("model")} />
        </FormField>
      </form>
      <DialogFooter className="border-t pt-4">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" form="add-unit-form" disabled={isSubmitting}>
          {isSubmitting ? <Spinner /> : <Plus />}
          {isSubmitting ? "Adding..." : "Add Unit"}
        </Button>
      </DialogFooter>
    </>
  );
}
