import { Plus } from "lucide-react";
import { Controller, useForm } from "react-hook-form";
import { createVehicleSchema } from "../../shared/schemas/vehicle";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { FormField } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Spinner } from "../components/ui/spinner";
import { fieldErrors, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useAddVehicle } from "./api";
import { vehicleTitle } from "./format";
import { addVehicleRequest, DOLLARS_MESSAGE, EMPTY, isDollarAmount, type AddVehicleValues } from "./add-vehicle-request";
import { requestResolver, serverFieldMessages } from "./request-resolver";

// "Add Vehicle" (spec part 2 §2, §5, §7), management only (the server refuses others too). Price is typed in dollars
// and sent in cents (×100); mileage as a whole number when given. The optional VIN is checked on both sides (check
// digit, model year). Toasts: "Vehicle Added", or the server's message or "Failed to add vehicle." (part 2 §8).

const fieldOf = (path: string) => (path in EMPTY ? (path as keyof AddVehicleValues) : undefined);

const resolver = requestResolver<AddVehicleValues>(createVehicleSchema, addVehicleRequest, fieldOf, (values) => (isDollarAmount(values.price) ? {} : { price: DOLLARS_MESSAGE }));

export function AddVehicleDialog({ open, onOpenChange, dealershipId }: { open: boolean; onOpenChange: (open: boolean) => void; dealershipId: string }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <AddVehicleForm dealershipId={dealershipId} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function AddVehicleForm({ dealershipId, onDone }: { dealershipId: string; onDone: () => void }) {
  const form = useForm<AddVehicleValues>({ defaultValues: EMPTY, resolver });
  const add = useAddVehicle(dealershipId);
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const vehicle = await add.mutateAsync(addVehicleRequest(values));
      toast({ title: "Vehicle Added", description: `${vehicleTitle(vehicle)} (stock #${vehicle.stockNumber}) is in the inventory.`, variant: "success" });
      onDone();
    } catch (error) {
      for (const [field, message] of serverFieldMessages(fieldErrors(error), fieldOf)) form.setError(field, { type: "server", message });
      // A taken stock number is a 409 without fields: put it on the field as well as in the toast.
      const message = serverMessage(error, "Failed to add vehicle.");
      if (/stock number/i.test(message)) form.setError("stockNumber", { type: "server", message });
      toast({ title: "Error", description: message, variant: "destructive" });
    }
  });

  return (
    <>
      <DialogHeader>
        <DialogTitle>Add Vehicle</DialogTitle>
        <DialogDescription>Add a vehicle to the inventory so it can be taken out for test drives.</DialogDescription>
      </DialogHeader>
      <form id="add-vehicle-form" noValidate onSubmit={(e) => void submit(e)} className="grid grid-cols-2 gap-4 sm:grid-cols-6">
        <FormField label="Year" required error={errors.year?.message} className="col-span-1 sm:col-span-2">
          <Input id="vehicle-year" inputMode="numeric" maxLength={4} autoComplete="off" placeholder={String(new Date().getFullYear())} {...form.register("year")} />
        </FormField>
        <FormField label="Make" required error={errors.make?.message} className="col-span-1 sm:col-span-2">
          <Input id="vehicle-make" autoComplete="off" placeholder="Honda" {...form.register("make")} />
        </FormField>
        <FormField label="Model" required error={errors.model?.message} className="col-span-1 sm:col-span-2">
          <Input id="vehicle-model" autoComplete="off" placeholder="Civic" {...form.register("model")} />
        </FormField>
        <FormField label="Trim" error={errors.trim?.message} className="col-span-1 sm:col-span-2">
          <Input id="vehicle-trim" autoComplete="off" placeholder="EX-L" {...form.register("trim")} />
        </FormField>
        <FormField label="Stock number" required error={errors.stockNumber?.message} className="col-span-1 sm:col-span-2">
          <Input id="vehicle-stock" autoComplete="off" placeholder="A1234" {...form.register("stockNumber")} />
        </FormField>
        <Controller
          control={form.control}
          name="condition"
          render={({ field }) => (
            <FormField label="Condition" required error={errors.condition?.message} className="col-span-1 sm:col-span-2">
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger id="vehicle-condition" aria-label="Condition" className="w-full">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="new">New</SelectItem>
                  <SelectItem value="used">Used</SelectItem>
                </SelectContent>
              </Select>
            </FormField>
          )}
        />
        <FormField label="Exterior colour" error={errors.exteriorColor?.message} className="col-span-2 sm:col-span-2">
          <Input id="vehicle-color" autoComplete="off" placeholder="Crystal Black" {...form.register("exteriorColor")} />
        </FormField>
        <FormField label="Price ($)" error={errors.price?.message} className="col-span-1 sm:col-span-2">
          <Input id="vehicle-price" inputMode="decimal" autoComplete="off" placeholder="24500" {...form.register("price")} />
        </FormField>
        <FormField label="Mileage" error={errors.mileage?.message} className="col-span-1 sm:col-span-2">
          <Input id="vehicle-mileage" inputMode="numeric" autoComplete="off" placeholder="12000" {...form.register("mileage")} />
        </FormField>
        <FormField label="VIN" error={errors.vin?.message} hint="Optional. 17 characters; checked against its check digit." className="col-span-2 sm:col-span-6">
          <Input id="vehicle-vin" autoComplete="off" maxLength={20} className="font-mono uppercase" placeholder="1HGCM82633A004352" {...form.register("vin")} />
        </FormField>
      </form>
      <DialogFooter className="border-t pt-4">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" form="add-vehicle-form" disabled={isSubmitting}>
          {isSubmitting ? <Spinner /> : <Plus />}
          {isSubmitting ? "Adding..." : "Add Vehicle"}
        </Button>
      </DialogFooter>
    </>
  );
}
