import { KeyRound } from "lucide-react";
import { localToday } from "../../shared/dealership-clock";
import { fullName } from "../../shared/format";
import type { TestDriveUnit, Vehicle } from "../../shared/schemas/vehicle";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { Spinner } from "../components/ui/spinner";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useCreateTestDrive } from "./api";
import { vehicleTitle } from "./format";
import { applyTestDriveServerErrors, ClientFields, useTakeOutProblem, useTestDriveForm, VehicleFields } from "./test-drive-form";
import { testDriveRequest } from "./test-drive-request";

// The take-out dialog (spec part 2 §2, §5): a new or existing client, the chosen inventory vehicle (or a unit, or a
// vehicle typed in), then "Take Out Demo". The button is disabled until the rules of §5 hold, or while the vehicle is
// already out; the rule still unmet is written under it. Toasts: "Demo Taken Out", or the server's message or
// "Failed to take out demo vehicle" (part 2 §8). A second person taking the same vehicle out gets the server's 409.

interface TakeOutProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  dealershipId: string;
  timezone: string;
  /** Opened from a vehicle's card: that vehicle. Otherwise the person chooses one. */
  vehicle?: Vehicle;
  /** Opened from a demo unit's row: that unit. */
  unit?: TestDriveUnit;
}

export function TakeOutDialog(props: TakeOutProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="max-w-xl" aria-describedby="take-out-description">
        {/* The content unmounts when the dialog closes, so every opening starts with a fresh form. */}
        <TakeOutForm {...props} />
      </DialogContent>
    </Dialog>
  );
}

function TakeOutForm({ onOpenChange, dealershipId, timezone, vehicle, unit }: TakeOutProps) {
  const preset = vehicle ? { vehicleType: "vehicle" as const, vehicleId: vehicle.id } : unit ? { vehicleType: "tdu" as const, tduId: unit.id } : {};
  const form = useTestDriveForm(dealershipId, "out", localToday(timezone), preset);
  const problem = useTakeOutProblem(form);
  const create = useCreateTestDrive(dealershipId);
  const alreadyOut = vehicle?.testDriveStatus === "out" || unit?.status === "out";
  const subject = vehicle ?? unit;

  const submit = form.handleSubmit(async (values) => {
    try {
      const drive = await create.mutateAsync(testDriveRequest(values, dealershipId, "out"));
      toast({ title: "Demo Taken Out", description: `${drive.vehicleDriven ?? "The vehicle"} is out with ${fullName(drive)}.`, variant: "success" });
      onOpenChange(false);
    } catch (error) {
      applyTestDriveServerErrors(form, error);
      toast({ title: "Error", description: serverMessage(error, "Failed to take out demo vehicle"), variant: "destructive" });
    }
  });

  const busy = form.formState.isSubmitting;
  return (
    <>
      <DialogHeader>
        <DialogTitle>Take Out Demo</DialogTitle>
        <DialogDescription id="take-out-description">
          {subject ? `${vehicleTitle(subject)} · Stock #${subject.stockNumber}` : "Record who is taking which vehicle out right now."}
        </DialogDescription>
      </DialogHeader>
      <form id="take-out-form" noValidate onSubmit={(e) => void submit(e)} className="grid gap-6">
        <VehicleFields form={form} dealershipId={dealershipId} fixedVehicle={vehicle} />
        <ClientFields form={form} dealershipId={dealershipId} />
      </form>
      <DialogFooter className="flex-col items-stretch gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-center text-[13px] text-muted-foreground sm:text-left" data-testid="take-out-problem" aria-live="polite">
          {alreadyOut ? "This vehicle is already out on a test drive." : (problem ?? "Ready to go.")}
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="take-out-form" disabled={busy || alreadyOut || problem !== null}>
            {busy ? <Spinner /> : <KeyRound />}
            {busy ? "Taking out..." : "Take Out Demo"}
          </Button>
        </div>
      </DialogFooter>
    </>
  );
}
